"""The Queen's Wishes: scoring on hand-built gardens (QW-E1..E10, E15) and flow rules
driven through the engine (QW-E9, E11..E14, first player, full random games).

Gardens are 6 rows x 8 columns, cells row-major (index = row * 8 + col, 0-based).
Board A's path is columns 4 and 5 (1-based) in all 6 rows; board B's path is in board_B.txt
(row r has its path at columns r and r + 1).
"""

from __future__ import annotations

import itertools

import pytest
from conftest import ROOT, shipped

from meeple.interpreter.rng import Random

ROWS, COLS = 6, 8
LETTERS = ["O", "I", "T", "L", "Z"]
CODES = {"C": "chess", "R": "rose", "M": "mushroom", "T": "tree", "G": "gardener", ".": None}
DATA = ROOT / "rulesets" / "queens_wishes"


def engine(board="A", scoring="A"):
    return shipped("queens_wishes", {"board": board, "scoring": scoring})


def picture(text: str) -> list:
    """Up to 6 lines of 8 codes (spaces ignored, missing lines/cells are empty) -> 48 cells."""
    lines = [ln.replace(" ", "") for ln in text.strip().splitlines()]
    lines += ["." * COLS] * (ROWS - len(lines))
    assert len(lines) == ROWS and all(len(ln) <= COLS for ln in lines), text
    return [CODES[ln.ljust(COLS, ".")[c]] for ln in lines for c in range(COLS)]


def fill(free: set) -> list:
    """A garden full of gardeners (which score nothing) except the `free` cells."""
    return [None if i in free else "gardener" for i in range(ROWS * COLS)]


def garden(text, board="A", scoring="A", unplaced=0, seed=1):
    """A real solo game whose garden/0 is the picture (or cell list); `unplaced` bonus tiles did not fit."""
    eng = engine(board, scoring)
    state, _ = eng.start(1, seed)
    state["grids"]["garden/0"]["cells"] = picture(text) if isinstance(text, str) else text
    state["zones"]["saved/0"] = []
    state["zones"]["unplaced/0"] = eng.game.kinds["bonus"][:unplaced]
    return eng, state


def path_cells(board: str) -> set:
    lines = [
        ln for ln in (DATA / f"board_{board}.txt").read_text().splitlines() if ln.strip() and not ln.startswith("//")
    ]
    return {r * COLS + c for r, ln in enumerate(lines) for c, ch in enumerate(ln) if ch == "#"}


# ---------------------------------------------------------------- reference scorer
def _groups(indexes: set) -> list:
    """Sizes of the orthogonally connected groups among cell indexes."""
    out, left = [], set(indexes)
    while left:
        todo, size = [left.pop()], 0
        while todo:
            r, c = divmod(todo.pop(), COLS)
            size += 1
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < ROWS and 0 <= cc < COLS and rr * COLS + cc in left:
                    left.remove(rr * COLS + cc)
                    todo.append(rr * COLS + cc)
        out.append(size)
    return out


def reference(cells, board, scoring, unplaced) -> dict:
    """Independent scoring of a garden, straight from the rulebook notes."""
    path = path_cells(board)
    where = {s: {i for i, v in enumerate(cells) if v == s} for s in CODES.values()}
    rows = [cells[r * COLS : (r + 1) * COLS] for r in range(ROWS)]
    cols = [[cells[r * COLS + c] for r in range(ROWS)] for c in range(COLS)]
    roses = _groups(where["rose"])
    trees = [[c for c, v in enumerate(row) if v == "tree"] for row in rows]
    if scoring == "A":
        chess = 5 * len(where["chess"] & path)
        rose = sum(min(n, 5) ** 2 for n in roses)
        mush = 8 * sum(col.count("mushroom") >= 2 for col in cols)
        tree = sum(max([b - a + 1 for a, b in zip(t, t[1:])], default=0) for t in trees)
    else:
        chess = 6 * len(where["chess"] & path) - 3 * len(where["chess"] - path)
        rose = sum({1: -1, 2: 3, 3: 10, 4: 20}.get(n, 0) for n in roses)
        mush = sum({2: 4}.get(n, 12 if n >= 3 else 0) for n in (col.count("mushroom") for col in cols))
        tree = sum([0, 1, 4, 9, 18][min(4, sum(c - 1 not in t and c + 1 not in t for c in t))] for t in trees)
    empty = -5 * len(_groups(where[None])) - 5 * unplaced
    return {"Chess pieces": chess, "Roses": rose, "Mushrooms": mush, "Trees": tree, "Empty spaces": empty}


# ---------------------------------------------------------------- A. scoring
class TestRoses:
    # groups {1, 2, 7}: (1,1) alone; (1,3)-(1,4); rows 3-4 "RRRR"+"RRR" joined = 7 (1-based)
    E1 = "R.RR....\n........\nRRRR....\nRRR....."
    # groups {1, 2, 3, 4, 6}: (1,1); (1,3)-(1,4); column 8 rows 1-3; row 3 RRRR; rows 5-6 RRR+RRR
    E6 = "R.RR...R\n.......R\nRRRR...R\n........\nRRR.....\nRRR....."

    @pytest.mark.parametrize(
        "text,scoring,points",
        [
            (E1, "A", 30),  # QW-E1: 1 + 4 + 25
            (E1, "B", 2),  # -1 + 3 + 0 (7 >= 5 scores 0 on card B)
            (E6, "B", 32),  # QW-E6: -1 + 3 + 10 + 20 + 0
            (E6, "A", 55),  # 1 + 4 + 9 + 16 + 25
            ("R.R.R.R.\n.R.R.R.R", "A", 8),  # 8 diagonal-only singles: orthogonal groups (QW-A10)
            ("......RR\nRR......", "A", 8),  # (1,7)-(1,8) and (2,1)-(2,2): 2 + 2, no wrap-around -> 4 + 4
        ],
    )
    def test_groups(self, text, scoring, points):
        eng, state = garden(text, scoring=scoring)
        assert eng.breakdown(state, 0)["Roses"] == points


class TestMushrooms:
    E2 = ".MMM.M..\n..MM.M..\n...M...."  # counts per column [0, 1, 2, 3, 0, 2, 0, 0]
    E7 = "MMMM....\n.MMM....\n..MM....\n...M....\n...M...."  # counts [1, 2, 3, 5, 0, 0, 0, 0]
    # counts [0, 0, 0, 0, 0, 1, 2, 6]: the full 6-square column 8 and column 7 score
    EDGE = ".......M\n......MM\n......MM\n.....M.M\n.......M\n.......M"

    @pytest.mark.parametrize(
        "text,scoring,points",
        [
            (E2, "A", 24),  # QW-E2: 3 columns with >= 2 -> 3 x 8
            (E2, "B", 20),  # 0 + 0 + 4 + 12 + 0 + 4
            (E7, "B", 28),  # QW-E7: 0 + 4 + 12 + 12
            (E7, "A", 24),  # columns 2, 3, 4 have >= 2
            (EDGE, "A", 16),  # columns 7 and 8 -> 2 x 8
            (EDGE, "B", 16),  # 0 + 4 + 12
            ("MMMMMMMM", "A", 0),  # a full row is 1 per column
            ("MMMMMMMM\nMMMMMMMM", "B", 32),  # 8 columns x 4
        ],
    )
    def test_columns(self, text, scoring, points):
        eng, state = garden(text, scoring=scoring)
        assert eng.breakdown(state, 0)["Mushrooms"] == points


class TestTrees:
    @pytest.mark.parametrize(
        "row,points",
        [
            (".TT...T.", 5),  # QW-E3 (columns 2, 3, 7): gaps 2 and 5 -> 5
            ("..T.....", 0),  # single tree (QW-A8)
            ("TT......", 2),  # adjacent trees: gap 2
            ("T......T", 8),  # the whole 8-square row
            ("T....T.T", 6),  # gaps 6 and 3: the largest counts
            ("T.T.T.T.", 3),  # gaps 3, 3 and 3
            ("TTTTTTTT", 2),
            ("........", 0),
        ],
    )
    def test_rows_card_a(self, row, points):
        eng, state = garden(row + "\n" + row[::-1], scoring="A")
        # the mirrored row has the same gaps, so the two rows add up
        assert eng.breakdown(state, 0)["Trees"] == 2 * points

    @pytest.mark.parametrize(
        "row,points",
        [
            ("TT.T.T..", 4),  # QW-E8 `T T . T . T`: columns 4 and 6 qualify -> 2 -> 4
            ("T.T.T.T.", 18),  # QW-E8: 4 qualifying (columns 1, 3, 5, 7) -> 18
            (".T.T.T.T", 18),  # a tree at the right edge has no right neighbour
            ("T.T.T...", 9),  # 3 qualifying
            ("T.T.TT.T", 9),  # columns 1, 3, 8 qualify; 5-6 are neighbours -> 3 -> 9
            ("T.......", 1),
            ("TTTTTTTT", 0),
            ("TT....TT", 0),  # only left/right neighbours count (QW-A9)
            ("........", 0),
        ],
    )
    def test_rows_card_b(self, row, points):
        eng, state = garden(row + "\nT.......\n.T......", scoring="B")
        # rows 2 and 3 each hold one lonely tree (+1 each); a tree above another does not matter
        assert eng.breakdown(state, 0)["Trees"] == points + 2

    def test_rows_add_up(self):
        eng, state = garden(".TT...T.\n..T.....\nT......T\nT.T.T.T.", scoring="A")
        assert eng.breakdown(state, 0)["Trees"] == 5 + 0 + 8 + 3


class TestChess:
    # board A's path is columns 4-5 (1-based) in every row; board B's row r has it at columns r, r + 1.
    ON_A = "...CC...\nC..C...C"  # board A: (1,4), (1,5), (2,4) on the path; (2,1), (2,8) on grass
    ON_B = "CCCC....\n.C......"  # board B: (1,1), (1,2), (2,2) on the path; (1,3), (1,4) on grass
    # columns 4-5 in all 6 rows: the whole of board A's path (12 squares). On board B only
    # (3,4), (4,4), (4,5), (5,5) are path: row 3 -> 3-4, row 4 -> 4-5, row 5 -> 5-6.
    MIDDLE = "\n".join(["...CC..."] * 6)

    @pytest.mark.parametrize(
        "text,board,scoring,points",
        [
            (ON_A, "A", "A", 15),  # QW-E4: 3 x 5, grass scores 0 (QW-A11)
            (ON_A, "A", "B", 12),  # QW-E5: 3 x 6 - 2 x 3
            (ON_B, "B", "A", 15),
            (ON_B, "B", "B", 12),
            (ON_A, "B", "A", 0),  # board B: row 1 path is 1-2, row 2 path is 2-3 -> none on the path
            (ON_A, "B", "B", -15),  # 0 x 6 - 5 x 3
            (ON_B, "A", "A", 5),  # on board A only (1,4) is path
            (ON_B, "A", "B", -6),  # 1 x 6 - 4 x 3
            (MIDDLE, "A", "A", 60),  # 12 x 5
            (MIDDLE, "A", "B", 72),  # 12 x 6, nothing on grass
            (MIDDLE, "B", "A", 20),  # 4 x 5
            (MIDDLE, "B", "B", 0),  # 4 x 6 - 8 x 3
        ],
    )
    def test_path_and_grass(self, text, board, scoring, points):
        eng, state = garden(text, board, scoring)
        assert eng.breakdown(state, 0)["Chess pieces"] == points


class TestEmptySpaces:
    @pytest.mark.parametrize(
        "holes,unplaced,points",
        [
            ((0, 14, 15, 47), 2, -25),  # QW-E10: regions {0}, {14, 15}, {47} + 2 unplaced -> -15 - 10
            ((0, 14, 15, 47), 0, -15),
            ((), 3, -15),  # a full garden: only the unplaced bonus tiles cost
            ((0, 9), 0, -10),  # (1,1) and (2,2) are diagonal: two regions (QW-A10)
            ((7, 8), 0, -10),  # (1,8) and (2,1): consecutive indexes, not neighbours
            ((0, 8, 9, 17), 1, -10),  # one snaking region (1,1) (2,1) (2,2) (3,2) + 1 unplaced
        ],
    )
    def test_regions_and_unplaced(self, holes, unplaced, points):
        eng, state = garden(fill(set(holes)), unplaced=unplaced)
        assert eng.breakdown(state, 0)["Empty spaces"] == points


class TestAggregation:
    # QW-E15 on board A / card A (1-based (row, column); path = columns 4-5):
    # chess: rows 1-4 x columns 4-5 = 8, plus (5,4) = 9 on the path -> 45; (1,8) is on grass -> 0;
    # roses: (5,1) (5,2) (6,1) (6,2) (6,3) = 5 -> 25, plus the single (2,8) -> 1: 26;
    # mushrooms: columns 5, 6, 8 hold 2 each (rows 5-6, rows 5-6, rows 4 and 6) -> 3 x 8 = 24;
    # trees: row 1 columns 2, 6 -> 5; row 2 columns 3, 6 -> 4; row 3 columns 1, 6 -> 6;
    #        row 4 columns 1, 2 -> 2; rows 5-6 none: 17;
    # empty: (3,8), (5,8), (6,7) are 3 separate regions -> -15.  Total 45 + 26 + 24 + 17 - 15 = 97.
    E15 = """
        GTGCCTGC
        GGTCCTGR
        TGGCCTG.
        TTGCCGGM
        RRGCMMG.
        RRRGMM.M"""

    def test_official_example(self):
        eng, state = garden(self.E15, "A", "A")
        parts = {"Chess pieces": 45, "Roses": 26, "Mushrooms": 24, "Trees": 17, "Empty spaces": -15}
        assert eng.breakdown(state, 0) == parts
        assert eng.scores(state)[0]["total"] == 97 == sum(parts.values())

    @pytest.mark.parametrize("board,scoring", list(itertools.product("AB", "AB")))
    def test_matches_reference_scorer(self, board, scoring):
        eng, state = garden(self.E15, board, scoring, unplaced=1)
        want = reference(picture(self.E15), board, scoring, 1)
        assert eng.breakdown(state, 0) == want
        assert eng.scores(state)[0]["total"] == sum(want.values())


# ---------------------------------------------------------------- B. flow
def is_bag_choice(d) -> bool:
    return all(o.id in LETTERS for o in d.options)


def is_tile_choice(eng, d) -> bool:
    return all(isinstance(o.value, str) and o.value in eng.game.kinds["tile"] for o in d.options)


def fits(eng, tile: str, cells: list) -> bool:
    """Independent fit check: any rotation/mirror of the tile on empty cells."""
    shape = [(r, c) for r, c, _ in eng.game.shapes[tile]]
    for k in range(8):
        pts = [(r, -c) for r, c in shape] if k >= 4 else list(shape)
        for _ in range(k % 4):
            pts = [(c, -r) for r, c in pts]
        r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
        pts = [(r - r0, c - c0) for r, c in pts]
        for dr, dc in itertools.product(range(ROWS), range(COLS)):
            if all(r + dr < ROWS and c + dc < COLS and cells[(r + dr) * COLS + c + dc] is None for r, c in pts):
                return True
    return False


def advance(eng, state, stop):
    """Take the first option until `stop(state, decision)` holds (or the game ends)."""
    while (d := eng.decision(state)) is not None and not stop(state, d):
        state, _ = eng.apply(state, 0)
    return state


def rig_bag(state, letter: str, tiles: list) -> None:
    """Make bag[letter] hold exactly `tiles`; the tiles it loses go to set_aside."""
    zones = state["zones"]
    for key in [f"bag/{s}" for s in LETTERS]:
        zones[key] = [t for t in zones[key] if t not in tiles]
    zones["set_aside"] += zones[f"bag/{letter}"]
    zones[f"bag/{letter}"] = list(tiles)


class TestSupply:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_supply_counts(self, players):  # QW-E11
        eng = engine()
        state, _ = eng.start(players, 5)
        state, _ = eng.apply(state, "O")
        assert len(state["zones"]["supply"]) == players + 1, "seed 5: round 1 draws N + 1"
        state = advance(eng, state, lambda s, d: is_bag_choice(d))
        assert state["vars"]["round_number"] == 2  # counted when round 2 starts, before its bag
        assert len(state["zones"]["supply"]) == 1, "seed 5: the unchosen tile stays"
        state, _ = eng.apply(state, "I")
        assert len(state["zones"]["supply"]) == 1 + players, "seed 5: round 2 draws N"


class TestMustPlant:  # QW-E12
    @pytest.mark.parametrize(
        "free,offered",
        [
            ({0, 8, 16, 24}, {"I1", "I2"}),  # a 1x4 strip (column 1, rows 1-4): only the I tiles fit
            ({0, 8, 16, 24, 38, 39, 46, 47}, {"I1", "O1", "I2"}),  # plus a 2x2 hole (rows 5-6, columns 7-8)
            ({44, 45, 46, 47}, {"I1", "I2"}),  # a 4x1 strip at the end of row 6 (columns 5-8)
        ],
    )
    def test_only_fitting_tiles_and_no_pass(self, free, offered):
        eng = engine()
        state, _ = eng.start(2, 3)
        rig_bag(state, "Z", ["I1", "O1", "I2"])
        state["grids"]["garden/0"]["cells"] = fill(free)
        state, _ = eng.apply(state, "Z")
        d = eng.decision(state)
        assert d.actor == 0 and sorted(state["zones"]["supply"]) == ["I1", "I2", "O1"], "seed 3"
        assert {o.id for o in d.options} == offered, "seed 3"
        assert "pass" not in [o.id for o in d.options], "seed 3"

    @pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
    def test_offers_match_fits_in_random_games(self, players, seed):
        eng, rnd, seen = engine(), Random(seed), 0
        state, _ = eng.start(players, seed)
        while (d := eng.decision(state)) is not None:
            if is_tile_choice(eng, d):
                seen += 1
                cells = state["grids"][f"garden/{d.actor}"]["cells"]
                want = {t for t in state["zones"]["supply"] if fits(eng, t, cells)}
                assert {o.id for o in d.options} == want, f"seed {seed}, step {state['step']}"
            state, _ = eng.apply(state, rnd.below(len(d.options)))
        assert seen > players, f"seed {seed}"


class TestEndTrigger:  # QW-E13
    @pytest.mark.parametrize("holes", [(), (0, 20, 47)])
    def test_player_who_cannot_fit(self, holes):
        eng = engine()
        state, _ = eng.start(3, 8)
        before = fill(set(holes))
        state["grids"]["garden/1"]["cells"] = before[:]
        state, _ = eng.apply(state, "T")
        state = advance(eng, state, lambda s, d: d.actor != 0)  # P1 plants; P2 cannot fit
        d = eng.decision(state)
        assert d.actor == 2 and is_tile_choice(eng, d), "seed 8: P3 still takes a turn"
        assert len(state["zones"]["saved/1"]) == 1, "seed 8: exactly one bonus tile"
        assert state["zones"]["saved/1"][0] in eng.game.kinds["bonus"]
        assert state["vars"]["ending"] is True
        assert state["grids"]["garden/1"]["cells"] == before and not state["grids"]["garden/1"]["pieces"]
        state = advance(eng, state, lambda s, d: False)
        assert state["over"] and state["phase"] == "finale", "seed 8"
        assert state["vars"]["round_number"] == 1, "seed 8: no round after the ending round"
        assert [len(state["grids"][f"garden/{p}"]["pieces"]) for p in (0, 2)] == [1, 1]
        g1 = state["grids"]["garden/1"]["cells"]
        assert state["zones"]["saved/1"] == []
        if holes:  # the bonus tile went into one of the holes
            assert sum(g1[i] is not None for i in holes) == 1 and state["zones"]["unplaced/1"] == []
        else:
            assert len(state["zones"]["unplaced/1"]) == 1
            assert eng.breakdown(state, 1)["Empty spaces"] == -5


class TestGardeners:  # QW-E9
    # I2 = chess tree rose gardener; `r2c1o0` (upright at row 2, column 1) covers indexes 8-11
    # (row 2, columns 1-4) and puts its gardener at index 11 = (2,4).
    # I1 = rose chess gardener gardener; the same placement covers gardeners at 10 and 11.
    @pytest.mark.parametrize(
        "tile,existing,owed",
        [
            ("I2", (3, 12), 2),  # above (1,4) and right (2,5) of the new gardener
            ("I2", (3, 12, 19), 3),  # plus below (3,4)
            ("I2", (3,), 1),
            ("I2", (4, 2), 0),  # (1,5) is diagonal, (1,3) is above the rose: not adjacent
            ("I2", (17,), 0),  # (3,2): 11 + 6 would be "below" on 6-column rows; with 8 it is not adjacent
            ("I1", (), 0),  # the tile's own gardeners do not count (QW-A5)
            ("I1", (3,), 1),
            ("I1", (2, 3), 2),  # one old gardener above each new one
        ],
    )
    def test_owed_and_paid_at_round_close(self, tile, existing, owed):
        eng = engine()
        state, _ = eng.start(2, 4)
        rig_bag(state, "I", [tile, "I3", "I4"])
        cells = [None] * (ROWS * COLS)
        for i in existing:
            cells[i] = "gardener"
        state["grids"]["garden/0"]["cells"] = cells
        state, _ = eng.apply(state, "I")
        state, _ = eng.apply(state, tile)
        d = eng.decision(state)
        assert d.options[d.index_of("r2c1o0")].label == "row 2, column 1, upright"  # the title names the tile
        state, _ = eng.apply(state, "r2c1o0")
        placed = eng.game.shapes[tile]  # the tile's squares, left to right
        assert state["grids"]["garden/0"]["cells"][8:12] == [v for _, _, v in placed], "r2c1o0 covers 8-11"
        assert state["vars"]["owed/0"] == owed, f"seed 4: {tile} next to {existing}"
        assert state["zones"]["saved/0"] == [], "seed 4: bonus tiles wait for the round to close (QW-A14)"
        state = advance(eng, state, lambda s, d: is_bag_choice(d))
        assert state["vars"]["round_number"] == 2
        assert len(state["zones"]["saved/0"]) == owed and state["vars"]["owed/0"] == 0, "seed 4"
        assert all(b in eng.game.kinds["bonus"] for b in state["zones"]["saved/0"])


class TestSolo:  # QW-E14
    @pytest.mark.parametrize("seed", [1, 2, 3, 4])
    def test_bag_cycle(self, seed):
        eng, rnd = engine(), Random(seed)
        state, _ = eng.start(1, seed)
        used, full_offers = set(), 0

        def expected(st):
            avail = [s for s in LETTERS if s not in used and st["zones"][f"bag/{s}"]]
            if not avail:  # every bag of the cycle used: a new cycle starts
                used.clear()
                avail = [s for s in LETTERS if st["zones"][f"bag/{s}"]]
            return avail

        while (d := eng.decision(state)) is not None:
            before = state
            if is_bag_choice(d):
                assert [o.id for o in d.options] == expected(state), f"seed {seed}, used {sorted(used)}"
                full_offers += len(d.options) == 5
                pick = d.options[rnd.below(len(d.options))].id
                used.add(pick)
                state, events = eng.apply(state, pick)
            else:
                state, events = eng.apply(state, rnd.below(len(d.options)))
            for e in events:  # the last bag of a cycle is the only option: taken automatically
                if e["e"] == "auto" and e["choice"] in LETTERS:
                    assert [e["choice"]] == expected(before), f"seed {seed}, used {sorted(used)}"
                    used.add(e["choice"])
        assert state["over"] and full_offers >= 2, f"seed {seed}: a new cycle offers all 5 bags"


class TestFirstPlayer:
    def test_rotates_clockwise(self):
        eng = engine()
        state, _ = eng.start(3, 21)
        firsts = []
        while len(firsts) < 4:
            state = advance(eng, state, lambda s, d: is_bag_choice(d) and s["vars"]["round_number"] > len(firsts))
            d = eng.decision(state)
            assert d is not None, "seed 21: the game ended before round 4"
            assert d.actor == state["first"]
            firsts.append(state["first"])
        assert firsts == [0, 1, 2, 0]

    def test_one_bag_per_round_chosen_by_the_first_player(self):
        # D1: "Choose a bag on your turn, then choose one tile from the shared supply." / "First player rotates
        # each round." The round's first player chooses the bag; the others only choose tiles.
        eng, rnd = engine(), Random(22)
        state, _ = eng.start(3, 22)
        rounds = []
        while (d := eng.decision(state)) is not None:
            if is_bag_choice(d):
                assert d.actor == state["first"]
                rounds.append(state["vars"]["round_number"])
            state, _ = eng.apply(state, rnd.below(len(d.options)))
        assert len(rounds) >= 3 and len(rounds) == len(set(rounds)), "seed 22: one bag choice per round"


class TestFullGames:
    @pytest.mark.parametrize("players,board,scoring", list(itertools.product([1, 2, 3, 4], "AB", "AB")))
    def test_random_game_ends_and_scores(self, players, board, scoring):
        seed = players * 100 + ord(board) * 10 + ord(scoring)
        eng, rnd = engine(board, scoring), Random(seed)
        state, _ = eng.start(players, seed)
        while (d := eng.decision(state)) is not None:
            assert state["step"] < 2000, f"seed {seed}: no end in sight"
            state, _ = eng.apply(state, rnd.below(len(d.options)))
        assert state["over"] and state["phase"] == "finale", f"seed {seed}"
        placed = [p[0] for g in state["grids"].values() for p in g["pieces"]]
        everywhere = placed + [c for items in state["zones"].values() for c in items]
        assert sorted(everywhere) == sorted(eng.game.components), f"seed {seed}: lost or doubled components"
        for s in eng.scores(state):
            p = s["player"]
            cells = state["grids"][f"garden/{p}"]["cells"]
            unplaced = state["zones"][f"unplaced/{p}"]
            assert state["zones"][f"saved/{p}"] == [], f"seed {seed}"
            assert not unplaced or None not in cells, f"seed {seed}: a bonus tile fit but was not placed"
            assert all(type(v) is int for v in s["breakdown"].values()) and type(s["total"]) is int
            assert s["breakdown"] == reference(cells, board, scoring, len(unplaced)), f"seed {seed}"


class TestSoloEnd:
    """ "If neither tile fits, set them aside and continue with the remaining bags. Finish when none of the
    remaining bags can provide a usable tile." """

    def test_a_failed_last_bag_of_a_cycle_does_not_end_the_game(self):
        eng = engine()
        state, _ = eng.start(1, 3)
        rig_bag(state, "Z", ["Z1", "Z2"])
        state["grids"]["garden/0"]["cells"] = fill({0, 8, 16, 24})  # a 1x4 strip: only I tiles fit
        for s in "OITL":
            state["vars"][f"used/{s}"] = True  # Z is the last bag of this cycle
        state, _ = eng.apply(state, "Z")  # neither Z tile fits
        assert {"Z1", "Z2"} <= set(state["zones"]["set_aside"])
        d = eng.decision(state)
        assert not state["over"] and d is not None and is_bag_choice(d), "the I bag can still provide a tile"
        assert state["vars"]["round_number"] == 2 and "I" in [o.id for o in d.options]  # a new cycle

    def test_ends_when_no_bag_holds_a_fitting_tile(self):
        eng = engine()
        state, _ = eng.start(1, 3)
        state["grids"]["garden/0"]["cells"] = fill({0, 2, 47})  # single squares: no four-square tile fits
        state, _ = eng.apply(state, "O")
        assert state["over"] and state["phase"] == "finale" and state["vars"]["round_number"] == 1

    def test_random_solo_games_end_with_no_fitting_tile_in_any_bag(self):
        eng = engine()
        for seed in range(8):
            rnd = Random(seed)
            state, _ = eng.start(1, seed)
            while (d := eng.decision(state)) is not None:
                state, _ = eng.apply(state, rnd.below(len(d.options)))
            cells = state["grids"]["garden/0"]["cells"]
            left = [t for s in LETTERS for t in state["zones"][f"bag/{s}"]]
            assert not any(fits(eng, t, cells) for t in left), f"seed {seed}: a bag tile still fits"


class TestBonusGardenersAtTheEnd:
    def test_a_bonus_gardener_earns_bonus_tiles_too(self):
        # "A newly placed gardener earns one random bonus tile per adjacent gardener already on your board."
        # "Bonus placement and scoring follow the same rules."
        eng = engine()
        state, _ = eng.start(1, 3)
        state["grids"]["garden/0"]["cells"] = fill({0, 47})  # two single holes among gardeners
        z = state["zones"]
        gardeners = [b for b in z["bonus_pool"] if b.startswith("bonus-gardener")]
        z["bonus_pool"] = [b for b in z["bonus_pool"] if b not in gardeners]  # the tiles earned score no more
        z["box"] += gardeners[1:]
        z["saved/0"] = gardeners[:1]
        state, _ = eng.apply(state, "O")  # no tile fits: the game ends, bonus tiles are placed
        while eng.decision(state) is not None:
            state, _ = eng.apply(state, 0)  # the first square offered: index 0, next to gardeners 1 and 8
        z = state["zones"]
        assert state["over"] and None not in state["grids"]["garden/0"]["cells"]
        assert len(z["unplaced/0"]) == 1, "2 tiles earned (gardeners at 1 and 8): one fills 47, one is left over"
