"""`meeple train GAME`: fit a learned state evaluation (agents/learned.py reads it) from self-play.

Seeded games between bots are played (in `--jobs` processes if asked); along the way a sample of
positions is recorded with learned.features, and a ridge regression (numpy, the `lab` extra) fits
each seat's final score from them: the score now at face value, the points still to come on the
other features. The model file names the rules it was trained on (their digest and the options
and variants), so the agents load it only for the same game. Training is reproducible: the same
game, players, games, agents and seed give the same file.

This is a command of the lab, above the agents: it plays games with any registered agent, and
the agents import only the model reader (learned.py), never this.
"""

from __future__ import annotations

import json
from pathlib import Path

from meeple.dsl.compiler import UsageError
from meeple.interpreter import arguments, outputs
from meeple.interpreter.agents import make_agents
from meeple.interpreter.agents.learned import feature_names, features, model_path, rules_chosen
from meeple.interpreter.extras import need
from meeple.interpreter.loader import load
from meeple.interpreter.rng import Random

SAMPLE_EVERY = 4  # on average one position in this many decisions is recorded
RIDGE = 1.0  # the penalty on weights, on standardized features


def train(engine, players: int, games: int, seed: int, agents: list[str], jobs: int = 1, ridge: float = RIDGE) -> dict:
    """Self-play games; a model of each seat's final score from the positions on the way: the
    score now, and the points still to come fitted on the other features. The games may be
    played in `jobs` processes: the positions kept are the same (each game has its own seed,
    and which positions are kept is drawn here, in the games' order)."""
    need("lab", "meeple train", "numpy")
    import numpy as np

    rows, targets, of_game = [], [], []
    pick = Random(seed)
    agents = list(agents) or ["random"]
    seats = (agents + [agents[-1]] * players)[:players]  # a short list repeats its last name (make_agents)
    # The seats turn from game to game, so that each agent of a mix plays every seat.
    tasks = [(players, seats[g % players :] + seats[: g % players], seed * 1000 + g) for g in range(games)]
    for g, (seen, final) in enumerate(played(engine, tasks, jobs)):
        for position in seen:
            if pick.below(SAMPLE_EVERY) == 0:
                for p in range(players):
                    rows.append(position[p])
                    targets.append(final[p])
                    of_game.append(g)
    names = feature_names(engine.game)
    x, y = np.array(rows, dtype=float).reshape(len(rows), len(names)), np.array(targets, dtype=float)
    scored = np.array([n.startswith("score:") for n in names])
    weights, bias, mean, scale = fit(x, y, scored, ridge)
    return {
        "game": engine.game.title,
        "digest": engine.game.digest,
        **rules_chosen(engine.game),
        "players": players,
        "games": games,
        "seed": seed,
        "agents": agents,
        "positions": len(y),
        "ridge": ridge,
        "r2": r_squared(y, (x - mean) / scale @ weights + bias) if len(y) else 0.0,
        "r2_held_out": held_out(x, y, np.array(of_game), scored, ridge),
        "features": names,
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "weights": weights.tolist(),
        "bias": bias,
    }


def fit(x, y, scored, ridge: float) -> tuple:
    """Ridge regression of the final scores y on the positions' features x, the score now (the
    `scored` columns) at face value: (weights and bias on standardized features, mean, scale)."""
    import numpy as np

    now = x[:, scored].sum(axis=1)  # the score now: each score rule's points
    mean = x.mean(axis=0) if len(x) else np.zeros(x.shape[1])
    scale = x.std(axis=0) if len(x) else np.ones_like(mean)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    bias = float((y - now).mean()) if len(y) else 0.0
    free = ~scored  # only what the score does not count is fitted
    zf = z[:, free]
    weights = np.zeros(x.shape[1])
    weights[free] = np.linalg.solve(zf.T @ zf + ridge * np.eye(int(free.sum())), zf.T @ (y - now - bias))
    # The score now added back at weight 1 (on standardized features: its scale, and its
    # mean to the bias): the model predicts the final score, as the planner reads it.
    weights = weights + np.where(scored, scale, 0.0)
    return weights, bias + float(mean[scored].sum()), mean, scale


def held_out(x, y, of_game, scored, ridge: float, folds: int = 5) -> float | None:
    """R^2 on games the fit did not see: the games split into `folds` by their number, each
    predicted by a model of the others. On the positions fitted, R^2 flatters: a model of 12
    games of a shipped tile-laying game scored 0.76 on them and -1.22 on others (docs/agents.md)."""
    import numpy as np

    if len(set(of_game.tolist())) < folds:
        return None
    predicted = np.zeros_like(y)
    for k in range(folds):
        out = of_game % folds == k
        weights, bias, mean, scale = fit(x[~out], y[~out], scored, ridge)
        predicted[out] = (x[out] - mean) / scale @ weights + bias
    return r_squared(y, predicted)


def r_squared(y, predicted) -> float:
    return float(1 - ((y - predicted) ** 2).sum() / max(1e-9, ((y - y.mean()) ** 2).sum()))


def self_play(engine, players: int, agents: list[str], game_seed: int) -> tuple[list, list]:
    """One seeded game: the features of every seat at every decision, and the final scores."""
    bots = make_agents(engine, agents, players, game_seed)
    state, _ = engine.start(players, game_seed)
    seen = []
    while (d := engine.decision(state)) is not None:
        seen.append([features(engine, state, p) for p in range(players)])
        state, _ = engine.apply(state, bots[d.actor].choose(engine.view(state, d.actor), d), inplace=True)
    return seen, [engine.total(state, p) for p in range(players)]


def played(engine, tasks: list[tuple], jobs: int):
    """self_play for each (players, agents, seed), in order; in `jobs` processes, each loading the
    rules afresh (a compiled game does not travel between processes)."""
    if jobs <= 1:
        return (self_play(engine, *task) for task in tasks)
    from concurrent.futures import ProcessPoolExecutor

    g = engine.game
    ruleset = (str(g.path), dict(g.options), list(g.variants))
    pool = ProcessPoolExecutor(max_workers=jobs)
    return _closing(pool, pool.map(_self_play_in_worker, [(ruleset, *task) for task in tasks]))


def _closing(pool, results):
    with pool:
        yield from results


_ENGINES: dict = {}  # per worker process: the engine of each ruleset it was asked to play


def _self_play_in_worker(task: tuple) -> tuple[list, list]:
    (path, options, variants), *rest = task
    key = json.dumps([path, options, variants])
    if key not in _ENGINES:
        _ENGINES[key] = load(path, options, variants)
    return self_play(_ENGINES[key], *rest)


def save(data: dict, path: Path) -> None:
    """Written as other outputs are: never over rules or data, atomically (interpreter/outputs.py)."""
    outputs.write_text(path, json.dumps(data, indent=1) + "\n")


def configure_train(p) -> None:
    p.add_argument("game", help="a shipped ruleset's name or a path to a .rules file")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=40, help="self-play games (default 40)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--agents", default="greedy", help="who plays the self-play games (default greedy)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="train for the game played with this option (its own model file)",
    )
    p.add_argument("--variant", action="append", default=[], metavar="NAME")
    p.add_argument("--jobs", type=int, default=1, help="processes playing the games (the same model)")
    p.add_argument(
        "--ridge",
        type=float,
        default=RIDGE,
        help=f"the penalty on weights of standardized features (default {RIDGE:g}); "
        "compare choices by the R^2 on held-out games it prints",
    )
    p.add_argument("--out", help="where to write the model (default: NAME.model.json next to the ruleset)")


def cmd_train(args) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not args.ridge >= 0:
        raise UsageError("--ridge must be 0 or more")
    need("lab", "meeple train", "numpy")
    engine = arguments.engine_from(args)
    path = Path(args.out) if args.out else model_path(engine.game)
    arguments.guard_output(str(path))  # a ruleset, a data file or a folder refused before the training, not after
    if not path.resolve().parent.is_dir():
        raise UsageError(f"--out {args.out}: there is no folder {path.parent}")
    g = engine.game
    if not g.min_players <= args.players <= g.max_players:
        raise UsageError(f"{g.title} is for {g.min_players}-{g.max_players} players, not {args.players}")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()] or ["random"]
    make_agents(engine, agents, args.players, args.seed)  # a bad name is one line now, not in a worker
    data = train(engine, args.players, args.games, args.seed, agents, args.jobs, args.ridge)
    try:
        save(data, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(
        f"{g.title}: {data['positions']} positions from {args.games} games of {', '.join(agents)}, "
        f"R^2 {data['r2']:.2f} on them"
        + (f", {data['r2_held_out']:.2f} on games held out" if data["r2_held_out"] is not None else "")
        + f"; wrote {path}"
    )
    return 0
