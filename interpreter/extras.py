"""The optional parts of Meeple and what each needs: a missing one is one clear line.

The core install (lark, pydantic, networkx) checks, runs and plays every ruleset.
The rest are extras (pyproject.toml): `lab` (plots, pictures, dask, `meeple train`),
`lsp` (the language server), `web` (the play table). Code that needs one imports
it inside the function that uses it, through `need`, so that a missing library is
a MissingExtra naming the extra to install, never a traceback.
"""

from __future__ import annotations

import importlib

from meeple.dsl.compiler import UsageError

# What pictures are drawn with: matplotlib, and scipy for networkx's layout of boards with loops.
PICTURE_MODULES = ("matplotlib", "scipy")


class MissingExtra(UsageError):
    """Something that needs an extra that is not installed: one line, exit code 2."""


def installed(*modules: str) -> bool:
    """Whether every one of `modules` imports (for code that can do without them)."""
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError:
        return False
    return True


def need(extra: str, what: str, *modules: str) -> None:
    """Raise MissingExtra unless every module in `modules` imports; `what` is the command or
    call that needs them (`meeple lsp`, `a state's picture`)."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise MissingExtra(
                f"{what} needs the {extra} extra: pip install 'meeple[{extra}]' ({name} is not installed)"
            ) from None
