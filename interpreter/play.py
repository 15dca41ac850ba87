"""A person at the terminal plays one seat; bots play the others.

The person sees their view (hidden zones as counts), the numbered options, and
may undo a decision the rules mark `undoable` while its phase is still running:
right after making it ("green checkmark": Enter confirms, u undoes) or at a later
prompt in the same phase. Undo rewinds to the state before that decision.
"""
from __future__ import annotations

import sys

from interpreter import saves
from interpreter.agents import make_agents
from interpreter.runner import choice_seen_by
from interpreter.render import event_text, player_name, score_table, state_text


def ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def undo_point(history: list, seat: int, state: dict):
    """The index in history of the seat's latest undoable decision in the running phase."""
    for i in range(len(history) - 1, -1, -1):
        before, actor, undoable = history[i][:3]
        if before["seq"] != state["seq"]:
            return None
        if actor == seat and undoable:
            return i
    return None


def play_at_terminal(engine, players: int, seed: int, seat: int, agent_names: list[str],
                     out=None, save: str | None = None, resumed: dict | None = None,
                     header: dict | None = None, start: dict | None = None) -> int:
    """Play one game; with `save`, every choice is saved atomically as it is made.

    `start` begins from a given state instead of the setup (tests, puzzles)."""
    out = out or sys.stdout
    g = engine.game
    bots = make_agents(engine, agent_names, players, seed)
    choices = list(resumed["choices"]) if resumed else []
    if resumed:
        state, events = saves.resume(engine, resumed), []
        print(f"resumed after {len(choices)} choices", file=out)
    elif start is not None:
        state, events = start, []
    else:
        state, events = engine.start(players, seed)
    history = []  # (state before, actor, undoable, choices so far)

    def record(choice_id: str) -> None:
        choices.append(choice_id)
        if save:
            saves.write(save, dict(header or {}, meeple_save=1, digest=g.digest, players=players, seed=seed,
                                   seat=seat, agents=agent_names, choices=choices))
    print(f"{g.title}: you are {player_name(seat)} of {players}. Type a number, u to undo, q to quit.",
          file=out)
    for e in events:
        print("  " + event_text(g, e, seat), file=out)
    while (d := engine.decision(state)) is not None:
        if d.actor != seat:
            index = bots[d.actor].choose(engine.view(state, d.actor), d)
            who = choice_seen_by(g, state, d, index, players)
            shown = d.options[index].label if who is None or seat in who else "something hidden"
            history.append((state, d.actor, d.undoable, len(choices)))
            state, events = engine.apply(state, index)
            record(d.options[index].id)
            print(f"{player_name(d.actor)} chooses {shown}", file=out)
            for e in events:
                print("  " + event_text(g, e, seat), file=out)
            continue
        print("", file=out)
        print("\n".join(state_text(g, engine.view(state, seat), seat)), file=out)
        print(f"{d.prompt}", file=out)
        for i, o in enumerate(d.options, 1):
            print(f"  {i:>3}. {o.label}", file=out)
        undo_at = undo_point(history, seat, state)
        answer = ask("> " if undo_at is None else "> (u = undo) ")
        if answer is None or answer.strip().lower() in ("q", "quit"):
            print("game abandoned", file=out)
            return 0
        answer = answer.strip().lower()
        if answer == "u":
            if undo_at is None:
                print("nothing to undo here", file=out)
                continue
            state, kept = history[undo_at][0], history[undo_at][3]
            del history[undo_at:]
            del choices[kept:]
            print("undone", file=out)
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(d.options):
            print(f"type a number from 1 to {len(d.options)}", file=out)
            continue
        index = int(answer) - 1
        before = state
        state, events = engine.apply(state, index)
        history.append((before, seat, d.undoable, len(choices)))
        record(d.options[index].id)
        for e in events:
            print("  " + event_text(g, e, seat), file=out)
        if d.undoable:
            confirm = ask("Enter to confirm, u to undo: ")
            if confirm is not None and confirm.strip().lower() == "u":
                state = before
                history.pop()
                choices.pop()
                print("undone", file=out)
    scores = engine.scores(state)
    print("\n".join(score_table(scores, engine.ranking(state, scores))), file=out)
    return 0
