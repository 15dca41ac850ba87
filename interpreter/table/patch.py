"""What changed between two pictures of a page: a short list of operations (a patch).

After each move every page used to get its whole picture again (30-50 kB of JSON for a game of
three with a long log), most of it what the page already had. Now each socket's outbox keeps the
last picture it sent, and sends what changed (outbox.py); a page that connects, or reconnects,
gets the whole picture first. Nothing here knows what a picture holds: any JSON data works.

An operation is a JSON list; `path` is the keys and indexes from the picture's root:

    ["set", path, value]            put value there (a new or changed key, a changed item)
    ["del", path]                   remove that key
    ["splice", path, start, n, items]   in the list at path, remove n items at start, insert items

A log that grows by a few lines is one splice (and one more when it is at its length and its
oldest lines go); a list whose length stays is compared item by item. The browser applies the
same operations (static/patch.js); `apply` here is the reference its tests compare with.

Values are compared as Python compares them (1 == 1.0 == True): a picture must not change one
field between a number and a boolean.
"""

from __future__ import annotations


def diff(old, new) -> list:
    """The operations that turn `old` into `new` (both plain JSON data)."""
    ops: list = []
    _diff(old, new, [], ops)
    return ops


def _diff(old, new, path: list, ops: list) -> None:
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append(["del", path + [key]])
        for key, value in new.items():
            if key not in old:
                ops.append(["set", path + [key], value])
            elif old[key] != value:
                _diff(old[key], value, path + [key], ops)
    elif type(old) is list and type(new) is list:
        _diff_list(old, new, path, ops)
    elif old != new or type(old) is not type(new):
        ops.append(["set", path, new])


def _diff_list(old: list, new: list, path: list, ops: list) -> None:
    shift = _shift(old, new)
    if shift:  # the oldest items went (a log at its length), the rest moved up
        ops.append(["splice", path, 0, shift, []])
        old = old[shift:]
    n, m = len(old), len(new)
    if n == m:  # the same places: each item compared (a zone's cards, a row of a grid)
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                _diff(a, b, path + [i], ops)
        return
    start = 0
    while start < n and start < m and old[start] == new[start]:
        start += 1
    end = 0
    while end < n - start and end < m - start and old[n - 1 - end] == new[m - 1 - end]:
        end += 1
    ops.append(["splice", path, start, n - end - start, new[start : m - end]])


def _shift(old: list, new: list) -> int:
    """k > 0 when `new` begins with `old` less its first k items (and is not simply longer)."""
    if not old or not new or old[0] == new[0]:
        return 0
    for k in range(1, len(old)):
        if old[k] == new[0] and old[k:] == new[: len(old) - k]:
            return k
    return 0


def apply(doc, ops: list):
    """`doc` with the operations done (it is changed in place; the result is returned, as a
    "set" at the root replaces it)."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "set" and not path:
            doc = op[2]
            continue
        at = doc
        for key in path[:-1]:
            at = at[key]
        if kind == "set":
            at[path[-1]] = op[2]
        elif kind == "del":
            del at[path[-1]]
        elif kind == "splice":
            target = at[path[-1]] if path else doc
            target[op[2] : op[2] + op[3]] = op[4]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return doc
