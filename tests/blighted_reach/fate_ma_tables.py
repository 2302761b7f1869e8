"""Tables for the Magnate's and the Advocate's tests: the Fates wanted at their seats, and at
the other seats Fates whose Act I plays on the engine today (so a bot game's failure is
about the Fates under test)."""
from __future__ import annotations

from core.state import Action
from tests.blighted_reach.flow_helpers import choose_fates, place_all, table

MAGNATE, ADVOCATE = "FATE03", "FATE04"
OTHERS = ("FATE01", "FATE02")  # Steward, Founder: no Act I or Resolution rule missing


def fated_table(players: int, seed: int, mine: dict[int, str]):
    """The first table from `seed` offering `mine` and an OTHERS Fate at every other seat,
    at Act I's first round (2 players: the mulligan declined). Returns (table, seed used)."""
    while True:
        t = table(players, seed)
        offers = t.state.fate_offers
        others = {s: next((f for f in offers[s] if f in OTHERS), None) for s in range(players) if s not in mine}
        if all(f in offers[s] for s, f in mine.items()) and all(others.values()):
            break
        seed += 1
    choose_fates(t, {**mine, **others})
    place_all(t)
    if players == 2:
        t.act(1 - t.state.initiative, Action("mulligan", {"redraw": False}))
    return t, seed
