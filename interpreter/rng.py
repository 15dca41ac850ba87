"""The random number generator that lives inside the state.

SplitMix64 keeps its whole state in one integer, so a game state stays plain
JSON data, copies for free and replays exactly in any process. Every shuffle,
bag draw and die roll goes through here.

A caller that wants each draw as its own explicit chance event (OpenSpiel's chance nodes, a
tree search over every outcome) puts a list of outcomes under GIVEN in the state: `below` then
takes its answers from the front of that list, and when the list runs out it raises NeedDraw
with how many equally likely outcomes the next draw has. The caller re-runs the step with one
more outcome in the list (the engine is deterministic, so the step replays up to that draw).
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
GIVEN = "given draws"  # the state's key for outcomes given from outside (never in a saved state)


class NeedDraw(Exception):
    """A draw found no given outcome left: it has `n` equally likely outcomes, 0..n-1."""

    def __init__(self, n: int):
        super().__init__(f"a draw of one of {n} equally likely outcomes was not given")
        self.n = n


def seed_state(seed: int) -> int:
    """Spread a small user seed over the 64-bit state."""
    return mix(seed & MASK)


def mix(z: int) -> int:
    z = (z + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def next_u64(state: dict) -> int:
    """Advance the state's generator and return 64 random bits."""
    s = (state["rng"] + GOLDEN) & MASK
    state["rng"] = s
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def below(state: dict, n: int) -> int:
    """A uniform integer in [0, n) without modulo bias (Lemire's method)."""
    if n <= 1:
        return 0
    given = state.get(GIVEN)
    if given is not None:
        # The generator still moves: a start that drew stays apart from the seed-free starts the
        # engine keeps (Engine.start), whose test is whether the generator moved.
        state["rng"] = (state["rng"] + GOLDEN) & MASK
        if not given:
            raise NeedDraw(n)
        k = given.pop(0)
        if not 0 <= k < n:
            raise ValueError(f"a given draw of {k} out of {n} outcomes")
        return k
    while True:
        # next_u64 written in place (one call less a draw; tests/test_start_once.py checks it)
        s = (state["rng"] + GOLDEN) & MASK
        state["rng"] = s
        x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
        x ^= x >> 31
        m = x * n
        low = m & MASK
        if low >= n or low >= ((1 << 64) - n) % n:
            return m >> 64


def shuffle(state: dict, items: list) -> None:
    """Fisher-Yates in place (`below` written in place: bots shuffle hundreds of cards a guess)."""
    s = state["rng"]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:
            s = (s + GOLDEN) & MASK
            x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
            x ^= x >> 31
            m = x * n
            low = m & MASK
            if low >= n or low >= ((1 << 64) - n) % n:
                j = m >> 64
                break
        items[i], items[j] = items[j], items[i]
    state["rng"] = s


class Random:
    """A small seeded generator for agents (never for the game: that one is in the state)."""

    def __init__(self, seed: int):
        self.state = {"rng": seed_state(seed)}

    def below(self, n: int) -> int:
        return below(self.state, n)

    def choice(self, items):
        return items[below(self.state, len(items))]
