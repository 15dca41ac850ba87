"""The flow as a graph: phases as nodes, `next` statements as edges (networkx).

The compiler (dsl/compiler.py) builds it once per game; `meeple graph GAME --flow`
draws it (interpreter/graphs.py, interpreter/pictures.py), and the checker warns of
phases it cannot reach (dsl/checker.py `warnings`). Effects are inlined into the phases that call them, so
an effect's `next` is an edge of every phase that does the effect.
"""

from __future__ import annotations

import networkx as nx

from meeple.dsl import ast


def flow_graph(setups, phases, effects) -> nx.DiGraph:
    """Phases as nodes, `next` as edges (effects are inlined into the phases that call them);
    `graph.graph["calls"]` says which effects each phase and effect does."""
    graph: nx.DiGraph[str] = nx.DiGraph()
    calls = {e.name: e.body for e in effects}
    start = "setup" if setups else (phases[0].name if phases else "end")
    graph.add_node(start)
    graph.add_node("end")
    bodies = [("setup", setups[0].body)] if setups else []
    bodies += [(p.name, p.body) for p in phases]
    for name, body in bodies:
        graph.add_node(name)
        targets, ends = transitions(body, calls, set())
        for target, span in targets:
            graph.add_edge(name, target, line=span.line)
        if ends:
            graph.add_edge(name, "end")
    graph.graph["start"] = start
    # Who does which effect (`do name(...)`), for pictures of the flow: phase or effect -> effects.
    graph.graph["calls"] = {name: called(body) for name, body in bodies + [(e.name, e.body) for e in effects]}
    return graph


def called(body) -> list[str]:
    """The effects a body names in `do` statements, in order of first mention."""
    out: list[str] = []
    for s in body:
        if isinstance(s, ast.Do) and s.effect not in out:
            out.append(s.effect)
        for sub in sub_bodies(s):
            out += [e for e in called(sub) if e not in out]
    return out


def transitions(body, calls: dict, seen: set, top: bool = True) -> tuple[list, bool]:
    """(`next` targets with their spans, whether the body can end the game) of a body.

    A phase ends the game at `end game`, or when its own statements run out
    without a `next` (only the phase's top level can fall off the end)."""
    targets, ends = [], False
    finished = False
    for s in body:
        if isinstance(s, ast.Next):
            targets.append((s.phase, s.span))
            finished = True
        elif isinstance(s, ast.EndGame):
            ends = finished = True
        elif isinstance(s, ast.Do) and s.effect in calls and s.effect not in seen:
            t, e = transitions(calls[s.effect], calls, seen | {s.effect}, top=False)
            targets += t
            ends = ends or e
        else:
            for sub in sub_bodies(s):
                t, e = transitions(sub, calls, seen, top=False)
                targets += t
                ends = ends or e
    return targets, ends or (top and not finished)


def sub_bodies(s) -> list:
    if isinstance(s, ast.If):
        return [b for _, b in s.branches] + ([s.else_body] if s.else_body else [])
    if isinstance(s, (ast.For, ast.Repeat, ast.While, ast.Simultaneous, ast.Together, ast.Quietly)):
        return [s.body]
    if isinstance(s, (ast.Choose, ast.ChooseSome)):
        return [s.body] + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, ast.Menu):
        return [e.body for e in s.entries]
    return []
