"""The language server (`meeple lsp`, dsl/lsp.py) driven over its real protocol, and the VS Code files.

The server runs as a subprocess (`python -m dsl.lsp`); the tests write JSON-RPC
messages with Content-Length headers to its stdin and read its stdout on a
thread, so a silent server fails a test after a timeout instead of hanging it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from meeple.dsl.parser import keywords
from meeple.interpreter.builtins import FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent

VSCODE = ROOT / "editors" / "vscode"
TIMEOUT = 10.0

RULES = """\
game "Tiny"
players 2
enum mark = cross | ring
# How many rounds have been played.
counter round_number = 0
counter vp per player = 0
setup:
    next play
phase play:
    round_number += 1
    vp[1] += count([cross, ring])
    if round_number < 3:
        next play
score "Points": vp
"""


class Client:
    """A minimal LSP client over the pipes of a server subprocess."""

    def __init__(self, log: Path, command: list | None = None):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self.log = log
        self.stderr = open(log, "wb")
        self.proc = subprocess.Popen(
            command or [sys.executable, "-m", "meeple.dsl.lsp"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        self.inbox: queue.Queue = queue.Queue()
        self.pending: list[dict] = []  # notifications read while waiting for something else
        self.last_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                headers = {}
                while line := out.readline().strip():
                    key, _, value = line.decode("ascii").partition(":")
                    headers[key.strip().lower()] = value.strip()
                if not headers:
                    break  # end of output
                self.inbox.put(json.loads(out.read(int(headers["content-length"]))))
        except Exception:  # a garbled frame: the test reading the queue fails
            pass
        self.inbox.put(None)

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def _next(self, deadline: float) -> dict:
        try:
            message = self.inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            raise AssertionError(f"no message from the server within {TIMEOUT} s") from None
        if message is None:
            self.inbox.put(None)
            raise AssertionError("the server stopped talking:\n" + self.log.read_text(errors="replace")[-3000:])
        if "method" in message and "id" in message:  # a request from the server: answer it
            self.send({"id": message["id"], "result": None})
        elif message.get("method") == "window/showMessage" and message["params"]["type"] == 1:
            raise AssertionError(f"the server reports an error: {message['params']['message']}")
        elif "method" in message:
            self.pending.append(message)
        return message

    def request(self, method: str, params):
        self.last_id += 1
        self.send({"id": self.last_id, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._next(deadline)
            if message.get("id") == self.last_id and "method" not in message:
                assert "error" not in message, message["error"]
                return message.get("result")

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics the server publishes for a document."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for i, message in enumerate(self.pending):
                if message["method"] == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                    del self.pending[i]
                    return message["params"]["diagnostics"]
            self._next(deadline)

    def initialize(self) -> dict:
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str) -> list[dict]:
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "meeple", "version": 1, "text": text}}
        )
        return self.diagnostics(uri)

    def change(self, uri: str, text: str, version: int = 2) -> list[dict]:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
        return self.diagnostics(uri)

    def at(self, method: str, uri: str, position: dict):
        return self.request(method, {"textDocument": {"uri": uri}, "position": position})

    def close(self) -> int | None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
            return None
        finally:
            self.stderr.close()


def pos(text: str, needle: str, nth: int = 0, into: int = 0) -> dict:
    """The LSP position of the nth occurrence of needle in text (plus `into` characters)."""
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    offset += into
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    client = Client(tmp_path_factory.mktemp("lsp") / "stderr.txt")
    try:
        caps = client.initialize()["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"] and "completionProvider" in caps
        yield client
    finally:
        client.proc.kill()
        client.close()


@pytest.fixture
def doc(tmp_path):
    """A file URI in a fresh folder; the file itself is never written (the document is unsaved)."""
    return (tmp_path / "game.rules").as_uri()


# ----------------------------------------------------------------- diagnostics
def test_broken_document_gets_the_check_message_and_fixing_it_clears_it(server, doc):
    broken = RULES.replace("ring])", "rnig])")
    found = server.open(doc, broken)
    assert len(found) == 1
    d = found[0]
    assert d["severity"] == 1 and d["source"] == "meeple"
    assert d["message"] == "unknown name `rnig`\nhint: did you mean `ring`?"
    start = pos(broken, "rnig")
    assert d["range"] == {"start": start, "end": {"line": start["line"], "character": start["character"] + 4}}
    assert server.change(doc, RULES) == []


def test_syntax_error_points_at_its_line(server, doc):
    text = RULES.replace("round_number += 1", "round_number += ")
    (d,) = server.open(doc, text)
    assert d["message"].startswith("the line ends too soon") and "\nhint: " in d["message"]
    assert d["range"]["start"]["line"] == pos(text, "round_number += ")["line"]


def test_warnings_of_meeple_check_are_warnings(server, doc):
    text = RULES + "counter spare = 0\n"
    (d,) = server.open(doc, text)
    assert d["severity"] == 2
    assert d["message"] == "counter `spare` is never used\nhint: remove it, or use it in the rules"
    assert d["range"] == {
        "start": pos(text, "counter spare"),
        "end": {"line": pos(text, "counter spare")["line"], "character": len("counter spare = 0")},
    }


def test_data_files_are_read_beside_the_unsaved_document(server, tmp_path, doc):
    (tmp_path / "cards.csv").write_text("id,value\na,1\nb,2\n")
    (tmp_path / "bad.csv").write_text("id,value\na,1\nb,2,3\n")
    text = RULES + 'component card from "cards.csv":\n    value: int\nzone deck: deck of card\n'
    text = text.replace("setup:\n", "setup:\n    move card to deck\n    shuffle deck\n")
    assert server.open(doc, text) == []
    (d,) = server.change(doc, text.replace("cards.csv", "missing.csv"))
    assert d["message"].startswith("data file `missing.csv` not found")
    assert d["range"]["start"] == pos(text, "component card")
    (d,) = server.change(doc, text.replace("cards.csv", "bad.csv"), version=3)
    assert d["message"].startswith("bad.csv:3: this row has more values")
    assert d["range"]["start"]["line"] == pos(text, "component card")["line"]


def test_garbage_never_stops_the_server(server, doc):
    for i, text in enumerate(["", "\x00\x01", "phase:\n\t  x\n", "(" * 5000, 'game "é😀" x'], 1):
        found = server.change(doc, text, version=i + 1) if i > 1 else server.open(doc, text)
        assert found and all(d["severity"] == 1 for d in found)
    assert server.at("textDocument/hover", doc, {"line": 0, "character": 0}) is None


# ----------------------------------------------------------------- hover, definition, completion
def test_hover_on_a_defined_name_and_on_a_builtin(server, doc):
    server.open(doc, RULES)
    hover = server.at("textDocument/hover", doc, pos(RULES, "round_number", nth=1, into=3))
    value = hover["contents"]["value"]
    assert "(counter) `round_number`" in value and "counter round_number = 0" in value
    assert "How many rounds have been played." in value
    value = server.at("textDocument/hover", doc, pos(RULES, "count(", into=2))["contents"]["value"]
    assert FUNCTIONS["count"].doc in value and FUNCTIONS["count"].example in value
    value = server.at("textDocument/hover", doc, pos(RULES, "ring])"))["contents"]["value"]
    assert "(enum value of enum `mark`) `ring`" in value


def test_definition_jumps_to_the_definition_even_while_the_text_is_broken(server, doc):
    server.open(doc, RULES)
    (loc,) = server.at("textDocument/definition", doc, pos(RULES, "next play", into=6))
    assert loc["uri"] == doc and loc["range"]["start"] == pos(RULES, "play:")
    (loc,) = server.at("textDocument/definition", doc, pos(RULES, "[cross", into=1))
    assert loc["range"]["start"] == pos(RULES, "cross")
    broken = RULES.replace("round_number += 1", "round_number += ")
    assert server.change(doc, broken)
    (loc,) = server.at("textDocument/definition", doc, pos(broken, "round_number < 3"))
    assert loc["range"]["start"] == pos(RULES, "round_number")
    assert server.at("textDocument/definition", doc, pos(broken, "count(")) is None


def test_completion_offers_names_builtins_and_keywords(server, doc):
    server.open(doc, RULES)
    result = server.at("textDocument/completion", doc, pos(RULES, "vp[1]"))
    items = {item["label"]: item for item in result["items"]}
    assert {"round_number", "vp", "play", "cross", "count", "turn_order", "choose", "next"} <= set(items)
    assert items["count"]["detail"] == "built-in function" and items["round_number"]["detail"] == "counter"


LOCALS = """\
game "Locals"
players 2
counter total = 0
counter pick = 0
effect gain(p, n):
    total += n
setup:
    for each who in turn_order:
        let pick = 2
        choose c from [1, 2] by who:
            total += c + pick
    do gain(0, pick)
phase unused:
    let who = 1
    total += who
"""


def test_locals_hover_and_jump_to_where_they_are_bound(server, doc):
    server.open(doc, LOCALS)
    (loc,) = server.at("textDocument/definition", doc, pos(LOCALS, "by who", into=4))
    assert loc["range"]["start"] == pos(LOCALS, "who in")  # the loop name, not the other phase's `let who`
    (loc,) = server.at("textDocument/definition", doc, pos(LOCALS, "c + pick"))
    assert loc["range"]["start"] == pos(LOCALS, "c from")
    value = server.at("textDocument/hover", doc, pos(LOCALS, "c + pick", into=5))["contents"]["value"]
    assert "(local of setup) `pick`" in value and "let pick = 2" in value  # a local hides the counter
    (loc,) = server.at("textDocument/definition", doc, pos(LOCALS, "total += n", into=9))
    assert loc["range"]["start"] == pos(LOCALS, "n):")  # a parameter
    (loc,) = server.at("textDocument/definition", doc, pos(LOCALS, "total += who", into=9))
    assert loc["range"]["start"] == pos(LOCALS, "who = 1")
    items = {i["label"] for i in server.at("textDocument/completion", doc, pos(LOCALS, "total += who"))["items"]}
    assert "who" in items and "c" not in items  # setup's chosen name is not in reach in another phase


# ----------------------------------------------------------------- lifecycle
def test_meeple_lsp_serves_and_shuts_down(tmp_path):
    """Started the way editors start it: `meeple lsp` (here through cli.main)."""
    client = Client(tmp_path / "stderr.txt", [sys.executable, "-c", "import sys, cli; sys.exit(cli.main(['lsp']))"])
    try:
        client.initialize()
        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=TIMEOUT) == 0
    finally:
        client.proc.kill()
        client.close()


def test_meeple_lsp_command_line():
    from meeple.cli import build_parser, cmd_lsp

    parser = build_parser()
    assert parser.parse_args(["lsp"]).fn is cmd_lsp and parser.parse_args(["lsp", "--stdio"]).stdio


# ----------------------------------------------------------------- the VS Code extension
def test_vscode_files_are_valid_json_and_agree():
    package = json.loads((VSCODE / "package.json").read_text())
    config = json.loads((VSCODE / "language-configuration.json").read_text())
    grammar = json.loads((VSCODE / "syntaxes" / "meeple.tmLanguage.json").read_text())
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "meeple" and ".rules" in language["extensions"]
    assert (VSCODE / language["configuration"]).is_file()
    (tm,) = package["contributes"]["grammars"]
    assert tm["language"] == "meeple" and tm["scopeName"] == grammar["scopeName"]
    assert (VSCODE / tm["path"]).resolve() == (VSCODE / "syntaxes" / "meeple.tmLanguage.json").resolve()
    assert "onLanguage:meeple" in package["activationEvents"]
    assert package["contributes"]["configuration"]["properties"]["meeple.command"]["default"] == "meeple"
    assert "vscode-languageclient" in package["dependencies"] and (VSCODE / package["main"]).is_file()
    assert config["comments"]["lineComment"] == "#"


def test_textmate_grammar_highlights_every_keyword():
    """Every word of dsl/meeple.lark is in a pattern that colours it as a keyword."""
    grammar = json.loads((VSCODE / "syntaxes" / "meeple.tmLanguage.json").read_text())
    words: set = set()

    def walk(node):
        if isinstance(node, dict):
            scopes = [node.get("name", "")] + [c.get("name", "") for c in node.get("captures", {}).values()]
            for key in ("match", "begin", "end"):
                if key in node:
                    re.compile(node[key])  # plain enough for Python's regexes too
                    if any(s.startswith(("keyword", "storage", "constant.language")) for s in scopes):
                        words.update(re.findall(r"[A-Za-z_]+", re.sub(r"\\.", " ", node[key])))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(grammar)
    assert sorted(keywords() - words) == []
