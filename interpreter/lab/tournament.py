"""Tournaments: agents play every seating, and a rating with intervals says who is stronger.

    meeple tournament GAME --agents greedy,rollout,random -n 20

Every lineup (each way of seating the agents, so each agent plays every seat
against each other agent) plays the same n seeds. Each game gives every pair
of seats held by different agents one result: the better place wins, the same
place is half a win each. Ratings are Bradley-Terry values fitted to those
results by the MM algorithm (Hunter 2004), on the Elo scale (400 log10 of the
fitted value, the agents' mean at 0): a 200-point gap means the stronger wins
about 76% of its meetings. The 95% intervals come from resampling the games
(a seeded bootstrap, BOOTSTRAP times).
"""

from __future__ import annotations

import itertools
import math

from meeple.interpreter.lab.estimates import quantile
from meeple.interpreter.rng import Random

BOOTSTRAP = 200
MAX_LINEUPS = 120


class TournamentError(ValueError):
    """A field of agents that cannot make a tournament: the message says why."""


def lineups(agents: list[str], players: int) -> list[tuple]:
    """Every seating of the agents: each seat filled, at least two different agents at the table."""
    if len(set(agents)) < 2:
        raise TournamentError("a tournament needs at least two different agents: --agents a,b")
    if players < 2:
        raise TournamentError("a tournament needs a game for two or more players")
    if len(agents) >= players:
        out = list(itertools.permutations(agents, players))
    else:
        out = [t for t in itertools.product(agents, repeat=players) if len(set(t)) > 1]
    if len(out) > MAX_LINEUPS:
        raise TournamentError(f"{len(out)} seatings is too many (at most {MAX_LINEUPS}): fewer agents or players")
    return out


def results_of(rows: list[dict]) -> list[list[tuple]]:
    """Per game: its results between agents, (winner, loser, weight); a shared place gives 0.5 both ways."""
    out = []
    for r in rows:
        if r.get("error") or not r.get("ranking"):
            continue
        agents = r["agents"]
        place = {x["player"]: x["place"] for x in r["ranking"]}
        game = []
        for a, b in itertools.combinations(range(len(agents)), 2):
            if agents[a] == agents[b]:
                continue
            if place[a] == place[b]:
                game += [(agents[a], agents[b], 0.5), (agents[b], agents[a], 0.5)]
            else:
                win, lose = (a, b) if place[a] < place[b] else (b, a)
                game.append((agents[win], agents[lose], 1.0))
        out.append(game)
    return out


def bradley_terry(games: list[list[tuple]], names: list[str], rounds: int = 500) -> dict[str, float]:
    """Elo-scale ratings (mean 0) from (winner, loser, weight) results, by the MM algorithm."""
    wins = {n: 0.0 for n in names}
    pairs: dict = {}
    for game in games:
        for w, lose, weight in game:
            wins[w] += weight
            key = tuple(sorted((w, lose)))
            pairs[key] = pairs.get(key, 0.0) + weight
    # half a win against each other agent: no value runs to 0 or infinity (an agent that never came first)
    for a, b in itertools.combinations(names, 2):
        wins[a] += 0.5
        wins[b] += 0.5
        pairs[(min(a, b), max(a, b))] = pairs.get((min(a, b), max(a, b)), 0.0) + 1.0
    power = {n: 1.0 for n in names}
    for _ in range(rounds):
        new = {}
        for n in names:
            denom = sum(count / (power[a] + power[b]) for (a, b), count in pairs.items() if n in (a, b))
            new[n] = wins[n] / denom if denom else power[n]
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        power = {n: v / scale for n, v in new.items()}
    return {n: 400 * math.log10(power[n]) for n in names}


def ratings(rows: list[dict], names: list[str], seed: int = 1) -> list[dict]:
    """Each agent's rating, its 95% bootstrap interval, and its share of meetings taken; best first."""
    games = results_of(rows)
    point = bradley_terry(games, names)
    rng = Random(seed)
    samples: dict[str, list] = {n: [] for n in names}
    for _ in range(BOOTSTRAP):
        drawn = [games[rng.below(len(games))] for _ in games] if games else []
        for n, value in bradley_terry(drawn, names, rounds=200).items():
            samples[n].append(value)
    out = []
    for n in names:
        taken = sum(w for g in games for winner, _, w in g if winner == n)
        meetings = sum(w for g in games for a, b, w in g if n in (a, b))
        out.append(
            {
                "agent": n,
                "rating": point[n],
                "low": quantile(samples[n], 0.025),
                "high": quantile(samples[n], 0.975),
                "taken": taken,
                "meetings": meetings,
                "share": taken / meetings if meetings else None,
            }
        )
    return sorted(out, key=lambda x: -x["rating"])
