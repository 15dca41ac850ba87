"""A person at the terminal: numbered options, the confirm/undo step, undo locked after the round."""
from __future__ import annotations

import io

from interpreter.play import play_at_terminal, undo_point
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
            raise EOFError
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
