"""Lark parse tree -> dsl.ast_page nodes: the `layout` block (dsl/transformer.py's ToAst
takes these methods in; the block's grammar is its own section of meeple.lark)."""

from __future__ import annotations

from lark import Transformer, v_args

from meeple.dsl import ast
from meeple.dsl.errors import MeepleError
from meeple.dsl.transformer_decls import _unquote, span_of, tok_span


@v_args(meta=True)
class PageParts(Transformer):
    def page_decl(self, meta, c):
        return ast.PageDecl(list(c), span=span_of(meta))

    def page_area(self, meta, c):
        return ast.PageArea(_unquote(c[0]), list(c[1:]), span=span_of(meta))

    def page_player(self, meta, c):
        return ast.PagePlayer(list(c), span=span_of(meta))

    def page_others(self, meta, c):
        return ast.PageOthers(list(c), span=span_of(meta))

    def page_row(self, meta, c):
        return ast.PageRow(list(c), span=span_of(meta))

    def page_columns(self, meta, c):
        title = _unquote(c[1]) if getattr(c[1], "type", "") == "STRING" else ""
        return ast.PageColumns(str(c[0]), [x for x in c[1:] if isinstance(x, ast.PageItem)], title, span=span_of(meta))

    def page_item(self, meta, c):
        track, title = None, ""
        if len(c) > 1 and c[1].type == "STRING":
            title, c = _unquote(c[1]), [c[0]] + list(c[2:])
        if len(c) > 1:
            track = (int(c[1]), int(c[2]))
            if track[0] >= track[1]:
                raise MeepleError(
                    f"the track of `{c[0]}` runs from {track[0]} up to {track[1]}: it must rise",
                    span_of(meta),
                    "write the smallest value first: `track 0..60`",
                )
        return ast.PageItem(str(c[0]), track, title, span=span_of(meta))

    def page_face(self, meta, c):
        title = _unquote(c[1]) if getattr(c[1], "type", "") == "STRING" else ""
        lines = [x for x in c[1:] if isinstance(x, ast.FaceLine)]
        colours = [x for x in c[1:] if isinstance(x, tuple)]
        if len(colours) > 1:
            raise MeepleError(f"the face of `{c[0]}` has two colours", colours[1][1], "keep one `colour FIELD`")
        node = ast.PageFace(str(c[0]), lines, title=title, span=span_of(meta))
        if colours:
            node.colour, node.colour_span = colours[0]
        return node

    def face_field(self, meta, c):
        return ast.FaceLine("field", str(c[0]), span=span_of(meta), **_when(c))

    def face_text(self, meta, c):
        return ast.FaceLine("text", _unquote(c[0]), span=span_of(meta), **_when(c))

    def face_colour(self, meta, c):
        return (str(c[0]), tok_span(c[0]))

    def page_colours(self, meta, c):
        return ast.PageColours(str(c[0]), [x[:2] for x in c[1:]], span=span_of(meta), each_span=[x[2] for x in c[1:]])

    def colour_pair(self, meta, c):
        return (str(c[0]), _unquote(c[1]), span_of(meta))


def _when(c) -> dict:
    """A face line's `when FIELD`: the field it depends on, and where that is written."""
    return {"when": str(c[1]), "when_span": tok_span(c[1])} if len(c) > 1 else {}
