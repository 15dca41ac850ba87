"""Effect primitives, one small module per family (zones, grids, choices)."""
