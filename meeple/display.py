"""How games and states show themselves in a notebook: their picture when they have one.

A State displays as the drawing `meeple show --svg` makes (its grids and path boards, drawn
with matplotlib from the `lab` extra), with the decision pending under it; a game without
boards, or an install without the `lab` extra, shows the state as text instead. A Game
displays as the flow of its phases. Jupyter prefers HTML to SVG, so both are HTML with the
SVG inline.
"""

from __future__ import annotations

import html
import io

from meeple.interpreter.extras import PICTURE_MODULES, installed, need
from meeple.interpreter.render import player_name


def _figure_to(fig, fmt: str):
    from meeple.interpreter import pictures

    buffer = io.BytesIO()
    pictures.save(fig, buffer, fmt)
    data = buffer.getvalue()
    return data.decode("utf-8") if fmt == "svg" else data


def _can_draw() -> bool:
    return installed(*PICTURE_MODULES)


def state_picture(state, fmt: str = "svg", player: int | None = None):
    """The grids and path boards of a state as SVG text or PNG bytes; ValueError for a game
    without any, MissingExtra without matplotlib."""
    need("lab", "a state's picture", *PICTURE_MODULES)
    from meeple.interpreter import pictures

    game = state.game
    data = state.view(player) if player is not None else state.data
    title = f"{game.title}: step {state.step}" + (f", as {player_name(player)} sees it" if player is not None else "")
    return _figure_to(pictures.state_figure(game.rules, data, title), fmt)


def flow_picture(game, fmt: str = "svg"):
    """The phases and their `next` transitions as SVG text or PNG bytes (the `lab` extra)."""
    need("lab", "a game's picture", *PICTURE_MODULES)
    from meeple.interpreter import pictures

    return _figure_to(pictures.flow_figure(game.rules), fmt)


def _decision_html(state) -> str:
    d = state.decision
    if d is None:
        totals = ", ".join(f"{player_name(s['player'])} {s['total']}" for s in state.scores)
        return f"<p>The game is over: {html.escape(totals)}.</p>"
    shown = "".join(f"<li>{html.escape(label)}</li>" for label in d.labels[:12])
    more = f"<li>... and {len(d.options) - 12} more</li>" if len(d.options) > 12 else ""
    title = f" ({html.escape(d.title)})" if d.title else ""
    return (
        f"<p>{player_name(d.player)} chooses{title} among {len(d.options)} options:</p><ol start=0>{shown}{more}</ol>"
    )


def state_html(state) -> str:
    head = f"<p><b>{html.escape(state.game.title)}</b>, step {state.step}</p>"
    picture = ""
    if _can_draw():
        try:
            picture = state_picture(state)
        except ValueError:  # no grids or path boards: the text says it all
            picture = ""
    body = picture[picture.find("<svg") :] if picture else None  # inline: no XML declaration
    body = body or f"<pre>{html.escape(state.text())}</pre>"
    return f"<div>{head}{body}{_decision_html(state)}</div>"


def game_html(game) -> str:
    lo, hi = game.player_range
    head = (
        f"<p><b>{html.escape(game.title)}</b>: {game.players} players ({lo}-{hi}); options "
        f"{html.escape(', '.join(f'{k}={v}' for k, v in game.options.items()) or 'none')}; variants "
        f"{html.escape(', '.join(game.variants) or 'none')}</p>"
    )
    picture = flow_picture(game) if _can_draw() else ""
    return f"<div>{head}{picture[picture.find('<svg') :] if picture else ''}</div>"
