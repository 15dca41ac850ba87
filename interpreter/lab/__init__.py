"""The designer's lab: simulation, comparison, statistics and reports.

Everything here works on rows: one plain dict per game played (seed, side,
scores, per-rule breakdown, ranking, winners, length, actions, error), as
`meeple simulate` writes them one JSON line each. `stats` turns rows into
summaries and paired comparisons and formats them for the terminal; `report`
writes a self-contained HTML page with plots.
"""
