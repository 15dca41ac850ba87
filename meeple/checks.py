"""Arguments given to the library and its adapters, checked where they come in.

A wrong argument deep inside the engine surfaces as whatever Python raised there: `seed=1.5` as
"unsupported operand type(s) for &", `options="x"` as an AttributeError, an unknown PettingZoo
agent as a bare KeyError. These checks say instead what was given and what is wanted. Each error
is a UsageError (the library's error for bad input) and also a TypeError or ValueError, so code
that catches either still does.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import cast

from meeple.dsl.compiler import UsageError


class WrongType(UsageError, TypeError):
    """An argument of the wrong kind."""


class WrongValue(UsageError, ValueError):
    """An argument of the right kind with a value that cannot be used."""


def whole(value, name: str) -> int:
    """A whole number (a numpy integer too; never a bool, a float or text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise WrongType(f"{name} must be a whole number, not {value!r}")
    return int(value)


def seed(value, name: str = "seed") -> int:
    return whole(value, name)


def options(value) -> dict | None:
    """None, or a dict of option names to values, all text."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise WrongType(
            f"options must be a dict of option names to values (text), like {{'board': 'B'}}; not {value!r}"
        )
    return value


def variants(value) -> list | None:
    """None, or a list of variant names."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise WrongType(f"variants must be a list of variant names, like ['Keep It Fresh']; not {value!r}")
    return list(value)


def seconds(value) -> float | None:
    """None, or a time in seconds more than 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise WrongType(f"seconds must be a number, not {value!r}")
    if not cast(float, value) > 0 or math.isnan(value):  # (a numbers.Real: typeshed cannot compare one)
        raise WrongValue(f"seconds must be more than 0, not {value!r}")
    return float(value)


def path(value, name: str = "path"):
    """A file's path: text or a path object."""
    if not isinstance(value, (str, os.PathLike)):
        raise WrongType(f"{name} must be a file's path, not {value!r}")
    return value


def agent_of(env_agents: list, agent) -> int:
    """The seat of a PettingZoo agent name."""
    if agent not in env_agents or not isinstance(agent, str):
        raise WrongValue(f"unknown agent {agent!r}; the agents are {', '.join(env_agents)}")
    return env_agents.index(agent)
