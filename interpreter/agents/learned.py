"""A learned state evaluation: where a ruleset's hints are missing, fit one from self-play.

This module reads and evaluates a model; `meeple train GAME` (lab/train.py) fits one. It plays seeded games between bots, records generic features
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
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from meeple.interpreter.agents.shapes import add_shape, shape_names


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
            raise ModelError(
                f"{path}: `{key}` must be {features} finite numbers, one for each feature; "
                "train the model again (meeple train)"
            )
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
