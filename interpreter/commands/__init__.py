"""The commands cli.py dispatches to, one module per family: the lab's (`simulate`, `compare`,
`report` in lab.py; `sweep`, `tune`, `tournament` in grids.py), `train`, `graph`/`show` (see.py)
and `serve`.

Each module configures its subcommands' arguments and runs them. They sit on top of everything
else and below cli.py only; what they share (one-line errors, options, agent lists) is in
interpreter/arguments.py, below them, so that no import goes back up to the command line.
"""
