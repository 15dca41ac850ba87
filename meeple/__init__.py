"""Meeple as a library: `import meeple`.

In the source tree the engine keeps the design card's layout (dsl/, interpreter/, cli.py and
rulesets/ at the repository's top); the wheel puts them under this one package. So that the same
`meeple.dsl`, `meeple.interpreter` and `meeple.cli` names work in both, a source checkout adds the
repository's top to this package's search path.
"""
from __future__ import annotations

from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent
if not (_HERE / "dsl").is_dir() and (_HERE.parent / "dsl" / "meeple.lark").is_file():
    __path__.append(str(_HERE.parent))  # a source checkout: meeple.dsl is ../dsl
