"""Tables for the Magnate's and the Advocate's tests: the Fates wanted at their seats, and at
the other seats Fates whose Act I plays on the engine today (so a bot game's failure is
about the Fates under test)."""
from __future__ import annotations

from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as on a real table)
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


def later_act_table(chosen: list[str], seed: int = 3, results: list[int] | None = None, start: int = 20,
                    act: int = 2):
    """An Act II (or III) table through the engine: Act I set up headless for `chosen` (one
    Fate per seat); each act before `act` ended with the objective markers at `results` (0:
    completed), its Intermission run keeping each Fate, the log sheet packed into a campaign
    and the next Act's table created from it; every objective start the data lacks is
    answered with `start`."""
    from tests.blighted_reach.campaign_tables import act_one, end_act

    state = end_act(act_one(chosen, seed))
    for later in range(2, act + 1):
        state.objective_markers = list(results or [0] * len(chosen))
        t = _next_act(state, chosen, seed, start)
        if later < act:
            state = end_act(t.state)
            state.prompts, state.stack, state.turn = [], [], None
    return t


def _next_act(state, chosen: list[str], seed: int, start: int):
    import copy

    from core.engine import create_table
    from plugins.blighted_reach import campaign as sheet
    from tests.blighted_reach.campaign_tables import BOX, CBOX, intermission
    from tests.blighted_reach.flow_helpers import GAME

    intermission(state, picks=dict(enumerate(chosen)))
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": len(chosen), "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    t = create_table(GAME, len(chosen), seed=seed, campaign=campaign)
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    return t
