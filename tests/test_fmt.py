"""`meeple fmt`: the canonical layout keeps every token, string and comment, means the same
rules, is idempotent, and the command changes files only when asked and only safely."""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import re

import pytest

from meeple.dsl import formatter
from meeple.dsl.compiler import shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.formatter import FormatError, cmd_fmt, configure_fmt, format_text
from meeple.dsl.parser import parse_text
from tests.conftest import ROOT

SHIPPED = sorted(shipped_rulesets().items())
DOC_EXAMPLES = [
    e
    for doc in sorted((ROOT / "docs").glob("language*.md"))
    for e in re.findall(r"```rules\n(.*?)```", doc.read_text(), re.S)
]
LEXEME = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def shape(node):
    """An AST without source positions (spans), as nested tuples."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            (f.name, shape(getattr(node, f.name))) for f in dataclasses.fields(node) if not f.name.endswith("span")
        )
    if isinstance(node, (list, tuple)):
        return tuple(shape(x) for x in node)
    if isinstance(node, dict):
        return tuple(sorted((repr(k), shape(v)) for k, v in node.items()))
    return node


def pieces(text: str) -> tuple[list, list, str]:
    """The strings, the comments (without trailing blanks) and the code without any whitespace."""
    strings = [m.group() for m in LEXEME.finditer(text) if m.group().startswith('"')]
    comments = [m.group().rstrip() for m in LEXEME.finditer(text) if m.group().startswith("#")]
    return strings, comments, re.sub(r"\s+", "", LEXEME.sub("", text))


def assert_same_rules(original: str, formatted: str):
    assert shape(parse_text(formatted).items) == shape(parse_text(original).items)
    assert pieces(formatted) == pieces(original)
    assert format_text(formatted) == formatted, "formatting is not idempotent"
    assert formatted == "" or (formatted.endswith("\n") and not formatted.endswith("\n\n"))
    assert all(line == line.rstrip() for line in formatted.split("\n"))


# ----------------------------------------------------------------- shipped rulesets and docs
@pytest.mark.parametrize("name,path", SHIPPED, ids=[n for n, _ in SHIPPED])
def test_shipped_rulesets_keep_their_meaning(name, path):
    text = path.read_text(encoding="utf-8")
    assert_same_rules(text, format_text(text, str(path)))


@pytest.mark.parametrize("index", range(len(DOC_EXAMPLES)))
def test_doc_examples_keep_their_meaning_and_are_canonical(index):
    text = DOC_EXAMPLES[index]
    formatted = format_text(text)
    assert_same_rules(text, formatted)
    assert formatted == text, "the language reference should show canonical rules"


def mess_up(text: str, seed: int) -> str:
    """The same rules with 2-space or tab indents, stray spaces and trailing blanks."""
    rng = random.Random(seed)
    unit = rng.choice(["  ", "\t", "   "])
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = unit * ((len(line) - len(body)) // 4)
        if not any(m.group().startswith("#") for m in LEXEME.finditer(body)):
            # no end-of-line comment (its column is kept on purpose): add spaces around punctuation
            parts = re.split(r'("(?:[^"\\\n]|\\.)*"|#.*)', body)
            for i in range(0, len(parts), 2):
                parts[i] = re.sub(
                    r"\.\.|[()\[\]{},:.]",
                    lambda m: " " * rng.randint(0, 2) + m.group() + " " * rng.randint(0, 2),
                    parts[i],
                )
            body = "".join(parts)
        out.append(indent + body + " " * rng.randint(0, 2) if body else " " * rng.randint(0, 3))
    return "\r\n".join(out) if seed % 2 else "\n".join(out)


@pytest.mark.parametrize("index", range(len(DOC_EXAMPLES)))
def test_messed_up_doc_examples_come_back_exactly(index):
    text = DOC_EXAMPLES[index]
    messy = mess_up(text, index)
    assert messy != text
    assert format_text(messy) == text


SMALL = sorted(SHIPPED, key=lambda item: item[1].stat().st_size)[:4]


@pytest.mark.parametrize("name,path", SMALL, ids=[n for n, _ in SMALL])
def test_messed_up_shipped_rulesets_come_back_exactly(name, path):
    canonical = format_text(path.read_text(encoding="utf-8"))
    assert format_text(mess_up(canonical, len(name))) == canonical


# ----------------------------------------------------------------- the canonical form
MESSY = """

# header comment   
game   "Messy  game"    # title
players 1 .. 4
option board=A|B "Which  side"
enum colour=red|blue



table t={0:0,1 .. 3:2,5 +:9,else:4}
counter  mana per player=12 ,min -5,max 12
function f( a ,b )=a+b*-1
grid g per player : 3 x 3 of colour :
\tterrain from "b.txt" : "#"=path , "."=grass
setup :
  let xs = [ 1,
             2,
             3 ]
  let ys = count( each c in cells( g ) where c.empty and
      c.row>1 )
  let zs = [
        # a comment in a list
        1, 2,


        3
      ]
  for each [ a,b ] in pairs( xs ) :
        mana[ 0 ] -= a-b
        if a>b :
            log "x # not a comment"
            # still in the if
        # back in the for
    # in setup, between its levels
# a comment before a setup line
  mana[1]+=-( 1+2 )
  do f2 ( 1 , - 2 )
  next play

effect f2(a, b):
    pass   
phase play :
    choose x from [1,2] where x>0 by first_player "Pick  one" :
        pass
    otherwise :
        pass
score "S" : 5 if mana>=1 else -mana[ player ]%3//2+[1,2][0]
tiebreak : most mana , fewest -mana
variant big "Big":
  counter mana per player = 20


"""

CANONICAL = """# header comment
game "Messy  game"      # title
players 1..4
option board = A | B "Which  side"
enum colour = red | blue


table t = {0: 0, 1..3: 2, 5+: 9, else: 4}
counter mana per player = 12, min -5, max 12
function f(a, b) = a + b * -1
grid g per player: 3 x 3 of colour:
    terrain from "b.txt": "#" = path, "." = grass
setup:
    let xs = [1,
              2,
              3]
    let ys = count(each c in cells(g) where c.empty and
        c.row > 1)
    let zs = [
        # a comment in a list
        1, 2,

        3
    ]
    for each [a, b] in pairs(xs):
        mana[0] -= a - b
        if a > b:
            log "x # not a comment"
            # still in the if
        # back in the for
    # in setup, between its levels
    # a comment before a setup line
    mana[1] += -(1 + 2)
    do f2(1, -2)
    next play

effect f2(a, b):
    pass
phase play:
    choose x from [1, 2] where x > 0 by first_player "Pick  one":
        pass
    otherwise:
        pass
score "S": 5 if mana >= 1 else -mana[player] % 3 // 2 + [1, 2][0]
tiebreak: most mana, fewest -mana
variant big "Big":
    counter mana per player = 20
"""


def test_messy_file_gets_the_canonical_layout():
    assert format_text(MESSY) == CANONICAL
    assert_same_rules(MESSY, CANONICAL)


@pytest.mark.parametrize(
    "messy,canonical",
    [
        ("function f(a)=-a+-(a)- -a\n", "function f(a) = -a + -(a) - -a\n"),
        ("table t = {1:1,2 .. 4:2,5 + :3,}\n", "table t = {1: 1, 2..4: 2, 5+: 3,}\n"),
        ("function f(x) = count ( x )+max( ( x ) ,(x) )\n", "function f(x) = count(x) + max((x), (x))\n"),
        ("function f(x) = [ x ] [ 0 ]+x . y+ x.y( 1 )\n", "function f(x) = [x][0] + x.y + x.y(1)\n"),
        ("function f(x) = x if x>0 else  not x in 1 .. 3\n", "function f(x) = x if x > 0 else not x in 1..3\n"),
    ],
)
def test_spacing(messy, canonical):
    assert format_text(messy) == canonical


def test_end_of_line_comments_keep_their_column_when_there_is_room():
    text = (
        "counter a = 0         # aligned\n"
        "counter  bb  =  0     # aligned\n"
        "counter ccccccccccc = 0 # too close\n"
        "setup:\n"
        "  a += 1  # moves with its line\n"
    )
    assert format_text(text) == (
        "counter a = 0         # aligned\n"
        "counter bb = 0        # aligned\n"
        "counter ccccccccccc = 0  # too close\n"
        "setup:\n"
        "    a += 1  # moves with its line\n"
    )


def test_blank_lines_are_limited_and_trimmed():
    text = '\n\n\ngame "G"\n\n\n\n\nsetup:\n    pass\n\n\n\n    pass\n\n\n\n\n'
    assert format_text(text) == 'game "G"\n\n\nsetup:\n    pass\n\n    pass\n'


def test_empty_and_comment_only_files():
    assert format_text("") == ""
    assert format_text("\n  \n\n") == ""
    assert format_text("  # only a comment") == "# only a comment\n"


def test_parse_errors_are_the_parsers():
    text = 'game "G"\nsetup:\n    draw 1 from\n'
    with pytest.raises(MeepleError) as ours:
        format_text(text, "bad.rules")
    with pytest.raises(MeepleError) as theirs:
        parse_text(text, "bad.rules")
    assert ours.value.format() == theirs.value.format()
    assert ours.value.format().startswith("bad.rules:3:")


def test_a_formatter_bug_is_caught_before_it_reaches_the_file(monkeypatch):
    text = 'game "G"\ncounter a = 0\nsetup:\n    a = -1\n'
    with monkeypatch.context() as m:
        m.setattr(formatter, "INDENT", 0)  # a layout that does not parse
        with pytest.raises(FormatError, match="does not parse"):
            format_text(text)
    tokens = formatter._tokens
    monkeypatch.setattr(formatter, "_tokens", lambda source: [t for t in tokens(source) if t.text != "-"])
    with pytest.raises(FormatError, match="mean something else"):  # a lost token: `a = 1`
        format_text(text)


# ----------------------------------------------------------------- the command
def fmt(capsys, *argv) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    configure_fmt(parser)
    code = cmd_fmt(parser.parse_args([str(a) for a in argv]))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def messy_file(tmp_path):
    path = tmp_path / "messy.rules"
    path.write_text(MESSY, encoding="utf-8")
    return path


def test_check_reports_and_changes_nothing(capsys, messy_file, tmp_path):
    good = tmp_path / "good.rules"
    good.write_text(CANONICAL, encoding="utf-8")
    code, out, err = fmt(capsys, "--check", messy_file, good)
    assert code == 1 and err == ""
    assert f"would reformat {messy_file}\n" in out and str(good) not in out
    assert "1 file already formatted" in out
    assert messy_file.read_text(encoding="utf-8") == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.rules", "messy.rules"]

    code, out, err = fmt(capsys, "--check", good)
    assert (code, err) == (0, "") and out == "1 file already formatted\n"


def test_rewrites_in_place_only_what_changed(capsys, messy_file, tmp_path):
    os.chmod(messy_file, 0o640)
    good = tmp_path / "good.rules"
    good.write_text(CANONICAL, encoding="utf-8")
    before = good.stat().st_mtime_ns
    code, out, err = fmt(capsys, messy_file, good)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"reformatted {messy_file}", "1 file reformatted, 1 file already formatted"]
    assert messy_file.read_text(encoding="utf-8") == CANONICAL
    assert messy_file.stat().st_mode & 0o777 == 0o640
    assert good.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.rules", "messy.rules"]  # no temp files left

    code, out, _ = fmt(capsys, messy_file)
    assert code == 0 and out == "1 file already formatted\n"


def test_folders_are_searched_for_rules_files(capsys, messy_file, tmp_path):
    (tmp_path / "notes.txt").write_text("not rules  ")
    code, out, _ = fmt(capsys, "--check", tmp_path)
    assert code == 1 and out.splitlines()[0] == f"would reformat {messy_file}"


def test_parse_error_is_located_and_leaves_the_file_alone(capsys, tmp_path, messy_file):
    bad = tmp_path / "bad.rules"
    text = 'game  "B"\nsetup:\n    draw 1 from\n'
    bad.write_text(text, encoding="utf-8")
    code, out, err = fmt(capsys, bad, messy_file)
    assert code == 1
    assert err.startswith(f"{bad}:3:16: error: ") and "Traceback" not in err
    assert bad.read_text(encoding="utf-8") == text
    # every file is checked before any is written: one broken file leaves all of them unchanged
    assert messy_file.read_text(encoding="utf-8") == MESSY
    assert f"would reformat {messy_file}" in out
    assert "1 file could not be formatted; nothing was written" in out


def test_only_rules_files_are_touched_and_symlinked_folders_not_followed(capsys, tmp_path, messy_file):
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    outside.mkdir()
    elsewhere = outside / "other.rules"
    elsewhere.write_text(MESSY, encoding="utf-8")
    (tmp_path / "link").symlink_to(outside, target_is_directory=True)
    notes = tmp_path / "notes.txt"
    notes.write_text(MESSY, encoding="utf-8")
    code, out, err = fmt(capsys, tmp_path)
    assert code == 0 and out.splitlines()[0] == f"reformatted {messy_file}"
    assert elsewhere.read_text(encoding="utf-8") == MESSY
    code, out, err = fmt(capsys, notes)
    assert code == 1 and err.strip() == f"{notes}: error: not a .rules file (fmt only rewrites .rules files)"
    assert notes.read_text(encoding="utf-8") == MESSY


def test_missing_file_is_one_clear_line(capsys, tmp_path):
    code, out, err = fmt(capsys, tmp_path / "none.rules")
    assert code == 1
    assert err.strip().splitlines() == [
        f"{tmp_path / 'none.rules'}: error: cannot read {tmp_path / 'none.rules'}: No such file or directory"
    ]


def test_a_formatter_bug_never_touches_the_file(capsys, monkeypatch, messy_file):
    monkeypatch.setattr(formatter, "INDENT", 0)
    code, _, err = fmt(capsys, messy_file)
    assert code == 1 and f"{messy_file}: error: cannot format" in err
    assert messy_file.read_text(encoding="utf-8") == MESSY


def test_diff_shows_the_change_without_writing(capsys, messy_file):
    code, out, _ = fmt(capsys, "--diff", messy_file)
    assert code == 0 and "\n-players 1 .. 4\n" in out and "\n+players 1..4\n" in out
    assert messy_file.read_text(encoding="utf-8") == MESSY


def test_every_shipped_ruleset_is_in_the_canonical_layout(capsys):
    """`meeple fmt --check rulesets/` is what CI would run: nothing to reformat."""
    from meeple.cli import main
    from tests.conftest import ROOT

    code = main(["fmt", "--check", str(ROOT / "rulesets")])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "files already formatted" in out
