"""Traces: every decision and event of a game as JSON lines, rendered as text, replayed.

A trace is a header line (game, ruleset digest, options, variants, seed,
players, agents), a `setup` line with the events before the first decision,
one line per decision (actor, number of options, chosen id and label, events),
and an `end` line with scores and ranking. `replay` runs it again and stops at
the first difference, naming the line.
"""

from __future__ import annotations

import json
from pathlib import Path

from meeple.interpreter import jsontext, outputs
from meeple.interpreter import trace_schema as schema
from meeple.interpreter.render import choice_text, event_text, outcome_text, player_name, shown_event


class TraceError(Exception):
    """A trace that does not replay: the message names the line."""


class TraceWriter:
    def __init__(self, header: dict):
        self.lines = [dict(header, meeple=schema.FORMAT)]

    def setup(self, events: list) -> None:
        self.lines.append({"setup": events})

    def decision(self, step: int, decision, index: int, events: list, seen_by: list | None = None) -> None:
        """One decision; `seen_by` lists the seats that may see what was chosen (None: everyone)."""
        option = decision.options[index]
        line = {
            "step": step,
            "actor": decision.actor,
            "options": len(decision.options),
            "choice": option.id,
            "label": option.label,
            "title": decision.prompt,
            "events": events,
        }
        if seen_by is not None:
            line["seen_by"] = seen_by
        if private_pass(decision, index):
            line["private"] = True
            line["seen_by"] = [decision.actor]
        self.lines.append(line)

    def end(self, scores: list, ranking: list, boards: list | None = None, outcome: list | None = None) -> None:
        end = {"scores": scores, "ranking": ranking, "boards": boards or []}
        if outcome is not None:
            end["outcome"] = outcome
        self.lines.append({"end": end})

    def jsonl(self) -> str:
        """The lines as JSON, each with the chain digest that ties it to the lines before."""
        out, chain = [], ""
        for line in self.lines:
            chain = schema.link(chain, line)
            out.append(json.dumps(dict(line, chain=chain), sort_keys=True) + "\n")
        return "".join(out)

    def save(self, path: str | Path) -> None:
        outputs.write_text(path, self.jsonl())


def read(path: str | Path) -> list[dict]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(f"cannot read trace {path}: {exc}") from None
    return parse(text, str(path))


def parse(text: str, name: str = "trace") -> list[dict]:
    """The lines of a trace given as text (a file read, an upload); `name` prefixes errors."""
    lines: list[dict] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = jsontext.loads(raw)
        except jsontext.JsonError as exc:
            raise TraceError(f"{name}:{number}: not a JSON line ({exc}); the trace is damaged") from None
        if not isinstance(line, dict):
            raise TraceError(f"{name}:{number}: expected a JSON object")
        if not lines and line.get("meeple") not in (1, schema.FORMAT):
            raise TraceError(f"{name}:{number}: not a Meeple trace (no header)")
        if not lines and line["meeple"] != schema.FORMAT:
            raise TraceError(
                f"{name}:{number}: a trace from an older Meeple (format {line['meeple']}); "
                "run the game again to record it"
            )
        if lines and "end" in lines[-1]:
            raise TraceError(f"{name}:{number}: a line after the end of the game")
        wrong = schema.problem(line, not lines)
        if wrong:
            raise TraceError(f"{name}:{number}: {wrong}")
        chain = schema.link(lines[-1]["chain"] if lines else "", line)
        if line["chain"] != chain:
            raise TraceError(
                f"{name}:{number}: this line was edited, or a line before it was removed or added "
                "(its digest does not follow from the lines before)"
            )
        line["_line"] = number
        lines.append(line)
    if not lines:
        raise TraceError(f"{name}:1: not a Meeple trace (no header)")
    return lines


def private_pass(decision, index: int) -> bool:
    """A seat asked alone whether to act now, that passed: nobody else learns it was asked
    (what it could have done tells what it holds in secret). Acting is public."""
    return decision.private and decision.options[index].value is None


def unseen_line(line: dict, viewer) -> bool:
    """Is this whole decision line (not only its choice) kept from `viewer`?"""
    return viewer is not None and viewer != line["actor"] and line.get("private", False)


def hidden_from(line: dict, viewer) -> bool:
    """Was this decision line's choice hidden from `viewer`? (None sees everything)"""
    return viewer is not None and viewer != line["actor"] and viewer not in line.get("seen_by", [viewer])


def render(game, lines: list[dict], viewer=None) -> str:
    """The trace as text: what the snapshot tests compare and people read."""
    head = lines[0]
    opts = " ".join(f"{k}={v}" for k, v in head.get("options", {}).items())
    variants = " ".join(f"+{v}" for v in head.get("variants", []))
    out = [
        f"{head['game']}: seed {head['seed']}, {head['players']} players"
        + (f", {opts}" if opts else "")
        + (f" {variants}" if variants else "")
        + f", agents {','.join(head.get('agents', []))}"
    ]
    # A seat reading its own view numbers the decisions it saw: a gap where another seat
    # was asked alone (and passed) would say that it was asked.
    count = 0
    renumber = viewer is not None and bool(getattr(game, "interrupting", ()))
    for line in lines[1:]:
        if "setup" in line:
            out.append("setup")
            out += ["  " + event_text(game, e, viewer) for e in line["setup"] if shown_event(game, e)]
        elif "step" in line:
            if not unseen_line(line, viewer):
                count += 1
                label = "something hidden" if hidden_from(line, viewer) else line["label"]
                said = choice_text(line.get("title", ""), line["actor"], label)
                out.append(f"{count if renumber else line['step']}. {said} (of {line['options']})")
            out += ["  " + event_text(game, e, viewer) for e in line["events"] if shown_event(game, e)]
        elif "end" in line:
            out += line["end"].get("boards", [])
            for s in line["end"]["scores"]:
                parts = ", ".join(f"{k} {v}" for k, v in s["breakdown"].items())
                out.append(f"score {player_name(s['player'])}: {s['total']} ({parts})")
            order = ", ".join(f"{r['place']}. {player_name(r['player'])}" for r in line["end"]["ranking"])
            out.append(f"ranking: {order}")
            out += [outcome_text(o, len(line["end"]["scores"])) for o in line["end"].get("outcome", [])]
    return "\n".join(out) + "\n"


def _clean(events):
    return json.loads(json.dumps(events, sort_keys=True))


def start_replay(lines: list[dict], load) -> tuple:
    """The engine, and the state after setup checked against the trace: (engine, state, events)."""
    head = lines[0]
    engine = load(head)
    if head.get("digest") != engine.game.digest:  # an empty or missing digest is no version at all
        raise TraceError(
            f"line 1: the trace was made with another version of the ruleset "
            f"(digest {head['digest']}, now {engine.game.digest})"
        )
    state, events = engine.start(head["players"], head["seed"])
    setup = lines[1] if len(lines) > 1 else None
    if setup is None or "setup" not in setup:
        raise TraceError(f"line {setup['_line'] if setup else 2}: expected the setup line after the header")
    if _clean(events) != setup["setup"]:
        raise TraceError(f"line {setup['_line']}: setup events differ from the trace")
    return engine, state, events


def replay_decision(engine, state: dict, line: dict) -> tuple:
    """Take the decision a trace line records, checking it against the game: (state, events)."""
    n = line["_line"]
    d = engine.decision(state)
    if d is None:
        raise TraceError(f"line {n}: the trace has a decision but the game is already over")
    if d.actor != line["actor"]:
        raise TraceError(f"line {n}: expected {player_name(line['actor'])} to decide, but it is {player_name(d.actor)}")
    if len(d.options) != line["options"]:
        raise TraceError(f"line {n}: expected {line['options']} options, found {len(d.options)}")
    try:
        index = d.index_of(line["choice"])
    except KeyError:
        raise TraceError(f"line {n}: option `{line['choice']}` is not available") from None
    if d.options[index].label != line["label"]:
        raise TraceError(f"line {n}: the option reads `{d.options[index].label}`, the trace says `{line['label']}`")
    if (d.prompt or "") != line.get("title", ""):
        raise TraceError(f"line {n}: the question is `{d.prompt}`, the trace says `{line.get('title', '')}`")
    state, events = engine.apply(state, index)
    if _clean(events) != line["events"]:
        raise TraceError(f"line {n}: the events of step {line['step']} differ from the trace")
    return state, events


def replay(lines: list[dict], load) -> dict:
    """Re-run a trace; `load(header)` returns an Engine. Returns the final state."""
    engine, state, _ = start_replay(lines, load)
    step = 0
    for line in lines[2:]:
        if "end" in line:
            break
        if "step" not in line:
            raise TraceError(f"line {line['_line']}: expected a decision line")
        step += 1
        if line["step"] != step:
            raise TraceError(f"line {line['_line']}: step {line['step']} where step {step} comes")
        state, _ = replay_decision(engine, state, line)
    else:
        if engine.decision(state) is not None:
            raise TraceError(f"line {lines[-1]['_line']}: the trace ends before the game does (truncated?)")
        raise TraceError(
            f"line {lines[-1]['_line']}: the game is over but the trace has no end line (scores and ranking)"
        )
    if engine.decision(state) is not None:
        raise TraceError(f"line {line['_line']}: the trace ends but the game goes on")
    end = line["end"]
    scores = engine.scores(state)
    if _clean(scores) != end["scores"]:
        raise TraceError(f"line {line['_line']}: final scores differ from the trace")
    if _clean(engine.ranking(state, scores)) != end["ranking"]:
        raise TraceError(f"line {line['_line']}: the ranking differs from the trace")
    outcome = engine.outcome(state, scores)
    if (_clean(outcome) if outcome is not None else None) != end.get("outcome"):
        raise TraceError(f"line {line['_line']}: the outcome differs from the trace")
    return state
