"""How well do the bots play? The figures of issue 14 on the shipped games, from seeded games.

Three parts (each can be run alone with --part):

- figures: the best agent playing itself: Wild Gardens 2p guests served and VP
  per player per game; Apothebakery 2p adventurers healed per game (both
  players together); Apothebakery solo win rate; CPU seconds per game (every
  seat's decisions together: what a designer's run of games costs) and per decision.
- duels: the best agent against an opponent (greedy in The Queen's Wishes, the
  previous mcts in every game; greedy in every game too when the agent is not
  greedy), seats alternating by seed; its win rate (a shared first place
  counts half) with a 95% Wilson interval and the sign test; CPU seconds per game
  of the agent's seat and of the opponent's.
- cost: decisions per second and CPU seconds per game of each agent, from Wild
  Gardens 2p self-play.
- agreement (only when asked): the agent shadows greedy's self-play, seat by seat: at every
  decision greedy values its options and plays its pick, the agent picks too (its own look
  kept as in a game of its own). How often it picks an option greedy values as highly, how
  much of greedy's outlook it gives up a decision, its CPU seconds a game. Seconds of CPU
  for a first answer where a duel against greedy takes the better part of an hour; a
  pruning that loses nothing here can still lose a duel (greedy's own look is the judge).

Games are seeded and budgets are iterations, so every figure replays exactly
(time per decision does not; it is CPU time, the cost on one core).

    .venv/bin/python benchmarks/agent_strength.py [--games 10] [--agent planner] [--jobs 2] [--part figures]
    .venv/bin/python benchmarks/agent_strength.py --quick    # 4 games per figure, for a first look
    .venv/bin/python benchmarks/agent_strength.py --agent rollout --part duels --game wild_gardens --opponent greedy --jobs 1
    .venv/bin/python benchmarks/agent_strength.py --part figures --game wild_gardens --games 100 --jobs 1
    .venv/bin/python benchmarks/agent_strength.py --agent quick --part duels --opponent greedy \
        --games 200 --seed 5001 --jobs 2   # quick against greedy in each game
    .venv/bin/python benchmarks/agent_strength.py --agent rollout --part duels --game queens_wishes \
        --opponent greedy --games 160 --seed 541 --games-file qw.jsonl   # each game a JSON line too
    .venv/bin/python benchmarks/agent_strength.py --agent rollout --part duels --game queens_wishes \
        --opponent greedy --option scoring=B   # the duel played with another option of the game
    .venv/bin/python benchmarks/agent_strength.py --agent quick --part agreement --game wild_gardens \
        --games 4 --seed 1   # quick's picks against greedy's on greedy's games

A duel's win rate moves by 10 points between runs of 80 seeds (docs/experiments.md, stints 9-13):
--games-file keeps every game (seed, the agent's seat, win, margin, each score rule's points for
both seats), appended, so runs on other seeds or days can be pooled and compared game by game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meeple.interpreter.lab.stats import mcnemar, mean_ci, wilson  # noqa: E402

BEST = "greedy"  # the best shipped agent by these figures (docs/agents.md); --agent to measure another
PREVIOUS = "mcts@30"
# Greedy cannot duel itself: against greedy in The Queen's Wishes the rollout agent plays
# (greedy's best options played on; docs/agents.md).
SEARCH_VS_GREEDY = "rollout"
# The Queen's Wishes offers about a hundred placements and plays fast: both searches get
# five times the iterations there (as the previous mcts benchmark did).
QW_BUDGETS = {"planner@30": "planner@150", "mcts@30": "mcts@150"}
MAX_DECISIONS = 3000  # a game longer than this is stopped and counted as unfinished (a bot caught in a loop)
_ENGINES: dict = {}


def engine_for(game: str, options: tuple = ()):
    """The engine of a shipped game played with these options ((name, value) pairs)."""
    if (game, options) not in _ENGINES:
        from meeple.interpreter.loader import load

        _ENGINES[game, options] = load(game, dict(options))
    return _ENGINES[game, options]


def play(task: tuple) -> dict:
    """One seeded game: per seat its score, place, guests served, cures won, time and decisions."""
    from meeple.interpreter.agents import make_agents

    game, agents, seed, *options = task  # options: (name, value) pairs, for duels played with --option
    engine = engine_for(game, *options)
    players = len(agents)
    bots = make_agents(engine, list(agents), players, seed)
    state, _ = engine.start(players, seed)
    seconds, decisions = [0.0] * players, [0] * players
    # Guests served are counted as they arrive in a play area: a guest may later be
    # discarded for its ability, and it was served all the same.
    served = [0] * players
    while (d := engine.decision(state)) is not None and sum(decisions) < MAX_DECISIONS:
        start = time.process_time()  # CPU time: the cost on one core, however busy the machine
        index = bots[d.actor].choose(engine.view(state, d.actor), d)
        seconds[d.actor] += time.process_time() - start
        decisions[d.actor] += 1
        before = [len(state["zones"].get(f"served/{p}", ())) for p in range(players)]
        state, _ = engine.apply(state, index, inplace=True)
        for p in range(players):
            served[p] += max(0, len(state["zones"].get(f"served/{p}", ())) - before[p])
    zones, ranking = state["zones"], engine.ranking(state)
    firsts = [r["player"] for r in ranking if r["place"] == 1]
    return {
        "game": game,
        "agents": agents,
        "seed": seed,
        "seconds": seconds,
        "decisions": decisions,
        "scores": [engine.total(state, p) for p in range(players)],
        "breakdown": [s["breakdown"] for s in engine.scores(state)],
        "wins": [1 / len(firsts) if p in firsts else 0 for p in range(players)],
        "served": served,
        "cured": [len(zones.get(f"cures_won/{p}", [])) for p in range(players)],
        "won": bool(state["vars"].get("won")),
        "unfinished": not state["over"],
    }


def shadow(task: tuple) -> dict:
    """One seeded greedy self-play game with `agent` deciding beside greedy in every seat: how
    often its pick is worth (by greedy's gains) what greedy's is, and what it gives up."""
    from meeple.interpreter.agents import make_agents

    game, agent, seed = task
    engine = engine_for(game)
    players = 2
    greedy, other = make_agents(engine, ["greedy"], players, seed), make_agents(engine, [agent], players, seed)
    state, _ = engine.start(players, seed)
    seconds = given_up = 0.0
    decided = agreed = steps = 0
    while (d := engine.decision(state)) is not None and steps < MAX_DECISIONS:
        steps += 1
        view = engine.view(state, d.actor)
        start = time.process_time()
        theirs = other[d.actor].choose(view, d)  # every decision, so that a kept look goes on
        seconds += time.process_time() - start
        index = 0
        if len(d.options) > 1:
            gains = greedy[d.actor].gains(view, d)
            index = greedy[d.actor].pick(gains, view, d)
            decided += 1
            agreed += gains[theirs] == gains[index]
            given_up += gains[index][0] - gains[theirs][0]
        state, _ = engine.apply(state, index, inplace=True)
    return {"seconds": seconds, "decided": decided, "agreed": agreed, "given_up": given_up}


def run(tasks: list, jobs: int, work=play) -> list[dict]:
    if jobs <= 1:
        return [work(t) for t in tasks]
    with Pool(jobs) as pool:
        return pool.map(work, tasks, chunksize=1)


def per_decision(rows: list[dict]) -> float:
    return sum(sum(r["seconds"]) for r in rows) / max(1, sum(sum(r["decisions"]) for r in rows))


def per_game(rows: list[dict]) -> float:
    """CPU seconds of a whole game's decisions, every seat's together."""
    return sum(sum(r["seconds"]) for r in rows) / max(1, len(rows))


def cost_text(rows: list[dict]) -> str:
    return f"{per_game(rows):.2f} CPU-s per game ({per_decision(rows) * 1000:.1f} ms per decision)"


def figures(agent: str, n: int, seed: int, jobs: int, games=None) -> None:
    """The self-play figures; `games` keeps only those games' (a game's tuning needs only its own)."""
    seeds = range(seed, seed + n)
    print(
        f"{agent} playing itself, {n} games each (seeds {seed}..{seed + n - 1}); "
        "each mean with its 95% interval over the games"
    )
    if not games or "wild_gardens" in games:
        wg = run([("wild_gardens", (agent, agent), s) for s in seeds], jobs)
        guests = [sum(r["served"]) / 2 for r in wg]
        vp = [sum(r["scores"]) / 2 for r in wg]
        print(
            f"  Wild Gardens 2p: {with_ci(guests)} guests served and {with_ci(vp, 1)} VP per player per game, "
            f"{cost_text(wg)}",
            flush=True,
        )
    if not games or "apothebakery" in games:
        ab = run([("apothebakery", (agent, agent), s) for s in seeds], jobs)
        print(
            f"  Apothebakery 2p: {with_ci([sum(r['cured']) for r in ab])} adventurers healed per game, {cost_text(ab)}",
            flush=True,
        )
        solo = run([("apothebakery", (agent,), s) for s in seeds], jobs)
        won = sum(r["won"] for r in solo)
        p, low, high = wilson(won, n)
        print(
            f"  Apothebakery solo: won {won} of {n} ({p:.0%}, 95% CI [{low:.0%}, {high:.0%}]), "
            f"{sum(r['cured'][0] for r in solo) / n:.2f} adventurers healed per game, {cost_text(solo)}",
            flush=True,
        )


def with_ci(values: list, digits: int = 2) -> str:
    """`2.12 [1.88, 2.37]`: a per-game mean and its 95% interval (t), so a bar is met or not by it."""
    m, low, high = mean_ci(values)
    if low is None:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def duels(agent: str, n: int, seed: int, jobs: int, games=None, opponents=None, keep=None, options=None) -> None:
    """Each duel's win rate; with `keep` (a path), every game appended to it as a JSON line; with
    `options` ({name: value}), the games played with them (a game that has no such option is an error)."""
    chosen = tuple(sorted((options or {}).items()))
    print(f"{agent} against each opponent, 2 players, {n} games each (seeds {seed}..{seed + n - 1}, seats alternate)")
    print(
        f"{'game':15s} {'agent':12s} {'opponent':9s} {'win rate':>9s} {'95% CI':>16s} {'p (sign)':>9s} "
        f"{'s/game':>7s} {'agent s/game':>13s} {'opponent s/game':>16s} {'agent s/decision':>17s}"
    )
    pairs = [
        ("queens_wishes", "greedy"),
        ("queens_wishes", PREVIOUS),
        ("wild_gardens", PREVIOUS),
        ("apothebakery", PREVIOUS),
    ]
    if agent != "greedy":  # is it at least as strong as greedy where greedy is the best agent?
        pairs[3:3] = [("wild_gardens", "greedy")]
        pairs.append(("apothebakery", "greedy"))
    for game, opponent in pairs:
        if games and game not in games or opponents and opponent not in opponents:
            continue
        a, o = (
            (QW_BUDGETS.get(agent, agent), QW_BUDGETS.get(opponent, opponent))
            if game == "queens_wishes"
            else (agent, opponent)
        )
        if a == o:
            a = SEARCH_VS_GREEDY
        tasks = [(game, (a, o) if i % 2 == 0 else (o, a), seed + i, chosen) for i in range(n)]
        rows = run(tasks, jobs)
        wins = won = lost = 0
        spent = sum(r["seconds"][i % 2] for i, r in enumerate(rows))
        decided = sum(r["decisions"][i % 2] for i, r in enumerate(rows))
        for i, r in enumerate(rows):
            w = r["wins"][i % 2]
            wins += w
            won += w == 1
            lost += w == 0
        if keep:
            kept(keep, game, a, o, seed, rows, dict(chosen))
        p, low, high = wilson(wins, n)
        label = " ".join([game] + [f"{k}={v}" for k, v in chosen])
        theirs = sum(r["seconds"][1 - i % 2] for i, r in enumerate(rows))
        print(
            f"{label:15s} {a:12s} {o:9s} {p:9.1%} {f'[{low:.1%}, {high:.1%}]':>16s} {mcnemar(won, lost):9.2g} "
            f"{sum(sum(r['seconds']) for r in rows) / n:7.1f} {spent / n:13.2f} {theirs / n:16.2f} "
            f"{spent / max(1, decided):17.3f}",
            flush=True,
        )


def kept(path: str, game: str, agent: str, opponent: str, seed: int, rows: list[dict], options=None) -> None:
    """The duel's games as JSON lines, appended: the agent sat first in even-numbered games."""
    with open(path, "a") as f:
        for i, r in enumerate(rows):
            me = i % 2
            f.write(
                json.dumps(
                    {
                        "game": game,
                        **({"options": options} if options else {}),
                        "agent": agent,
                        "opponent": opponent,
                        "seed": seed + i,
                        "seat": me,
                        "win": r["wins"][me],
                        "margin": r["scores"][me] - r["scores"][1 - me],
                        "scores": r["scores"],
                        "breakdown": r.get("breakdown"),
                        "seconds": r["seconds"][me],
                        "decisions": r["decisions"][me],
                    }
                )
                + "\n"
            )


def agreement(agent: str, n: int, seed: int, jobs: int, games=None) -> None:
    """The agent's picks against greedy's on greedy's own games (see `shadow`)."""
    print(f"{agent} deciding beside greedy in greedy's games, 2 players, {n} games each (seeds {seed}..{seed + n - 1})")
    for game in games or ["wild_gardens", "apothebakery", "queens_wishes"]:
        rows = run([(game, agent, seed + i) for i in range(n)], jobs, shadow)
        decided = sum(r["decided"] for r in rows)
        agreed = sum(r["agreed"] for r in rows)
        print(
            f"  {game}: picks what greedy would at {agreed / max(1, decided):.1%} of {decided} decisions, gives up "
            f"{sum(r['given_up'] for r in rows) / max(1, decided):.4f} points of greedy's outlook a decision, "
            f"{sum(r['seconds'] for r in rows) / n:.2f} CPU-s a game (both seats)",
            flush=True,
        )


def cost(agents: list[str], n: int, seed: int, jobs: int) -> None:
    print(f"cost per agent, Wild Gardens 2p self-play, {n} games each")
    for agent in agents:
        rows = run([("wild_gardens", (agent, agent), seed + i) for i in range(n)], jobs)
        spd = per_decision(rows)
        print(
            f"  {agent:12s} {1 / spd if spd else float('inf'):10.1f} decisions/s  {spd * 1000:8.1f} ms/decision  "
            f"{per_game(rows):7.2f} CPU-s per game",
            flush=True,
        )


def parser() -> argparse.ArgumentParser:
    """The command line (docs/agents.md gives its commands; a test parses each one)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games per figure")
    ap.add_argument("--quick", action="store_true", help="4 games per figure (a first look, wide intervals)")
    ap.add_argument("--agent", default=BEST)
    ap.add_argument(
        "--part",
        choices=["figures", "duels", "cost", "agreement"],
        action="append",
        help="default: figures, duels and cost",
    )
    ap.add_argument("--game", action="append", help="figures and duels in this game only (repeatable)")
    ap.add_argument("--opponent", action="append", help="duels against this opponent only (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="duels played with this option of the game (with --game)",
    )
    ap.add_argument(
        "--games-file",
        metavar="PATH",
        help="append each duel game as a JSON line (seed, seat, win, margin, points per score rule)",
    )
    return ap


def main() -> int:
    ap = parser()
    args = ap.parse_args()
    if args.games_file:
        try:  # before an hour of games, not after them
            open(args.games_file, "a").close()
        except OSError as e:
            ap.error(f"--games-file {args.games_file}: {e.strerror}")
    parts = args.part or ["figures", "duels", "cost"]
    options = dict(pair.split("=", 1) for pair in args.option if "=" in pair)
    if len(options) < len(args.option) or options and (parts != ["duels"] or not args.game):
        ap.error("--option NAME=VALUE goes with --part duels and --game")
    if args.quick:
        args.games = 4
    if "figures" in parts:
        figures(args.agent, args.games, args.seed, args.jobs, args.game)
    if "duels" in parts:
        duels(args.agent, args.games, args.seed, args.jobs, args.game, args.opponent, args.games_file, options)
    if "agreement" in parts:
        agreement(args.agent, args.games, args.seed, args.jobs, args.game)
    if "cost" in parts:
        cost(["random", "greedy", PREVIOUS, args.agent], max(2, args.games // 5), args.seed, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
