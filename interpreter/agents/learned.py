"""A learned state evaluation: where a ruleset's hints are missing, fit one from self-play.

`meeple train GAME` plays seeded games between bots, records generic features
of positions along the way and fits, with ridge regression (numpy), each
seat's final score from them (fitting needs the `lab` extra; the planner evaluates a model in
plain Python, so playing needs only the core install). The model is a small JSON file next to the
ruleset (`NAME.model.json`); the planner and rollout agents load it when it is
there and was trained on the same rules (the game's digest): the planner values
the leaves of its search by the predicted final scores instead of the score plus
hints, the rollout the end of each play-on.

The features are the same for every game, read off a position for one seat:
each score rule's points, each hint's points, the lead over the best other
seat, the sum of every counter and the size of every zone kept per player, the
empty cells of every grid kept per player and its shape (shapes.py: groups of
each kind by size, squares of each kind on each terrain, rows and columns by how
many of a kind they hold), and every counter of the whole game (a round's
number: how far the game has gone).

The score now counts at its face value (each point a point at the end) and
what is fitted, on everything else, is the points still to come: how far the
final score lands from the score now. So the model learns what the score does
not count yet (tiles saved to be placed at the end, progress a hint measures)
and how far the game has to go. Fitted straight to the final score from
positions of every stage, the score now got nearly no weight (a high early
score and a low late one end alike: 0.04 a point for one shipped game's
scoring rule), and options one placement apart looked the same; fitted with
the score's rules as free weights too, they came out at 0.3-0.8 a point (a
player with points now has used the squares that score them), and a rollout
valuing by that lost more often (docs/experiments.md, stint 12).
Training is reproducible: the same game, players, games, agents and seed give
the same file.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from meeple.interpreter.agents.shapes import add_shape, shape_names
from meeple.interpreter.extras import need
from meeple.interpreter.rng import Random

SAMPLE_EVERY = 4   # on average one position in this many decisions is recorded
RIDGE = 1.0        # the penalty on weights, on standardized features


def feature_names(game) -> list[str]:
    if "feature_names" in game.cache:
        return game.cache["feature_names"]
    names = [f"score:{r.label}" for r in game.scores] + [f"hint:{h.label}" for h in game.hints] + ["lead"]
    names += [f"counter:{n}" for n, c in game.counters.items() if c.per[:1] == ("player",)]
    names += [f"zone:{n}" for n, z in game.zones.items() if z.per[:1] == ("player",)]
    names += [f"empty:{n}" for n, g in game.grids.items() if g.per[:1] == ("player",)]
    names += [f"game:{n}" for n, c in game.counters.items() if not c.per]
    for spec in game.grids.values():
        if spec.per[:1] == ("player",):
            names += shape_names(game, spec)
    game.cache["feature_names"] = list(dict.fromkeys(names))
    return game.cache["feature_names"]


def features(engine, state: dict, player: int) -> list[float]:
    game, players = engine.game, state["players"]
    totals = [engine.total(state, p) for p in range(players)]
    own = engine.breakdown(state, player)
    hints = engine.hints(state, player) if game.hints else {}
    lead = totals[player] - max((totals[q] for q in range(players) if q != player), default=0)
    values = {f"score:{k}": v for k, v in own.items()} | {f"hint:{k}": v for k, v in hints.items()}
    values["lead"] = lead
    wanted = game.cache.get("feature_set") or game.cache.setdefault("feature_set", set(feature_names(game)))
    for kind, table in (("counter", state["vars"]), ("zone", state["zones"])):
        for key, value in table.items():
            name, _, rest = key.partition("/")
            if not (rest == str(player) or rest.startswith(f"{player}/")) or f"{kind}:{name}" not in wanted:
                continue
            amount = len(value) if kind == "zone" else value
            if isinstance(amount, (int, float)):
                values[f"{kind}:{name}"] = values.get(f"{kind}:{name}", 0) + amount
    for key, grid in state["grids"].items():
        name, _, rest = key.partition("/")
        if (rest == str(player) or rest.startswith(f"{player}/")) and f"empty:{name}" in wanted:
            values[f"empty:{name}"] = values.get(f"empty:{name}", 0) + grid["cells"].count(None)
            add_shape(game.grids[name], grid["cells"], values)
    for key, value in state["vars"].items():
        if f"game:{key}" in wanted and isinstance(value, (int, float)):
            values[f"game:{key}"] = value  # a flag counts as 0 or 1
    return [float(values.get(n, 0)) for n in feature_names(game)]


def train(engine, players: int, games: int, seed: int, agents: list[str], jobs: int = 1,
          ridge: float = RIDGE) -> dict:
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
    tasks = [(players, seats[g % players:] + seats[:g % players], seed * 1000 + g) for g in range(games)]
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
    return {"game": engine.game.title, "digest": engine.game.digest, **rules_chosen(engine.game),
            "players": players, "games": games,
            "seed": seed, "agents": agents, "positions": len(y), "ridge": ridge,
            "r2": r_squared(y, (x - mean) / scale @ weights + bias) if len(y) else 0.0,
            "r2_held_out": held_out(x, y, np.array(of_game), scored, ridge),
            "features": names, "mean": mean.tolist(), "scale": scale.tolist(),
            "weights": weights.tolist(), "bias": bias}


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
    from meeple.interpreter.agents import make_agents  # the registry imports the planner, which imports this
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
    from meeple.interpreter.loader import load
    (path, options, variants), *rest = task
    key = json.dumps([path, options, variants])
    if key not in _ENGINES:
        _ENGINES[key] = load(path, options, variants)
    return self_play(_ENGINES[key], *rest)


class Model:
    """A trained evaluation: predicted final score of a seat from a position."""

    def __init__(self, data: dict):
        self.data = data
        # Standardizing and the dot product fold into one weight and one offset per feature:
        # a sum over a few dozen features, faster in plain Python than through numpy arrays.
        self.weights = [w / s for w, s in zip(data["weights"], data["scale"])]
        self.bias = data["bias"] - sum(m * w for m, w in zip(data["mean"], self.weights))

    def predict(self, engine, state: dict, player: int) -> float:
        return self.bias + sum(x * w for x, w in zip(features(engine, state, player), self.weights))


def rules_chosen(game) -> dict:
    """The options and variants a game was compiled with, as a model file keeps them (the
    digest covers the rules' text and data files, not which scoring card was chosen)."""
    return json.loads(json.dumps({"options": dict(game.options), "variants": list(game.variants)}))


def model_path(game) -> Path:
    """NAME.model.json next to the ruleset; played with an option other than its first value, or
    with variants, NAME.OPTION=VALUE.+VARIANT.model.json: one model for each way of playing."""
    base = Path(game.path)
    tag = "".join(f".{k}={v}" for k, v in sorted(game.options.items()) if v != game.option_choices[k][0][0])
    tag += "".join(f".+{v}" for v in sorted(game.variants))
    return base.with_name(base.stem + tag + ".model.json")


def save(data: dict, path: Path) -> None:
    """Written as other outputs are: never over rules or data, atomically (interpreter/outputs.py)."""
    from meeple.interpreter import outputs
    outputs.write_text(path, json.dumps(data, indent=1) + "\n")


class ModelError(ValueError):
    """A model file that is there for these rules but cannot be used: the message says why."""


def checked(data: dict, path: Path, features: int) -> dict:
    """The model's numbers, if every one is a finite number and there is one of each per feature
    (a NaN, an infinity or an empty list would make every valuation nonsense, silently)."""
    def finite(x) -> bool:
        return type(x) in (int, float) and math.isfinite(x)
    for key in ("mean", "scale", "weights"):
        values = data.get(key)
        if not isinstance(values, list) or len(values) != features or not all(map(finite, values)):
            raise ModelError(f"{path}: `{key}` must be {features} finite numbers, one for each feature; "
                             "train the model again (meeple train)")
    if not all(data["scale"]):
        raise ModelError(f"{path}: `scale` must have no zeros; train the model again (meeple train)")
    if not finite(data.get("bias")):
        raise ModelError(f"{path}: `bias` must be a finite number; train the model again (meeple train)")
    return data


def load_model(game) -> Model | None:
    """The model next to the ruleset, if there is one trained on these very rules (read once)."""
    if "model" not in game.cache:
        game.cache["model"] = _read_model(game)
    return game.cache["model"]


def _read_model(game) -> Model | None:
    if not game.path:
        return None
    path = model_path(game)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("digest") != game.digest or data.get("features") != feature_names(game):
        return None
    if any(data.get(k) != v for k, v in rules_chosen(game).items()):
        return None  # trained on another scoring card or variant: its points still to come differ
    return Model(checked(data, path, len(data["features"])))


# ----------------------------------------------------------------- meeple train
def configure_train(p) -> None:
    p.add_argument("game", help="a shipped ruleset's name or a path to a .rules file")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=40, help="self-play games (default 40)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--agents", default="greedy", help="who plays the self-play games (default greedy)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="train for the game played with this option (its own model file)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME")
    p.add_argument("--jobs", type=int, default=1, help="processes playing the games (the same model)")
    p.add_argument("--ridge", type=float, default=RIDGE,
                   help=f"the penalty on weights of standardized features (default {RIDGE:g}); "
                        "compare choices by the R^2 on held-out games it prints")
    p.add_argument("--out", help="where to write the model (default: NAME.model.json next to the ruleset)")


def cmd_train(args) -> int:
    from meeple import cli  # the command line's helpers: one place for parsing options
    from meeple.dsl.compiler import UsageError
    from meeple.interpreter.agents import make_agents
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not args.ridge >= 0:
        raise UsageError("--ridge must be 0 or more")
    need("lab", "meeple train", "numpy")
    engine = cli.engine_from(args)
    path = Path(args.out) if args.out else model_path(engine.game)
    cli.guard_output(str(path))  # a ruleset, a data file or a folder refused before the training, not after
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
    print(f"{g.title}: {data['positions']} positions from {args.games} games of {', '.join(agents)}, "
          f"R^2 {data['r2']:.2f} on them" + (f", {data['r2_held_out']:.2f} on games held out"
                                              if data["r2_held_out"] is not None else "") + f"; wrote {path}")
    return 0
