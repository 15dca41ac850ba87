"""`meeple new NAME`: a small, complete ruleset to start from (it checks and runs).

The skeleton is a card game with a deck, hands, a market that refills and a
scoring rule, so a designer sees each part of a ruleset once.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES = """# {title} - a new Meeple ruleset. Change anything; `meeple check` tells you what broke.
game "{title}"
players 2..4

# ------------------------------------------------------------------ components
enum suit = sun | moon
component card from "cards.csv":
    suit: suit
    points: int

# ------------------------------------------------------------------ zones and counters
zone deck: deck of card
zone market: pile of card
zone hand per player: hand of card
counter round_number = 0

# ------------------------------------------------------------------ flow
setup:
    move card to deck
    shuffle deck
    draw 3 from deck into market
    next round

phase round:
    round_number += 1
    for each player in turn_order:
        choose c from market "Which card do you take?":
            move c to hand
        otherwise:
            pass
        draw 1 from deck into market
    first_player = next_player(first_player)
    if count(deck) > 0 and round_number < 5:
        next round

# ------------------------------------------------------------------ scoring
score "Points": sum(c.points for each c in hand)
score "Set of suns": 3 if count(each c in hand where c.suit == sun) >= 3 else 0
tiebreak: fewest count(hand)
"""

CARDS = """id,suit,points,count
sun,sun,1,8
moon,moon,2,6
"""


def create(name: str, where: Path) -> Path:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"`{name}`: a ruleset's name is lowercase letters, digits and _ (like my_game)")
    folder = where / name
    if folder.exists():
        raise ValueError(f"{folder} already exists")
    folder.mkdir(parents=True)
    title = name.replace("_", " ").title()
    (folder / f"{name}.rules").write_text(RULES.format(title=title), encoding="utf-8")
    (folder / "cards.csv").write_text(CARDS, encoding="utf-8")
    return folder / f"{name}.rules"
