"""Pictures of a game as Graphviz DOT text: the flow of phases (and the effects they do), and boards.

`meeple graph GAME --flow` draws phases and the `next` transitions between
them; `--board NAME` draws a path board (arrows, tags, areas) or a grid.
Render with Graphviz: `dot -Tsvg flow.dot -o flow.svg`, or draw SVG/PNG
without Graphviz with `--svg`/`--png` (interpreter/pictures.py).
"""

from __future__ import annotations


def _quote(text) -> str:
    return '"' + str(text).replace("\\\\", "\\\\\\\\").replace('"', '\\"') + '"'


def board_name(game, name: str) -> str:
    """The board or grid `--board NAME` means: NAME itself, or the board a shared value starts
    as (`value path = side` with side=front stands for board `front`, as it does in the rules)."""
    if name in game.boards or name in game.grids:
        return name
    spec = game.counters.get(name)
    if spec is not None and not spec.per and isinstance(spec.init, str) and spec.init in game.boards:
        return spec.init
    known = list(game.boards) + list(game.grids)
    raise ValueError(f"no board or grid `{name}`; this game has: {', '.join(known) or 'none'}")


def flow_dot(game) -> str:
    flow = game.flow
    calls = flow.graph.get("calls", {})
    title = game.title + ": flow of phases" + ("; dashed: the effects they do" if any(calls.values()) else "")
    lines = ["digraph flow {", "  rankdir=LR;", f"  label={_quote(title)};"]
    for node in flow.nodes:
        shape = "doublecircle" if node == "end" else "box"
        lines.append(f"  {_quote(node)} [shape={shape}];")
    for a, b, data in flow.edges(data=True):
        label = f" [label={_quote('line ' + str(data['line']))}]" if data.get("line") else ""
        lines.append(f"  {_quote(a)} -> {_quote(b)}{label};")
    # Effects, dashed: which phase or effect does which (`do name(...)`).
    effects = sorted({e for done in calls.values() for e in done} | (set(calls) - set(flow.nodes)))
    for effect in effects:
        lines.append(f"  {_quote(effect)} [shape=ellipse, style=dashed];")
    for caller, done in calls.items():
        for effect in done:
            lines.append(f'  {_quote(caller)} -> {_quote(effect)} [style=dashed, label="do"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def board_dot(game, name: str) -> str:
    if name in game.boards:
        board = game.boards[name]
        lines = [f"digraph {_quote(name)} {{", f"  label={_quote(game.title + ': board ' + name)};"]
        for space in board.order:
            tags = board.graph.nodes[space]["tags"]
            areas = board.graph.nodes[space]["areas"]
            label = space + ("\\n" + " ".join(tags) if tags else "") + ("\\n[" + " ".join(areas) + "]" if areas else "")
            lines.append(f"  {_quote(space)} [label={_quote(label)}{', style=bold' if tags else ''}];")
        for a, b in board.graph.edges:
            lines.append(f"  {_quote(a)} -> {_quote(b)};")
        lines.append("}")
        return "\n".join(lines) + "\n"
    if name in game.grids:
        spec = game.grids[name]
        g = spec.geometry
        lines = [f"graph {_quote(name)} {{", "  node [shape=box];", f"  label={_quote(game.title + ': grid ' + name)};"]
        for i in range(g.size):
            r, c = divmod(i, g.cols)
            extra = " ".join(str(v[i]) for v in spec.layouts.values())
            label = f"r{r + 1}c{c + 1}" + (f"\\n{extra}" if extra else "")
            lines.append(f'  c{i} [label={_quote(label)}, pos="{c},{-r}!"];')
        for i, ns in enumerate(g.neighbours):
            lines += [f"  c{i} -- c{n};" for n in ns if n > i]
        lines.append("}")
        return "\n".join(lines) + "\n"
    known = list(game.boards) + list(game.grids)
    raise ValueError(f"no board or grid `{name}`; this game has: {', '.join(known) or 'none'}")
