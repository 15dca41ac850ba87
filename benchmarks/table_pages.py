"""What a page of the play table costs the server: the CPU time of one seat's page after each decision.

A game of three people plays random options (seeded); after each decision two seats' pages are
built, as the server builds them for the pages open at a table (`pages.seat_page`). Reports the
CPU milliseconds a page (process time, so other work on the machine changes it little), and how
much of it is the score so far (the rules' score run on the seat's view).

    .venv/bin/python benchmarks/table_pages.py                      # every game below
    .venv/bin/python benchmarks/table_pages.py wild_gardens --moves 400
"""

from __future__ import annotations

import argparse
import random
import time

from meeple.interpreter.standing import score_so_far
from meeple.interpreter.table.hall import Hall
from meeple.interpreter.table.model import space_positions
from meeple.interpreter.table.pages import seat_page
from meeple.interpreter.table.store import Store

GAMES = ["queens_wishes", "apothebakery", "wild_gardens"]


def measure(game: str, moves: int, seed: int) -> tuple[int, float, float]:
    """(pages, CPU ms a page, of which the score so far)."""
    hall = Hall([game], Store())
    live = hall.table(hall.create(game, 3, {}, [], ["person"] * 3, seed)["id"])
    for name in live.engine.game.boards:  # laid out once per game, in a thread: not a page's cost
        space_positions(live.engine.game, name)
    rnd = random.Random(seed)
    page = score = 0.0
    n = 0
    for _ in range(moves):
        d = live.decision()
        if d is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
        live.decision()  # the server has worked this out before any page (whose turn it is)
        for seat in (0, 1):
            start = time.process_time()
            seat_page(live, seat)
            page += time.process_time() - start
            view = live.engine.view(live.state, seat)
            start = time.process_time()
            score_so_far(live.engine, view)
            score += time.process_time() - start
            n += 1
    return n, page / n * 1000, score / n * 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=GAMES)
    p.add_argument("--moves", type=int, default=800)
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args()
    for game in args.games:
        n, page, score = measure(game, args.moves, args.seed)
        print(f"{game:15} {n:5} pages  {page:.2f} ms CPU a page (the score so far {score:.2f} ms of it)")


if __name__ == "__main__":
    main()
