"""Arcs (Leder Games): the base game for 2-4 players, one session (`plugin.py`), with the
14 Lore cards and 8 Leaders used by the `leaders-and-lore` module and the campaign.

The digest's open readings (its section 18) and the one this game takes (ruling A-R1: as
written in the digest unless a ruling says otherwise), each noted again where it is applied:

| item | rule | reading taken | where |
|---|---|---|---|
| 1 | ARCS-025 planet adjacency | the 38 edges as listed (confirmed, 18.1) | `content/map.json` |
| 2 | ARCS-031 ID symbols | n.1 arrow, n.2 crescent, n.3 hexagon (confirmed) | `content/map.json` |
| 3 | ARCS-039 across two out-of-play clusters | the nearest in-play gates are linked | `reach.py` |
| 4 | ARCS-046 Court row | 3 cards with 2 players, 4 with 3-4 (A-R2) | `setup.py` |
| 5 | ARCS-062 3P Mix Up seat 3 | C system 5G | `content/setup.json` |
| 6 | ARCS-068 pips | the per-card values (confirmed) | `content/actions.json` |
| 7 | ARCS-070 number to ambition | the digest's table (confirmed) | `content/actions.json` |
| 8 | ARCS-211 city slot uncovers | slots 1-2 cover resource slots 3-4, slot 3 covers 5-6 | `content/board.json` |
| 9 | ARCS-212 raid costs | 3, 1, 1, 2, 1, 3 over the six slots (confirmed) | `content/board.json` |
| 10 | ARCS-195 Outrage | permanent: nothing in the base game removes it | `outrage.py` |
| 11 | ARCS-196 Ransack | mandatory; outside battle "defender" is the city's owner | `battle_flow.py` |
| 12 | ARCS-199 several cities in one battle | one city at a time, Outrage then Ransack (A-R4) | `battle_flow.py` |
| 13 | ARCS-229 empty Court deck | the row shrinks, no reshuffle (A-R3) | `actions.py` |
| 14 | ARCS-267 Leader layouts | as listed; a C entry goes to both C systems with 2 players (A-R5) | `leaders.py` |
"""
