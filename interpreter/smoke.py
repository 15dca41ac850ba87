"""`meeple check`'s short games: what shows only while the rules run.

Checking the text cannot see a choice that runs out of options in play, a title
whose braces are never read, or a set of none picked from nothing; those stopped
`meeple play` and `run --trace` while `check` passed. So `check` also plays a few
games between random bots (the fewest and the most players, fixed seeds, bounded
in decisions and time) and renders each as `run --trace` does: the JSON trace and
its text, so every title and option label is read as people would read it. A rules
error there is reported like any other, at its `.rules` line, with the command that
plays the same game; a game that only runs long is left to `meeple run`.
"""

from __future__ import annotations

from meeple.dsl.errors import Diagnostic, MeepleError, Span
from meeple.interpreter import runner
from meeple.interpreter.trace import parse, render

SEEDS = (1, 2)
MAX_DECISIONS = 3_000
SECONDS = 3.0  # per game: enough for the shipped games many times over


def smoke(engine, path: str, source: str) -> list[Diagnostic]:
    """Errors found by playing: at most one per distinct message (the first game that shows it)."""
    game = engine.game
    found: list[Diagnostic] = []
    seen: set = set()
    for players in sorted({game.min_players, game.max_players}):
        for seed in SEEDS:
            how = f"found by a random game: meeple run {path} --players {players} --seed {seed}"
            try:
                result = runner.play(
                    engine, players, seed, ["random"], "check", max_decisions=MAX_DECISIONS, seconds=SECONDS
                )
                render(game, parse(result.trace.jsonl()))  # what `run --trace` and `play` show
                continue
            except runner.Stopped:
                continue
            except MeepleError as exc:
                diags = exc.diagnostics
            except Exception as exc:  # noqa: BLE001 - an engine bug: say where it showed, never a traceback
                diags = [
                    Diagnostic(
                        f"Meeple failed while playing the rules ({type(exc).__name__}: {exc})",
                        Span(),
                        "",
                        "error",
                        path,
                        source,
                    )
                ]
            for d in diags:
                if d.message not in seen:
                    seen.add(d.message)
                    d.hint = f"{d.hint}\n{how}" if d.hint else how
                    found.append(d)
    return found
