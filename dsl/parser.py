"""Text -> AST: the Lark parser for meeple.lark (the transformer is dsl/transformer.py).

Syntax errors become MeepleErrors with a location, the source line, a caret and
a hint; the hint comes from what the parser expected at that point.
"""

from __future__ import annotations

import functools
from pathlib import Path

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.indenter import DedentError, Indenter

from meeple.dsl import ast
from meeple.dsl.errors import Diagnostic, MeepleError, Span, joined, read_text
from meeple.dsl.transformer import ToAst

GRAMMAR = Path(__file__).with_name("meeple.lark")


class RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    # Two ways in: a whole file, or one expression (the `{...}` parts of titles and labels).
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        postlex=RulesIndenter(),
        propagate_positions=True,
        maybe_placeholders=False,
        cache=False,
        start=["start", "expr"],
    )


# ----------------------------------------------------------------- syntax errors
_READABLE = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted text",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "COLON": "`:`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "COMMA": "`,`",
    "DOT": "`.`",
    "EQUAL": "`=`",
    "ASSIGN_OP": "`=`, `+=` or `-=`",
    "COMP_OP": "a comparison",
    "$END": "the end of the file",
}


def _readable(term: str) -> str:
    if term in _READABLE:
        return _READABLE[term]
    pattern = next((t.pattern.value for t in _lark().terminals if t.name == term), None)
    return f"`{pattern}`" if pattern and term.isupper() and not term.startswith("__") else term.lower()


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The words of the grammar (`move`, `end`, `each`...), which cannot name things."""
    words = set()
    for t in _lark().terminals:
        value = getattr(t.pattern, "value", "")
        if t.pattern.type == "str" and value.isidentifier():
            words.add(value)
    return frozenset(words)


def _syntax_error(exc: UnexpectedInput, path: str, source: str) -> MeepleError:
    line, col = getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedCharacters):
        assert exc.pos_in_stream is not None  # lark sets it for characters (None only on other errors)
        char = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        hint = "text goes in double quotes" if char in "'`" else "check for a typo"
        msg = f"unexpected character `{char}`"
        return MeepleError(Diagnostic(msg, Span(line, col, line, col + 1), hint, "error", path, source))
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "accepts", None) or [])
    tok = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or (tok is not None and tok.type == "$END"):
        line = source.count("\n") + 1
        return MeepleError(
            Diagnostic(
                "the file ends in the middle of a definition",
                Span(line, 1),
                "finish the last block",
                "error",
                path,
                source,
            )
        )
    assert tok is not None  # an UnexpectedToken: characters and the file's end are handled above
    message = (
        "the line ends too soon"
        if tok.type == "_NL"
        else "unexpected indented block"
        if tok.type == "_INDENT"
        else "the block ends too soon"
        if tok.type == "_DEDENT"
        else f"unexpected `{tok}`"
    )
    if tok.type in ("_NL", "_INDENT", "_DEDENT"):
        # Newline tokens start at the end of the previous line: point there.
        line, col = tok.line or line, tok.column or col
    readable = [_readable(t) for t in expected if not t.startswith("__ANON")]
    hint = ""
    before = source.splitlines()[line - 1][: max(col - 1, 0)].split() if 0 < line <= source.count("\n") + 1 else []
    if before and before[-1] in keywords():
        hint = f"`{before[-1]}` is a word of the language and cannot be a name; choose another name"
    if hint:
        pass
    elif "COLON" in expected and tok.type in ("_NL", "_INDENT"):
        hint = "a block header ends with `:`"
    elif tok.type == "_INDENT":
        hint = "this line is indented more than the line before it"
    elif tok.type == "EQUAL" or str(tok) == "=":
        hint = "to compare, write `==`"
    elif readable:
        shown = ", ".join(readable[:6]) + (", ..." if len(readable) > 6 else "")
        hint = f"expected {shown}"
    width = len(str(tok)) if tok.type not in ("_NL", "_INDENT", "_DEDENT") else 1
    return MeepleError(Diagnostic(message, Span(line, col, line, col + width), hint, "error", path, source))


# The largest shipped ruleset is about 40 kB; a text 50 times that is not rules a person wrote, and
# parsing megabytes would keep `meeple check` and the language server busy for minutes.
MAX_SOURCE = 2_000_000


def parse_text(source: str, path: str = "<rules>") -> ast.Ruleset:
    """Parse rules text into an AST, or raise a located MeepleError."""
    if len(source) > MAX_SOURCE:
        raise MeepleError(
            Diagnostic(
                f"this file is {len(source) / 1e6:.1f} MB; a ruleset is at most {MAX_SOURCE // 1_000_000} MB",
                Span(1, 1),
                "keep card lists and boards in data files beside the rules",
                "error",
                path,
                source[:2000],
            )
        )
    if not source.endswith("\n"):
        source += "\n"
    try:
        tree = _lark().parse(source, start="start")
    except UnexpectedInput as exc:
        raise _syntax_error(exc, path, source) from None
    except RecursionError:
        raise too_deep(path, source) from None
    except DedentError as exc:
        line = _dedent_line(source, str(exc))
        raise MeepleError(
            Diagnostic(
                "this line's indentation matches no enclosing block",
                Span(line, 1),
                "indent it like the block it belongs to",
                "error",
                path,
                source,
            )
        ) from None
    transformer = ToAst()
    try:
        items = transformer.transform(tree)
    except MeepleError as exc:
        raise exc.located(path, source) from None
    except RecursionError:
        raise too_deep(path, source) from None
    except Exception as exc:  # lark wraps transformer errors in VisitError
        inner = getattr(exc, "orig_exc", None)
        if isinstance(inner, MeepleError):
            raise inner.located(path, source) from None
        if isinstance(inner, RecursionError):
            raise too_deep(path, source) from None
        raise
    return ast.Ruleset(items, path, source)


def parse_expr(text: str, span: Span, where: str) -> ast.Expr:
    """One expression, e.g. the part in braces of a title: an AST node, or a MeepleError at `span`."""
    try:
        return ToAst().transform(_lark().parse(text, start="expr"))
    except (UnexpectedInput, DedentError):
        raise MeepleError(
            f"`{{{text}}}` in {where} is not an expression",
            span,
            "write an expression in braces, e.g. {count(hand)}; `{{` stands for a brace",
        ) from None
    except Exception as exc:  # lark wraps transformer errors in VisitError
        inner = getattr(exc, "orig_exc", None)
        if isinstance(inner, MeepleError):
            raise MeepleError(inner.diagnostics[0].message, span, inner.diagnostics[0].hint) from None
        raise


def too_deep(path: str, source: str) -> MeepleError:
    return MeepleError(
        Diagnostic(
            "the rules nest too deeply to be read",
            Span(1, 1),
            "split deep blocks or long expressions into effects, functions or `let`s",
            "error",
            path,
            source,
        )
    )


def _dedent_line(source: str, message: str) -> int:
    # Lark's DedentError does not carry a position: find the first offending line.
    stack = [0]
    for number, raw in enumerate(source.splitlines(), 1):
        stripped = raw.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        indent = len(raw) - len(raw.lstrip(" \t"))
        if indent > stack[-1]:
            stack.append(indent)
        else:
            while indent < stack[-1]:
                stack.pop()
            if indent != stack[-1]:
                return number
    return 1


def parse_file(path: str | Path, variant_files: list | tuple = ()) -> ast.Ruleset:
    """A ruleset file; with `variant_files`, a designer's files of `variant` blocks laid over it
    (each block becomes one of the ruleset's own variants; an error names the file it is in)."""
    path = Path(path)
    if not variant_files:
        # The bound checked on the file's size before reading it, not on the text after (an 800 MB
        # file would be read whole first); parse_text checks texts that come from elsewhere.
        return parse_text(read_text(path, MAX_SOURCE, "a ruleset"), str(path))
    base = read_text(path, MAX_SOURCE, "a ruleset")
    more = [(str(f), read_text(Path(f), MAX_SOURCE, "a variant file")) for f in variant_files]
    source = joined(str(path), base, more)
    rs = parse_text(source, str(path))
    first = len(base.splitlines()) + 1
    for item in rs.items:
        if item.span.line > first and not isinstance(item, ast.VariantDecl):
            raise MeepleError(
                "a variant file holds only `variant` blocks",
                item.span,
                'indent the rules under `variant NAME "Title":` to lay them over the game',
                str(path),
                source,
            )
    return rs
