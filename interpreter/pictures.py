"""Pictures of a game as SVG or PNG, drawn with networkx layouts and matplotlib (no Graphviz).

`meeple graph GAME --flow|--board NAME --svg|--png` and `meeple show TRACE
--svg FILE` draw with these:

- `flow_figure`: the phases as boxes, `next` transitions as arrows (left to
  right, by distance from the first phase), each labelled with its line.
- `board_figure`: a path board (spaces as circles, arrows, names, tags by
  colour, areas) or a grid (cells as squares with their layout values).
- `state_figure`: every grid of a state with its contents, and the path boards
  in use with who stands where (any variable whose value is a space's name).

A path board is placed by its spaces' `pos` attributes when every space has
one; otherwise left to right in layers when it has no loop, else by the
Kamada-Kawai layout. Matplotlib is used through `Figure` objects only (no
pyplot, no global backend); SVG keeps its text as text.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.figure import Figure

from meeple.interpreter.board_text import board_occupants, boards_in_use
from meeple.interpreter.render import PALETTE, key_label, value_text

FORMATS = ("svg", "png")
EMPTY_COLOUR = "#f7f7f7"


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _colours(values) -> dict:
    return {v: PALETTE[i % len(PALETTE)] for i, v in enumerate(values)}


def save(fig, path, fmt: str) -> None:
    """Write the figure as SVG (text kept as text) or PNG; OSError if it cannot be written."""
    import matplotlib

    if fmt not in FORMATS:
        raise ValueError(f"cannot draw {fmt}; choose one of: {', '.join(FORMATS)}")
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "meeple"}):
        fig.savefig(
            path,
            format=fmt,
            dpi=110,
            bbox_inches="tight",
            pad_inches=0.2,
            metadata={"Date": None} if fmt == "svg" else None,
        )


# ----------------------------------------------------------------- flow
def _layers(graph: nx.DiGraph, first) -> dict:
    """Node -> column: distance from the first node; `end` (and what cannot be reached) last."""
    depth = nx.single_source_shortest_path_length(graph, first) if first in graph else {}
    last = max([d for n, d in depth.items() if n != "end"] + [0]) + 1
    return {n: (last if n == "end" or n not in depth else depth[n]) for n in graph}


def flow_figure(game) -> Figure:
    flow = game.flow
    first = next(iter(flow.nodes), None)
    layer = _layers(flow, first)
    columns: dict = {}
    for n in flow.nodes:
        columns.setdefault(layer[n], []).append(n)
    pos = {}
    for x, nodes in columns.items():
        for i, n in enumerate(nodes):
            pos[n] = (x * 3.0, (len(nodes) - 1) / 2 - i * 1.6)
    width = 2.5 + 2.2 * len(columns)
    height = 2.0 + 1.1 * max(len(c) for c in columns.values()) if columns else 2.0
    fig = _figure(width, height)
    ax = fig.add_subplot()
    boxes = {}
    calls = flow.graph.get("calls", {})
    for n, (x, y) in pos.items():
        style = dict(boxstyle="round,pad=0.5", fc="#fdf6e3" if n != "end" else "#e0e0e0", ec="#444")
        boxes[n] = ax.text(x, y, n, ha="center", va="center", fontsize=11, bbox=style, zorder=3)
        if calls.get(n):  # the effects this phase does, in small print under its box
            done = calls[n]
            rows = [", ".join(done[i : i + 3]) for i in range(0, len(done), 3)]
            ax.text(x, y - 0.42, "do " + "\n".join(rows), ha="center", va="top", fontsize=7, color="#2a6f97", zorder=3)
    for a, b, data in flow.edges(data=True):
        label = f"line {data['line']}" if data.get("line") else ""
        if a == b:
            x, y = pos[a]
            ax.annotate(
                "",
                xy=(x + 0.25, y + 0.3),
                xytext=(x - 0.25, y + 0.3),
                arrowprops=dict(arrowstyle="-|>", connectionstyle="arc3,rad=-1.8", color="#555"),
            )
            if label:
                ax.text(x, y + 0.95, label, ha="center", fontsize=8, color="#555")
            continue
        rad = 0.0 if layer[b] > layer[a] else 0.4
        # Drawn after the boxes (zorder), so their patches are in place to clip the arrow to.
        ax.annotate(
            "",
            xy=pos[b],
            xytext=pos[a],
            arrowprops=dict(
                arrowstyle="-|>",
                color="#555",
                shrinkA=3,
                shrinkB=3,
                mutation_scale=16,
                patchA=boxes[a].get_bbox_patch(),
                patchB=boxes[b].get_bbox_patch(),
                connectionstyle=f"arc3,rad={rad}",
            ),
            zorder=4,
        )
        if label:
            (xa, ya), (xb, yb) = pos[a], pos[b]
            ax.text((xa + xb) / 2, (ya + yb) / 2 + 0.15 + rad, label, ha="center", fontsize=8, color="#555")
    xs = [p[0] for p in pos.values()] or [0]
    ys = [p[1] for p in pos.values()] or [0]
    ax.set_xlim(min(xs) - 1.4, max(xs) + 1.4)
    ax.set_ylim(min(ys) - 1.0, max(ys) + 1.4)
    ax.set_axis_off()
    ax.set_title(f"{game.title}: flow of phases" + ("; in blue, the effects each does" if any(calls.values()) else ""))
    return fig


# ----------------------------------------------------------------- path boards
# Kamada-Kawai takes seconds past about 150 spaces and far longer past 1,000 (the table's first page
# waited 73 s for 2,000); so does pushing spaces apart and bending arrows around them, pair by
# pair. A bigger board without positions of its own is drawn as a track, straight arrows.
LAYOUT_LIMIT = 150


def _track(board) -> dict:
    """Spaces in file order along rows that turn back at each end, as a long track is printed."""
    width = math.ceil(math.sqrt(len(board.order)))
    out = {}
    for i, s in enumerate(board.order):
        row, col = divmod(i, width)
        out[s] = (float(col if row % 2 == 0 else width - 1 - col), -float(row))
    return out


def board_positions(board) -> dict:
    """Where to draw each space: its own `pos`, else layers along the arrows, else Kamada-Kawai
    (a track past LAYOUT_LIMIT spaces)."""
    g = board.graph
    if g.number_of_nodes() and all("pos" in d for _, d in g.nodes(data=True)):
        return {n: tuple(d["pos"]) for n, d in g.nodes(data=True)}
    if g.number_of_nodes() <= 1:
        return {n: (0.0, 0.0) for n in g}
    if nx.is_directed_acyclic_graph(g):
        layer: dict[str, int] = {}
        for n in nx.topological_sort(g):
            layer[n] = max([layer[p] + 1 for p in g.predecessors(n)] + [0])
        rank = {n: i for i, n in enumerate(board.order)}
        columns: dict = {}
        for n in sorted(g, key=rank.__getitem__):  # (the order names every space)
            columns.setdefault(layer[n], []).append(n)
        return {n: (float(x), (len(ns) - 1) / 2 - i) for x, ns in columns.items() for i, n in enumerate(ns)}
    if g.number_of_nodes() > LAYOUT_LIMIT:
        return _track(board)
    return nx.kamada_kawai_layout(g.to_undirected(as_view=True))


def _spread(pos: dict, gap: float, rounds: int = 200) -> dict:
    """Push spaces closer than `gap` apart (a few small steps), so circles and labels do not overlap."""
    pos = {k: list(v) for k, v in pos.items()}
    names = list(pos)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
                d = math.hypot(dx, dy)
                if d >= gap:
                    continue
                if d < 1e-9:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (gap - d) / 2 * 0.6
                pos[a][0] -= dx / d * push
                pos[a][1] -= dy / d * push
                pos[b][0] += dx / d * push
                pos[b][1] += dy / d * push
                moved = True
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in pos.items()}


def _bend(pos: dict, a, b, clear: float) -> float:
    """How much to curve the arrow a -> b (matplotlib's arc3 `rad`) so that it passes no other space."""
    (x0, y0), (x2, y2) = pos[a], pos[b]
    others = [p for n, p in pos.items() if n not in (a, b)]
    best, best_gap = 0.08, -1.0
    for rad in (0.08, -0.08, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5):
        cx, cy = (x0 + x2) / 2 + rad * (y2 - y0), (y0 + y2) / 2 - rad * (x2 - x0)
        gap = min(
            [
                math.hypot(
                    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t * t * x2 - px,
                    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t * t * y2 - py,
                )
                for t in (i / 20 for i in range(1, 20))
                for px, py in others
            ]
            + [math.inf]
        )
        if gap > clear:
            return rad
        if gap > best_gap:
            best, best_gap = rad, gap
    return best


def _unit_positions(board) -> dict:
    """`board_positions` scaled so that the longer side spans 0..1 (shapes kept)."""
    pos = board_positions(board)
    if not pos:
        return {}
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    return {k: ((x - min(xs)) / span, (y - min(ys)) / span) for k, (x, y) in pos.items()}


def _extent(pos: dict) -> tuple:
    """Width and height (data units, with a margin) of the area the spaces take."""
    xs, ys = [p[0] for p in pos.values()] or [0.0], [p[1] for p in pos.values()] or [0.0]
    return max(xs) - min(xs) + 0.16, max(ys) - min(ys) + 0.16


def _draw_path_board(ax, game, name: str, state: dict | None) -> None:
    board = game.boards[name]
    g = board.graph
    pos = _unit_positions(board)
    n = max(g.number_of_nodes(), 1)
    node_size = max(250, min(1100, 26000 / n))
    radius = 0.7 * math.sqrt(node_size) / 72  # inches, roughly; used to place labels
    fig = ax.get_figure()
    width, height = _extent(pos)
    per_inch = max(
        width / (ax.get_position().width * fig.get_figwidth()),
        height / (ax.get_position().height * fig.get_figheight()),
    )  # data units per inch
    clear = 1.25 * math.sqrt(node_size) / 2 / 72 * per_inch  # a space's radius in data units, and some
    big = n > LAYOUT_LIMIT
    if not big:
        pos = _spread(pos, min(4.5 * clear, 0.5 / math.sqrt(n)))
    tags = []
    for s in board.order:
        tags += [t for t in g.nodes[s]["tags"] if t not in tags]
    single_area = all(len(g.nodes[s]["areas"]) <= 1 for s in g)
    colour_by = "area" if single_area and board.area_names else "tag"
    colours = _colours(board.area_names if colour_by == "area" else tags)

    def colour(s):
        keys = g.nodes[s]["areas"] if colour_by == "area" else g.nodes[s]["tags"]
        return colours[keys[0]] if keys else EMPTY_COLOUR

    occupants = board_occupants(game, state, name) if state is not None else {}
    groups: dict = {}
    for a, b in g.edges:
        groups.setdefault(0.08 if big else _bend(pos, a, b, clear), []).append((a, b))
    for rad, edges in groups.items():
        nx.draw_networkx_edges(
            g,
            pos,
            edgelist=edges,
            ax=ax,
            node_size=node_size,
            arrows=True,
            arrowstyle="-|>",
            arrowsize=16,
            width=1.4,
            edge_color="#333",
            connectionstyle=f"arc3,rad={rad}",
        )
    edge_colours = ["#c00" if s in occupants else "#333" for s in g]
    widths = [3.0 if s in occupants else 1.0 for s in g]
    nx.draw_networkx_nodes(
        g,
        pos,
        ax=ax,
        node_size=node_size,
        node_color=[colour(s) for s in g],
        edgecolors=edge_colours,
        linewidths=widths,
    )
    font = 9 if n <= 40 else 7
    for s in g:
        x, y = pos[s]
        ax.text(x, y, s, ha="center", va="center", fontsize=font, fontweight="bold", zorder=4)
        extra = " ".join(g.nodes[s]["tags"]) if colour_by == "area" else " ".join(g.nodes[s]["areas"])
        if single_area and colour_by == "tag":
            extra = ""
        if extra:
            ax.annotate(
                extra,
                (x, y),
                xytext=(0, -radius * 72 - 2),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize=7,
                color="#246",
                zorder=4,
                bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85),
            )
        if s in occupants:
            ax.annotate(
                ", ".join(occupants[s]),
                (x, y),
                xytext=(0, radius * 72 + 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8.5,
                color="#c00",
                fontweight="bold",
                zorder=5,
                bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="#c00", lw=0.8, alpha=0.9),
            )
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Artist] = [Patch(fc=c, ec="#333", label=f"{colour_by} {k}") for k, c in colours.items()]
    handles.append(Patch(fc=EMPTY_COLOUR, ec="#333", label=f"no {colour_by}"))
    handles.append(Line2D([], [], color="#333", marker=">", lw=1.4, label="arrow: the way to move"))
    if colour_by == "tag" and board.area_names:
        handles.append(Line2D([], [], ls="none", label="small blue text: its areas"))
    elif colour_by == "area" and tags:
        handles.append(Line2D([], [], ls="none", label="small blue text: its tags"))
    if occupants:
        handles.append(Patch(fc="white", ec="#c00", lw=2, label="who stands there"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    xs, ys = [p[0] for p in pos.values()] or [0.0], [p[1] for p in pos.values()] or [0.0]
    ax.set_xlim(min(xs) - 0.08, max(xs) + 0.08)
    ax.set_ylim(min(ys) - 0.08, max(ys) + 0.08)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(f"board {name}: {g.number_of_nodes()} spaces, {g.number_of_edges()} arrows", fontsize=11)


# ----------------------------------------------------------------- grids
def _draw_grid(ax, game, key: str, grid: dict | None) -> None:
    """A grid's cells as squares: contents (with a state) by colour and name, layout values small."""
    from matplotlib.patches import Rectangle

    spec = game.grids[key.split("/", 1)[0]]
    geo = spec.geometry
    contents = _colours(game.enums.get(spec.content, []))
    layout_values = []
    for values in spec.layouts.values():
        layout_values += [v for v in values if v not in layout_values]
    first_layout = next(iter(spec.layouts.values()), None)
    # Without contents, colour by the first layout; with them, by content (layouts in grey).
    background = _colours(layout_values) if grid is None else {}
    size = 10 if max(geo.rows, geo.cols) <= 8 else 7
    for i in range(geo.size):
        r, c = divmod(i, geo.cols)
        x, y = c, geo.rows - 1 - r
        value = grid["cells"][i] if grid is not None else None
        if value is not None:
            fc = contents.get(value, "#ccc")
        elif grid is None and first_layout is not None:
            fc = background.get(first_layout[i], EMPTY_COLOUR)
        else:
            fc = "white"
        ax.add_patch(Rectangle((x, y), 1, 1, fc=fc, ec="#555", lw=0.8))
        layout = " ".join(value_text(v[i]) for v in spec.layouts.values())
        if value is not None:
            word = value_text(value)
            ax.text(
                x + 0.5,
                y + 0.55,
                word,
                ha="center",
                va="center",
                fontsize=size * min(1.0, 6 / len(word)),
                fontweight="bold",
            )
            if layout:
                ax.text(x + 0.5, y + 0.12, layout, ha="center", va="bottom", fontsize=size - 4, color="#555")
        elif layout:
            ax.text(x + 0.5, y + 0.5, layout, ha="center", va="center", fontsize=size - 2, color="#333")
    for piece in grid["pieces"] if grid is not None else []:
        _outline(ax, geo, set(piece[4]) if len(piece) > 4 else set())
    ax.set_xticks([c + 0.5 for c in range(geo.cols)], [str(c + 1) for c in range(geo.cols)], fontsize=7)
    ax.set_yticks([geo.rows - 0.5 - r for r in range(geo.rows)], [str(r + 1) for r in range(geo.rows)], fontsize=7)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xlim(0, geo.cols)
    ax.set_ylim(0, geo.rows)
    ax.set_aspect("equal")
    shown = contents if grid is not None else background
    if shown:
        from matplotlib.patches import Patch

        ax.legend(
            handles=[Patch(fc=v, ec="#555", label=k) for k, v in shown.items()],
            fontsize=8,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            frameon=False,
        )
    ax.set_title(f"grid {key_label(game, key)}: {geo.rows} x {geo.cols}", fontsize=11)


def _outline(ax, geo, cells: set) -> None:
    """A heavy line around one placed piece: every cell edge not shared with the same piece."""
    for i in cells:
        r, c = divmod(i, geo.cols)
        x, y = c, geo.rows - 1 - r
        for step, (x0, y0, x1, y1) in (
            ("above", (x, y + 1, x + 1, y + 1)),
            ("below", (x, y, x + 1, y)),
            ("left", (x, y, x, y + 1)),
            ("right", (x + 1, y, x + 1, y + 1)),
        ):
            if geo.steps[step][i] not in cells:
                ax.plot([x0, x1], [y0, y1], color="#111", lw=2.4, solid_capstyle="round")


# ----------------------------------------------------------------- whole figures
def _board_inches(board) -> tuple:
    """Width and height in inches for a path board's panel: room for its circles and labels."""
    side = max(6.0, min(16.0, 2.3 * math.sqrt(board.graph.number_of_nodes())))
    width, height = _extent(_unit_positions(board))
    return side * width / 1.16 + 1.8, max(side * height / 1.16, 2.0) + 0.8


def board_figure(game, name: str):
    """One path board or grid (with no state: the board as printed)."""
    if name in game.boards:
        fig = _figure(*_board_inches(game.boards[name]))
        _draw_path_board(fig.add_subplot(), game, name, None)
    elif name in game.grids:
        geo = game.grids[name].geometry
        scale = 0.9 if max(geo.rows, geo.cols) <= 10 else 0.55
        fig = _figure(geo.cols * scale + 2.5, geo.rows * scale + 1.0)
        _draw_grid(fig.add_subplot(), game, name, None)
    else:
        known = list(game.boards) + list(game.grids)
        raise ValueError(f"no board or grid `{name}`; this game has: {', '.join(known) or 'none'}")
    fig.suptitle(game.title)
    return fig


def state_figure(game, state: dict, title: str = ""):
    """Every grid of the state with its contents and every path board in use with who stands where."""
    panels = [("grid", key) for key in state["grids"]] + (
        [("board", name) for name in boards_in_use(game, state)] if game.boards else []
    )
    if not panels:
        raise ValueError("this game has no boards or grids to draw")
    cols = min(len(panels), 2)
    rows = math.ceil(len(panels) / cols)
    sizes = [_board_inches(game.boards[key]) if kind == "board" else (7.0, 5.0) for kind, key in panels]
    fig = _figure(cols * max(w for w, _ in sizes), rows * max(h for _, h in sizes))
    for i, (kind, key) in enumerate(panels):
        ax = fig.add_subplot(rows, cols, i + 1)
        if kind == "grid":
            _draw_grid(ax, game, key, state["grids"][key])
        else:
            _draw_path_board(ax, game, key, state)
    fig.suptitle(title or game.title)
    return fig
