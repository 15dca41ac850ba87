"""Board primitives: grids with cell attributes and polyomino pieces."""
