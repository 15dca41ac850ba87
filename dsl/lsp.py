"""The language server behind `meeple lsp`: .rules files in any LSP editor, over stdio.

    diagnostics   what `meeple check` says (errors and warnings), on open, change and save;
                  the text is checked in memory, data files are read next to the document
    hover         a defined name's kind, its first line and the comments above it;
                  a built-in function's doc and example
    definition    where a name is defined (the last good parse if the text does not parse now);
                  a local (let, loop or chosen name, parameter) is the nearest one bound above in its block
    completion    the words of the language, the document's names (locals where they are bound)
                  and the built-in functions

The server keeps, per open document, the last text that parsed: definitions and
names stay available while the author is in the middle of a line. Nothing that a
document can contain may stop the server: compile failures become diagnostics.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from meeple.dsl import ast
from meeple.dsl.checker import warnings as rule_warnings
from meeple.dsl.compiler import apply_variants, compile_ruleset
from meeple.dsl.errors import Diagnostic, MeepleError, Span
from meeple.dsl.lsp_names import FIELD_KINDS, LOCAL_KINDS, Definition, index, same_block
from meeple.dsl.parser import keywords, parse_text
from meeple.interpreter.builtins import FUNCTIONS

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DATA_FILE = re.compile(r'\bfrom\s+"([^"]*)"')
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#.*')
# Names every ruleset has without defining them (dsl/checker.py RESERVED).
BUILTIN_NAMES = {
    "player": "the player who acts here: a loop variable, a parameter, or the player being scored",
    "players": "how many players are in the game",
    "turn_order": "the seats, starting from the first player, clockwise",
    "first_player": "the seat that starts the turn order; set it with `first_player = p`",
    "box": "the implicit hidden zone every component starts in",
}
ITEM_KINDS = {
    "zone": lsp.CompletionItemKind.Module,
    "grid": lsp.CompletionItemKind.Struct,
    "board": lsp.CompletionItemKind.Struct,
    "component": lsp.CompletionItemKind.Class,
    "enum": lsp.CompletionItemKind.Enum,
    "enum value": lsp.CompletionItemKind.EnumMember,
    "option": lsp.CompletionItemKind.Enum,
    "option value": lsp.CompletionItemKind.EnumMember,
    "phase": lsp.CompletionItemKind.Event,
    "effect": lsp.CompletionItemKind.Method,
    "function": lsp.CompletionItemKind.Function,
    "reaction": lsp.CompletionItemKind.Event,
    "action": lsp.CompletionItemKind.Event,
    "table": lsp.CompletionItemKind.Constant,
    "field": lsp.CompletionItemKind.Field,
    "cell attribute": lsp.CompletionItemKind.Field,
}


# ----------------------------------------------------------------- checking, as `meeple check` does
def check_text(text: str, path: str) -> tuple[list[Diagnostic], ast.Ruleset | None]:
    """(errors or warnings, the parse if the text parses). Never raises."""
    try:
        rs = parse_text(text, path)
    except MeepleError as exc:
        return exc.diagnostics, None
    except Exception as exc:  # a bug in the parser must not take the editor's server down
        return [Diagnostic(f"internal error while reading the rules: {exc!r}", Span(1, 1))], None
    try:
        items = apply_variants(rs, [])
        game = compile_ruleset(rs, {}, [])
        return rule_warnings(game, rs, items), rs
    except MeepleError as exc:
        return exc.diagnostics, rs
    except Exception as exc:
        return [Diagnostic(f"internal error while checking the rules: {exc!r}", Span(1, 1))], rs


def _char_range(span: Span, lines: list[str]) -> tuple[int, int, int]:
    """(line, start, end), 0-based, of a 1-based span; a span over several lines marks its first
    line from the column on, as `meeple check` draws its caret."""
    row = min(max(span.line, 1), max(len(lines), 1)) - 1
    text = lines[row] if row < len(lines) else ""
    start = max(span.col, 1) - 1
    if span.line and span.end_line == span.line and span.end_col > span.col:
        end = span.end_col - 1
    else:
        end = max(start + 1, len(text.rstrip()))
    return row, start, end


def _data_file_line(lines: list[str], data_path: str) -> int:
    """The 1-based line of the rules that names a data file (`from "board_{b}.txt"` too)."""
    name = Path(data_path).name
    for number, text in enumerate(lines, 1):
        for m in DATA_FILE.finditer(text.split("#", 1)[0]):
            pattern = ".*".join(re.escape(part) for part in re.split(r"\{[^}]*\}", Path(m.group(1)).name))
            if re.fullmatch(pattern, name):
                return number
    return 1


class MeepleServer(LanguageServer):
    """The pygls server with, per document URI, the last text that parsed and its names."""

    def __init__(self) -> None:
        super().__init__("meeple", _version())
        self.parsed: dict[str, tuple[list[str], dict[str, list[Definition]]]] = {}

    def codec(self):
        return self.workspace.position_codec

    def to_client(self, lines: list[str], row: int, start: int, end: int) -> lsp.Range:
        codec = self.codec()
        return lsp.Range(
            codec.position_to_client_units(lines, lsp.Position(row, start)),
            codec.position_to_client_units(lines, lsp.Position(row, end)),
        )

    def to_lsp(self, d: Diagnostic, lines: list[str], doc_path: str) -> lsp.Diagnostic:
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        span, related = d.span, None
        if d.path and Path(d.path).resolve() != Path(doc_path).resolve():
            # A problem inside a data file: show it on the line of the rules that reads the file.
            message = f"{Path(d.path).name}:{d.span.line}: {message}"
            where = lsp.Location(
                from_fs_path(str(Path(d.path).resolve())) or d.path,
                lsp.Range(lsp.Position(max(d.span.line - 1, 0), 0), lsp.Position(max(d.span.line - 1, 0), 0)),
            )
            related = [lsp.DiagnosticRelatedInformation(where, d.message)]
            span = Span(_data_file_line(lines, d.path), 1)
        row, start, end = _char_range(span, lines)
        severity = lsp.DiagnosticSeverity.Warning if d.severity == "warning" else lsp.DiagnosticSeverity.Error
        return lsp.Diagnostic(
            range=self.to_client(lines, row, start, end),
            message=message,
            severity=severity,
            source="meeple",
            related_information=related,
        )

    def refresh(self, uri: str) -> None:
        """Check the document's current text and publish what `meeple check` would say."""
        doc = self.workspace.get_text_document(uri)
        text, path = doc.source, doc.path or ""
        try:
            diagnostics, rs = check_text(text, path or "<rules>")
            lines = (text if text.endswith("\n") else text + "\n").splitlines()
            if rs is not None:
                self.parsed[uri] = (rs.source.splitlines(), index(rs))
            found = [self.to_lsp(d, lines, path or "<rules>") for d in diagnostics]
        except Exception as exc:  # never let one document stop the server
            found = [
                lsp.Diagnostic(
                    range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
                    source="meeple",
                    message=f"internal error in the language server: {exc!r}",
                )
            ]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=doc.version)
        )

    def word_at(self, uri: str, position: lsp.Position) -> tuple[str, int, str]:
        """(the name under the cursor, its 0-based line, the text just before it)."""
        doc = self.workspace.get_text_document(uri)
        lines = doc.lines
        if position.line >= len(lines):
            return "", position.line, ""
        at = self.codec().position_from_client_units(lines, position)
        text = lines[at.line].rstrip("\r\n")
        code = STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()), text)  # no names in texts
        for m in WORD.finditer(code):
            if m.start() <= at.character <= m.end():
                return m.group(), at.line, text[: m.start()]
        return "", at.line, text[: at.character]

    def definitions(self, uri: str, name: str, line: int, before: str) -> list[Definition]:
        """The definitions of a name; after a `.`, the fields and cell attributes of that name.

        A local (a `let`, a loop or chosen name, a parameter) is the nearest one bound
        at or above this line in the same block; it hides a top-level name."""
        lines, names = self.parsed.get(uri, ([], {}))
        after_dot = before.rstrip().endswith(".")
        found = [
            d
            for d in names.get(name, [])
            if (d.kind in FIELD_KINDS) == after_dot or (d.line == line and d.start == len(before))
        ]
        local = [d for d in found if d.kind in LOCAL_KINDS and d.line <= line and same_block(lines, d.line, line)]
        if local:
            return [max(local, key=lambda d: d.line)]
        return [d for d in found if d.kind not in LOCAL_KINDS]


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("meeple")
    except Exception:
        return "0"


server = MeepleServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: MeepleServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: MeepleServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: MeepleServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: MeepleServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.parsed.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def _markdown(value: str) -> lsp.Hover:
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value))


def builtin_doc(name: str) -> str:
    b = FUNCTIONS[name]
    return f"{b.doc}\n\nExample: `{b.example}`"


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: MeepleServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri = params.text_document.uri
    name, line, before = ls.word_at(uri, params.position)
    if not name:
        return None
    found = ls.definitions(uri, name, line, before)
    if found:
        d = found[0]
        head = f"({d.describe()}) `{name}`"
        text = f"{head}\n\n```meeple\n{d.text}\n```"
        return _markdown(text + (f"\n\n{d.doc}" if d.doc else ""))
    if name in FUNCTIONS:
        return _markdown(f"(built-in function) `{name}`\n\n{builtin_doc(name)}")
    if name in BUILTIN_NAMES and not before.rstrip().endswith("."):
        return _markdown(f"(built-in name) `{name}`\n\n{BUILTIN_NAMES[name]}")
    return None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: MeepleServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    uri = params.text_document.uri
    name, line, before = ls.word_at(uri, params.position)
    lines, _ = ls.parsed.get(uri, ([], {}))
    found = ls.definitions(uri, name, line, before) if name else []
    return [lsp.Location(uri, ls.to_client(lines, d.line, d.start, d.end)) for d in found] or None


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
def completion(ls: MeepleServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    uri = params.text_document.uri
    _, line, before = ls.word_at(uri, params.position)
    lines, names = ls.parsed.get(uri, ([], {}))
    after_dot = before.rstrip().endswith(".")
    items: dict[str, lsp.CompletionItem] = {}

    def in_reach(d: Definition) -> bool:  # a local only where it is bound
        return d.kind not in LOCAL_KINDS or (d.line <= line and same_block(lines, d.line, line))

    for name, defs in sorted(names.items()):
        d = next((d for d in defs if (d.kind in FIELD_KINDS) == after_dot and in_reach(d)), None)
        if d is not None:
            items[name] = lsp.CompletionItem(
                label=name,
                kind=ITEM_KINDS.get(d.kind, lsp.CompletionItemKind.Variable),
                detail=d.describe(),
                documentation=d.doc or d.text,
            )
    if not after_dot:
        for name in sorted(FUNCTIONS):
            items.setdefault(
                name,
                lsp.CompletionItem(
                    label=name,
                    kind=lsp.CompletionItemKind.Function,
                    detail="built-in function",
                    documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=builtin_doc(name)),
                ),
            )
        for name, doc in BUILTIN_NAMES.items():
            items.setdefault(
                name,
                lsp.CompletionItem(
                    label=name, kind=lsp.CompletionItemKind.Variable, detail="built-in name", documentation=doc
                ),
            )
        for word in sorted(keywords()):
            if len(word) > 1:
                items.setdefault(word, lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword))
    return lsp.CompletionList(is_incomplete=False, items=list(items.values()))


# ----------------------------------------------------------------- the command line
def serve() -> int:
    """Run the language server on stdin/stdout until the editor says `exit`."""
    server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
