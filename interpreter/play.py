"""People at the terminal play some seats; bots play the others.

Each person sees what happened since their last decision (as their seat may
see it), the question and the options (interpreter/terminal.py), and the whole
table only when they ask (`s`). Several people can share the terminal
(hot-seat): before a person's turn the screen is cleared, or a separator is
printed, and the game waits for them to press Enter, so nobody reads another
seat's hidden things. A person may undo a decision the rules mark `undoable`
while its phase is still running: right after making it ("green checkmark":
Enter confirms, u undoes) or at a later prompt in the same phase. Undo rewinds
to the state before that decision, and the save follows at once.
"""

from __future__ import annotations

import sys

from meeple.interpreter import saves
from meeple.interpreter.agents import choose as bot_choice
from meeple.interpreter.agents import make_agents
from meeple.interpreter.board_text import all_boards_text
from meeple.interpreter.layout_text import laid_out_table
from meeple.interpreter.render import choice_text, event_text, outcome_text, player_name, score_table, shown_event
from meeple.interpreter.runner import choice_seen_by
from meeple.interpreter.terminal import ask, choose
from meeple.interpreter.trace import private_pass

HUMAN = "human"
CLEAR = "\033[2J\033[H"


def undo_point(history: list, seat: int, state: dict):
    """The index in history of the seat's latest undoable decision in the running phase."""
    for i in range(len(history) - 1, -1, -1):
        before, actor, undoable = history[i][:3]
        if before["seq"] != state["seq"]:
            return None
        if actor == seat and undoable:
            return i
    return None


def seats_of(agent_names: list[str], players: int, seat: int | None) -> tuple[list, list[int]]:
    """Agent names for every seat and the seats people play: those named `human`,
    else the one `seat` (the agents list then names the bots by seat, as in `meeple run`)."""
    names = list(agent_names or ["random"])
    names = (names + [names[-1]] * players)[:players]
    humans = [i for i, n in enumerate(names) if n == HUMAN]
    if not humans:
        humans = [seat or 0]
        names[humans[0]] = HUMAN
    return names, humans


def play_at_terminal(
    engine,
    players: int,
    seed: int,
    seat: int | None,
    agent_names: list[str],
    out=None,
    save: str | None = None,
    resumed: dict | None = None,
    header: dict | None = None,
    start: dict | None = None,
) -> int:
    """Play one game; with `save`, every choice (and every undo) is saved atomically.

    `start` begins from a given state instead of the setup (tests, puzzles)."""
    out = out or sys.stdout
    g = engine.game
    names, humans = seats_of(agent_names, players, seat)
    bots = make_agents(engine, [n if n != HUMAN else "random" for n in names], players, seed)
    choices = list(resumed["choices"]) if resumed else []
    if resumed:
        state, events = saves.resume(engine, resumed, (header or {}).get("rules")), list[dict]()
    elif start is not None:
        state, events = start, []
    else:
        state, events = engine.start(players, seed)
    history: list[tuple] = []  # (state before, actor, undoable, choices so far, unseen news so far)
    news: dict[int, list] = {p: [] for p in humans}  # what each person has not seen yet, as they may see it
    last_view: dict = {}  # each person's view at their last decision: the summary says what changed
    hot_seat = len(humans) > 1
    on_screen = None  # the seat whose view the screen shows

    def write_save() -> None:
        if save:
            saves.write(
                save,
                dict(
                    header or {},
                    meeple_save=1,
                    digest=g.digest,
                    players=players,
                    seed=seed,
                    seat=humans[0],
                    agents=names,
                    choices=choices,
                ),
            )

    def tell(lines_for) -> None:
        for p in humans:
            news[p] += lines_for(p)

    def happened(evs, except_seat=None) -> None:
        for p in humans:
            if p != except_seat:
                news[p] += ["  " + event_text(g, e, p) for e in evs if shown_event(g, e)]

    def marks() -> dict:
        return {p: len(lines) for p, lines in news.items()}

    def forget(since: dict) -> None:  # an undo: nobody saw the undone decisions happen
        for p in humans:
            del news[p][since[p] :]

    def show_news(p) -> None:
        if news[p]:
            if hot_seat:
                print(f"{player_name(p)}, since your last decision:", file=out)
            print("\n".join(news[p]), file=out)
            news[p].clear()

    who = ", ".join(player_name(p) for p in humans)
    print(
        f"{g.title}: {'you are' if not hot_seat else 'people play'} {who} of {players}. "
        "Type a number, h for help, s for the table, u to undo, q to quit.",
        file=out,
    )
    if resumed:
        print(f"resumed after {len(choices)} choices", file=out)
    happened(events)
    while (d := engine.decision(state)) is not None:
        if d.actor not in humans:
            index = bot_choice(bots[d.actor], engine.view(state, d.actor), d)
            seen = choice_seen_by(g, state, d, index, players)
            history.append((state, d.actor, d.undoable, len(choices), marks()))
            state, events = engine.apply(state, index)
            choices.append(d.options[index].id)
            write_save()
            label = d.options[index].label
            unseen = private_pass(d, index)  # nobody else learns the bot was asked
            tell(
                lambda p: (
                    []
                    if unseen and p != d.actor
                    else [choice_text(d.prompt, d.actor, label if seen is None or p in seen else "something hidden")]
                )
            )
            happened(events)
            continue
        p = d.actor
        if hot_seat and on_screen != p:
            pass_to(p, out, clear=on_screen is not None)
        on_screen = p
        show_news(p)
        print("", file=out)
        undo_at = undo_point(history, p, state)
        answer = choose(engine, state, d, p, out, undo_at is not None, last_view.get(p))
        if answer == "quit":
            write_save()  # even with no choice made yet: "saved in" must be true
            print("game abandoned" + (f"; saved in {save}" if save else ""), file=out)
            return 0
        if answer == "undo":
            state, kept = history[undo_at][0], history[undo_at][3]
            forget(history[undo_at][4])
            del history[undo_at:]
            del choices[kept:]
            write_save()
            print("undone", file=out)
            continue
        asked = answer if not isinstance(answer, (int, str)) else None  # a request: not among the options
        before, seen = state, choice_seen_by(g, state, d, answer, players) if isinstance(answer, int) else None
        history.append((before, p, d.undoable, len(choices), marks()))
        taken = asked or d.options[answer]
        state, events = engine.apply(state, taken.id)
        last_view[p] = engine.view(state, p)  # what changes by this seat's next decision is said then
        choices.append(taken.id)
        write_save()
        label = taken.label
        title = "" if asked else d.prompt
        unseen = isinstance(answer, int) and private_pass(d, answer)
        tell(
            lambda q: (
                []
                if q == p or unseen
                else [choice_text(title, p, label if seen is None or q in seen else "something hidden")]
            )
        )
        for e in events:  # what the choice did, at once, as this person sees it
            if shown_event(g, e):
                print("  " + event_text(g, e, p), file=out)
        happened(events, except_seat=p)
        if d.undoable and not asked and state["seq"] == before["seq"]:  # its phase still runs: it may be taken back
            confirm = ask("Enter to confirm, u to undo: ")
            confirm = "q" if confirm is None else confirm.strip().lower()
            if confirm in ("q", "quit"):  # the choice stands (it is saved); the game stops here
                print("game abandoned" + (f"; saved in {save}" if save else ""), file=out)
                return 0
            if confirm == "u":
                state = before
                forget(history.pop()[4])
                choices.pop()
                write_save()
                print("undone", file=out)
    if not hot_seat:  # the last moves of the bots; in hot-seat the final table says it all
        show_news(humans[0])
    print("", file=out)
    print("\n".join(final_table(engine, state, None if hot_seat else humans[0])), file=out)
    scores = engine.scores(state)
    outcome = engine.outcome(state, scores)
    print("\n".join(score_table(scores, engine.ranking(state, scores), outcome=outcome)), file=out)
    for o in outcome or []:
        print(outcome_text(o, players), file=out)
    return 0


def pass_to(seat: int, out, clear: bool = True) -> None:
    """Hide the previous person's screen and wait for the next one to sit down."""
    tty = getattr(out, "isatty", lambda: False)()
    screen = getattr(out, "raw", out)  # past the filter that neutralises escape codes (printable.py)
    if clear:
        print(CLEAR if tty else "\n" + "=" * 60, end="" if tty else "\n", file=screen, flush=True)
    ask(f"Pass to {player_name(seat)}, then press Enter. ")
    if tty:
        print(CLEAR, end="", file=screen, flush=True)


def final_table(engine, state: dict, seat: int | None) -> list[str]:
    """The table at the end, as `s` showed it during the game: arranged by the ruleset's layout
    (as `seat` sees it; None in hot-seat: what everyone sees), else its grids and boards drawn."""
    if engine.game.page is None:
        return all_boards_text(engine.game, state)
    view = engine.view(state, seat)
    start = [f"start player: {player_name(view['first'])}"] if view["players"] > 1 else []
    return ["The table at the end:"] + start + laid_out_table(engine, view, seat)
