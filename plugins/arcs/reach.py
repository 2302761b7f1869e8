"""The map in play for one table: which systems exist and which border which, once a setup
card has put clusters out of play. Pure functions of the box and the out-of-play clusters.
"""
from __future__ import annotations

from dataclasses import dataclass

from plugins.arcs.content import Box


@dataclass(frozen=True)
class Reach:
    """The in-play systems and their adjacency (symmetric, ARCS-026)."""

    systems: frozenset[str]
    neighbours: dict[str, frozenset[str]]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())


def reach_for(box: Box, out_of_play: list[int] | tuple[int, ...] = ()) -> Reach:
    """Systems of out-of-play clusters leave the map entirely (ARCS-036, ARCS-037, ARCS-157).
    Each run of out-of-play clusters is bridged by its path markers: the in-play gates on
    either side of it become adjacent, one step apart (ARCS-038; two neighbouring clusters
    out, as ARCS-039 reads it: the gates beyond both ends border each other)."""
    gone = set(out_of_play)
    clusters = [c for c in box.map.clusters if c.id not in gone]
    systems = {c.gate for c in clusters} | {p.id for c in clusters for p in c.planets}
    links: dict[str, set[str]] = {s: set() for s in systems}

    def link(a: str, b: str) -> None:
        links[a].add(b)
        links[b].add(a)

    out_gates = {f"{n}G" for n in gone}
    gate_links: dict[str, set[str]] = {}
    for a, b in box.map.edges:
        if a in systems and b in systems:
            link(a, b)
        elif a.endswith("G") and b.endswith("G"):
            gate_links.setdefault(a, set()).add(b)
            gate_links.setdefault(b, set()).add(a)
    # An in-play gate reaches, through a run of path-marked (out-of-play) gates, the in-play
    # gate at the run's far end.
    for gate in (s for s in systems if s.endswith("G")):
        frontier, seen = [g for g in gate_links.get(gate, ()) if g in out_gates], set()
        while frontier:
            hop = frontier.pop()
            if hop in seen:
                continue
            seen.add(hop)
            for nxt in gate_links.get(hop, ()):
                if nxt in out_gates:
                    frontier.append(nxt)
                elif nxt != gate and nxt in systems:
                    link(gate, nxt)
    return Reach(systems=frozenset(systems), neighbours={s: frozenset(n) for s, n in links.items()})
