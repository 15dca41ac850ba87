"""A person at the terminal: numbered options, the confirm/undo step, undo locked after the round."""

from __future__ import annotations

import io

from meeple.interpreter.play import play_at_terminal, undo_point
from tests.conftest import shipped


def scripted(monkeypatch, answer):
    prompts = []

    def fake_input(prompt=""):
        prompts.append(prompt)
        return answer(prompt, len(prompts))

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts


def test_a_person_plays_a_whole_game_with_an_undo(monkeypatch):
    undone = []

    def answer(prompt, n):
        if "confirm" in prompt:
            if not undone:
                undone.append(n)
                return "u"
            return ""
        return "1"

    prompts = scripted(monkeypatch, answer)
    out = io.StringIO()
    assert play_at_terminal(shipped("queens_wishes"), 2, 3, 0, ["random"], out) == 0
    text = out.getvalue()
    assert "you are P1 of 2" in text and "undone" in text
    # the placement prompt came back after the undo: the confirm was followed by a placement choice
    assert prompts[undone[0]] == "> " or prompts[undone[0]].startswith("> ")
    assert "Empty spaces" in text.splitlines()[-3] and text.splitlines()[-2].startswith("P1")


def test_bad_answers_are_asked_again_and_eof_quits(monkeypatch):
    answers = iter(["zero", "99", "u"])

    def answer(prompt, n):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    scripted(monkeypatch, answer)
    out = io.StringIO()
    assert play_at_terminal(shipped("queens_wishes"), 2, 3, 0, ["random"], out) == 0
    text = out.getvalue()
    assert text.count("type a number from 1 to 5") == 2
    assert "nothing to undo here" in text and "game abandoned" in text


def test_undo_locks_when_the_round_ends():
    engine = shipped("queens_wishes")
    state, _ = engine.start(1, 4)
    history = []
    # solo: choose a bag, a tile, then place it (undoable)
    for _ in range(2):
        d = engine.decision(state)
        history.append((state, d.actor, d.undoable))
        state, _ = engine.apply(state, 0)
    d = engine.decision(state)
    assert d.undoable
    history.append((state, d.actor, d.undoable))
    state, _ = engine.apply(state, 0)
    # the turn (phase instance) ended with the placement: nothing is undoable any more
    assert undo_point(history, 0, state) is None
    # but inside the same phase instance the placement is the undo point
    assert undo_point(history, 0, history[-1][0]) == 2


def test_save_and_resume(tmp_path, monkeypatch):
    """A save holds every choice; resuming replays them; other rules are refused."""
    import json

    from meeple.cli import main

    save = tmp_path / "game.json"
    answers = iter(["1", "", "1", "", "1", ""])

    def answer(prompt, n):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None  # the person walks away mid-game

    scripted(monkeypatch, answer)
    assert main(["play", "queens_wishes", "--players", "2", "--seed", "3", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    assert data["meeple_save"] == 1 and len(data["choices"]) >= 3 and data["seat"] == 0
    assert not list(tmp_path.glob("*.tmp")), "the temporary file must be renamed away"

    from meeple.interpreter import saves

    engine = shipped("queens_wishes")
    state = saves.resume(engine, data)
    assert state["step"] == len(data["choices"])
    data["rules"]["phase round"] = "0000"  # as if the round had been rewritten since
    save.write_text(json.dumps(data))
    scripted(monkeypatch, lambda prompt, n: "q")
    assert main(["play", "queens_wishes", "--resume", str(save)]) == 2


def test_resume_continues_and_keeps_saving(tmp_path, monkeypatch, capsys):
    import json

    from meeple.cli import main

    save = tmp_path / "g.json"
    first = iter(["1", ""])
    scripted(monkeypatch, lambda p, n: next(first) if n <= 2 else (_ for _ in ()).throw(EOFError))
    main(["play", "queens_wishes", "--players", "2", "--seed", "4", "--save", str(save)])
    before = len(json.loads(save.read_text())["choices"])
    scripted(monkeypatch, lambda p, n: "" if "confirm" in p else "1")
    assert main(["play", "queens_wishes", "--resume", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"resumed after {before} choices" in out and "Empty spaces" in out
    assert len(json.loads(save.read_text())["choices"]) > before


def test_damaged_save_is_refused(tmp_path, capsys):
    from meeple.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["play", "queens_wishes", "--resume", str(bad)]) == 2
    assert "not a Meeple save" in capsys.readouterr().err


def test_strict_run(capsys):
    from meeple.cli import main

    assert main(["run", "wild_gardens", "--players", "2", "--seed", "2", "--strict"]) == 0


class FirstOption:
    """A bot that always takes the first option (to steer a test)."""

    name = "first"

    def __init__(self, engine, seat, seed):
        pass

    def choose(self, view, decision):
        return 0


def test_a_person_casts_a_spell_on_another_players_turn(monkeypatch):
    """Apothebakery: P2 declares a heal; the reaction window asks P1, who casts Free Sample."""
    from meeple.interpreter.machine import Machine

    engine = shipped("apothebakery")
    state, _ = engine.start(2, 7)
    while state["phase"] != "round":  # species and objectives chosen: the table is set
        state, _ = engine.apply(state, 0)
    zones = state["zones"]

    def relocate(item, zone):
        for key, items in zones.items():  # new lists: an apply's state shares them (state.fork)
            if item in items:
                zones[key] = [c for c in items if c != item]
        zones[zone] = zones[zone] + [item]

    relocate("sp-free-sample-1", "oven/0")
    cure = zones["cure_at/a1"][0]
    for need in engine.game.components[cure]["needs"]:  # give P2 exactly what the cure asks
        pool = zones["stock/rainbow_vial/clear"] if need == "rainbow" else zones[f"stock/pure/{need}"]
        token = pool[0]
        relocate(token, "inventory/1")
    state["vars"]["hearts/a1"] = 1
    state["pending"] = None
    state["stack"] = [[engine.game.effects["heal_turn"][0], 0, {"p": 1}]]
    Machine(engine.game, state).run()
    # Spells at any time: P1 may cast before P2 chooses whom to heal (the person passes there)
    assert (engine.decision(state).actor, engine.decision(state).prompt) == (0, "Act now, before P2 decides?")

    asked = []

    def answer(prompt, n):
        asked.append(prompt)
        return "2" if len(asked) == 1 else "1"  # pass before P2 decides; then cast, then +1 heart

    scripted(monkeypatch, answer)
    out = io.StringIO()
    play_at_terminal(engine, 2, 7, 0, ["random", "tests.test_play:FirstOption"], out, start=state)
    text = out.getvalue()
    assert "Act now (heal declared)?" in text and "P1 acts: Cast your spell" in text
    # the person was asked on P2's turn (the question's words are the ruleset's), and cast
    assert text.index("P1: your turn") < text.index("P1 acts: Cast your spell")
    # P2 healed at 2 hearts instead of 1: +2 instead of +3 on top of the cure's reputation
    rep = engine.game.components[cure]["rep"]
    assert f"P2's reputation = {rep + 2}" in text


SECRET_PICK = """
game "Secret pick"
players 2
component card from "cards.csv":
    value: int
zone deck: deck of card
zone market: pile of card
zone hand per player: hand of card
zone kept per player: hand of card
setup:
    move card to deck
    for each player in turn_order:
        draw 2 from deck into hand
    draw 2 from deck into market
    next pick

phase pick:
    for each player in turn_order:
        choose c from hand:
            move c to kept
        choose m from market:
            move m to kept

score "Kept": sum(c.value for each c in kept)
"""


def test_a_bots_secret_choice_is_not_shown_but_a_public_one_is(monkeypatch, tmp_path):
    from tests.conftest import rules

    engine = rules(SECRET_PICK, tmp_path, {"cards.csv": "id,value\na,1\nb,2\nc,3\nd,4\ne,5\nf,6\n"})
    scripted(monkeypatch, lambda prompt, n: "1")
    out = io.StringIO()
    # The person is P2, so P1 (a bot) picks first: one card from its hand, one from the market.
    assert play_at_terminal(engine, 2, 5, 1, ["random"], out) == 0
    lines = [ln.split("P1 chooses ", 1)[1] for ln in out.getvalue().splitlines() if "P1 chooses" in ln]
    assert lines[0] == "something hidden"
    assert lines[1].split()[0] in "abcdef" and lines[1].endswith("]")


def test_a_trace_names_a_card_taken_from_a_public_market(tmp_path):
    from meeple.interpreter import runner, trace
    from tests.conftest import rules

    engine = rules(SECRET_PICK, tmp_path, {"cards.csv": "id,value\na,1\nb,2\nc,3\nd,4\ne,5\nf,6\n"})
    result = runner.play(engine, 2, 5, ["random"])
    picks = [ln for ln in trace.render(engine.game, result.trace.lines, 1).splitlines() if "P1 chooses" in ln]
    assert "something hidden" in picks[0] and "something hidden" not in picks[1]


def test_a_save_survives_a_comment_edit_but_not_a_rule_change(tmp_path, monkeypatch, capsys):
    """Resumed from another folder by the ruleset's absolute path; comments and layout are not
    the rules, a changed definition is, and the refusal names it."""
    import json
    import shutil

    from meeple.cli import main
    from tests.conftest import ROOT

    game = tmp_path / "fair"
    shutil.copytree(ROOT / "rulesets" / "tutorial", game)
    save = tmp_path / "fair.json"
    monkeypatch.chdir(tmp_path)
    scripted(monkeypatch, lambda p, n: "1" if n == 1 else (_ for _ in ()).throw(EOFError))
    assert main(["play", "fair/mudcake_fair.rules", "--seed", "38", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    assert data["ruleset"] == str((game / "mudcake_fair.rules").resolve()) and len(data["choices"]) == 3

    rules = game / "mudcake_fair.rules"
    text = rules.read_text()
    rules.write_text("# house copy\n\n" + text.replace("phase round:\n", "phase round:   # six rounds\n\n"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    scripted(monkeypatch, lambda p, n: "q")
    assert main(["play", "--resume", str(save)]) == 0
    assert "resumed after 3 choices" in capsys.readouterr().out

    rules.write_text(text.replace("if round_number < 6:", "if round_number < 5:"))
    assert main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert "the rules changed since this save (phase round changed)" in err and err.count("\n") == 1

    rules.write_text(text)  # the rules as they were, but a card's points changed
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Mud,earthy,1,", "Mud,earthy,2,", 1))
    assert main(["play", "--resume", str(save)]) == 2
    assert "(file cards.csv changed)" in capsys.readouterr().err


def test_a_trace_of_a_rules_file_replays_from_any_folder(tmp_path, monkeypatch, capsys):
    import json
    import shutil

    from meeple.cli import main
    from tests.conftest import ROOT

    shutil.copytree(ROOT / "rulesets" / "tutorial", tmp_path / "fair")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "fair/mudcake_fair.rules", "--trace", "t.jsonl"]) == 0
    head = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert head["ruleset"] == str(tmp_path.resolve() / "fair" / "mudcake_fair.rules")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main(["replay", "../t.jsonl"]) == 0
    assert main(["run", "queens_wishes", "--trace", "q.jsonl"]) == 0  # a shipped game keeps its name
    assert json.loads(open("q.jsonl").readline())["ruleset"] == "queens_wishes"


CHOICES = """
game "Choices"
players 2
enum symbol = rose | tree
component tile from "tiles.csv":
    cells: shape of symbol
zone supply: pile of tile
grid garden per player: 4 x 4 of symbol
counter bonus per player = 0
setup:
    move tile to supply
    for each player in turn_order:
        choose t from supply where fits(t, garden):
            place t on garden as covered, undoable "Where does the tile go?"
            bonus += count(each c in covered where c.symbol == rose)
        otherwise:
            bonus -= 1
        may choose n from [1, 2, 3] by player "How many extra points?":
            bonus += n
"""


def test_undo_at_a_later_prompt_rewinds_the_placement_and_the_save(monkeypatch, tmp_path):
    """u at the next prompt of the same phase takes the placement back; the save follows at once."""
    import json

    from tests.conftest import rules

    engine = rules(CHOICES, tmp_path, {"tiles.csv": "id,cells\nt1,rose tree\nt2,tree tree / rose .\n"})
    typed = iter(["1", "2 2", "", "", "u", "q"])  # tile, ROW COL, Enter places, Enter confirms, undo
    prompts = scripted(monkeypatch, lambda prompt, n: next(typed))
    out, save = io.StringIO(), tmp_path / "s.json"
    assert play_at_terminal(engine, 2, 1, 0, ["random"], out, save=str(save)) == 0
    text = out.getvalue()
    assert "How many extra points?" in text and prompts[4] == "> (u = undo) "
    assert "undone" in text and text.rindex("Where does the tile go?") > text.index("How many extra points?")
    assert len(json.loads(save.read_text())["choices"]) == 1  # the tile only: the placement is gone


def test_a_long_list_shows_its_first_options_and_how_to_see_the_rest():
    from meeple.interpreter.engine import Option
    from meeple.interpreter.terminal import SHOWN, listing

    options = [Option(str(i), f"card {i}", i) for i in range(40)]
    lines = listing(options)
    assert len(lines) == SHOWN + 1 and lines[0] == "    1. card 0" and "and 15 more" in lines[-1]
    assert len(listing(options[: SHOWN + 5])) == SHOWN + 5  # a few more are shown rather than hidden
    assert listing(options, [3, 30]) == ["    4. card 3", "   31. card 30"]  # a filter keeps the numbers


def test_hot_seat_without_a_terminal_separates_the_seats(monkeypatch):
    """Piped output cannot be cleared: a separator line, then the wait for the next person."""
    cells = iter(["2,2", "2,2", "1 1", "q"])  # P1 takes the middle, P2 tries it too, then a corner
    prompts = scripted(monkeypatch, lambda prompt, n: "" if "Pass to" in prompt else next(cells))
    out = io.StringIO()
    assert play_at_terminal(shipped("tic_tac_toe"), 2, 1, None, ["human", "human"], out) == 0
    text = out.getvalue()
    assert [p for p in prompts if "Pass to" in p][:3] == [
        "Pass to P1, then press Enter. ",
        "Pass to P2, then press Enter. ",
        "Pass to P1, then press Enter. ",
    ]
    assert "=" * 60 in text and "\x1b" not in text
    assert "row 2, column 2 is not one of the options" in text  # P2 may not take P1's cell


GROUPS = """
game "Groups"
players 2
enum token = one | two | three
counter stock per player per token = 0
flag placed per player per token = false
counter points per player = 0
counter round_number = 0
setup:
    choose one by first_player:
        "go":
            round_number += 1
        "stay":
            pass
"""


def test_the_summary_groups_a_players_counters_and_leaves_out_zeros_and_others():
    from meeple.interpreter.terminal import counters_text
    from tests.conftest import rules

    engine = rules(GROUPS)
    state, _ = engine.start(2, 1)
    state["vars"].update(
        {
            "stock/0/two": 3,
            "stock/0/three": 1,
            "placed/0/one": True,
            "placed/0/three": True,
            "points/0": 7,
            "round_number": 2,
            "stock/1/one": 5,
            "placed/1/two": True,
        }
    )
    assert counters_text(engine.game, engine.view(state, 0), 0) == [
        "  points[P1]=7  round number=2  stock[P1]: two 3, three 1  placed[P1]: one, three"
    ]


def test_the_whole_table_shows_shared_things_then_each_player_yours_marked_and_others_hidden():
    from meeple.interpreter.terminal import table_text

    engine = shipped("apothebakery")
    state, _ = engine.start(2, 5)
    while not state["zones"]["secret/1"]:  # the setup deals the objectives after the first choices
        state, _ = engine.apply(state, 0)
    lines = table_text(engine.game, engine.view(state, 0), 0)
    mine, theirs = lines.index("P1 (you):"), lines.index("P2:")
    assert lines[1] == "On the table:" and 1 < mine < theirs
    shared, p1, p2 = lines[2:mine], lines[mine + 1 : theirs], lines[theirs + 1 :]
    assert "  the pure plant vials: 8 × pure plant vial" in shared  # a pile of alike cards is a count
    assert any(line.startswith("  P1's mana=") for line in p1) and not any("P2" in line for line in p1)
    secret = engine.game.labels[state["zones"]["secret/0"][0]]
    assert any(line.startswith("  P1's secret Objectives: ") and secret in line for line in p1)  # yours by name
    assert "  P2's secret Objectives: 3 hidden" in p2  # another's, only as a count
    assert not any("=0 " in line + " " or "=false" in line for line in lines)  # zeros and false are left out


def test_the_table_at_the_end_is_arranged_by_the_rulesets_layout(monkeypatch):
    """As `s` shows it during the game: your area, the shared areas under their titles, the others'."""
    scripted(monkeypatch, lambda prompt, n: "" if "confirm" in prompt else "1")
    out = io.StringIO()
    assert play_at_terminal(shipped("connect_four"), 2, 4, 0, ["random"], out) == 0
    text = out.getvalue()
    end = text[text.index("The table at the end:") :].splitlines()
    engine = shipped("connect_four")
    titles = [a["title"] for a in engine.game.page["areas"]]
    assert end[1].startswith("start player:") and end[2] == "P1 (you)", end[:4]
    assert all(title in end for title in titles) and "P2" in end, end  # the shared areas, then the other seat
    assert end[-1].startswith("P2") or end[-1].startswith("P1")  # the scores follow the table
