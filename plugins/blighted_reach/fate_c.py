"""What the C Fates' Act III cards share (the Overlord, the Redeemer, the Guardian): the
first step of every C Fate's Setup side (Resettle a Flagship), Provoking one's own Outrage
as a setup step, the 2-player ambition tokens of the types the Fate turns against, and the
"Ire" Lore cards that forbid declaring one ambition and taxing one's own cities on planets
of its types without control.

A C Fate is taken at the Intermission after Act II and plays Act III only, so everything
here reads the Fate's seat from `state.fates` (or the holder of its card) on the table.
"""
from __future__ import annotations

from core.errors import IllegalAction
from plugins.arcs import court_ops
from plugins.arcs.outrage import provoke_outrage
from plugins.arcs.turn import TAX_CHECKS
from plugins.blighted_reach import board, fates
from core.state import Action
from plugins.blighted_reach.tables import steps
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState

GAME_ID = "blighted-reach"


def is_campaign(state) -> bool:
    return getattr(state, "game", "") == GAME_ID


def seat_of(state: BlightedReachState, fate: str) -> int:
    """The seat playing `fate` now, -1 when nobody does."""
    return next((s for s, f in enumerate(state.fates) if f == fate), -1)


def planets_of(state: BlightedReachState, types) -> list[str]:
    """The planets (not gates) whose type is one of `types`, in map order."""
    box = rules_box()
    return [s for s in sorted(state.systems) if box.systems[s] is not None and box.systems[s].type in types]


# -- Setup step 1: Resettle (BR-305..BR-307) -----------------------------------------------
@fates.handler("resettle_flagship")
def resettle_flagship(ctx, seat: int, card_id: str, effect) -> None:
    """"If you have a Flagship, you may Resettle." A seat without one skips the step; one
    with one is asked, and Resettling is the Flagship rules' (`flagships.resettle`: the
    board cleared, a city and a starport placed, the fleet replenished, BR-305..BR-307)."""
    from plugins.flagships.state import board_of

    if board_of(ctx.state, seat) is None:
        return
    ctx.ask(seat, "resettle", [Action("resettle", {"resettle": True}), Action("resettle", {"resettle": False})],
            resume=resettle_chosen, card=card_id)


fates.WAITS.add("resettle_flagship")


@steps("c_fate_resettle_chosen")
def resettle_chosen(ctx, seat: int, params, card: str):
    from plugins.flagships.resettle import resettle_steps

    ctx.emit("resettle_chosen", seat=seat, resettle=bool(params["resettle"]), card=card)
    if params["resettle"]:
        ctx.push_all(resettle_steps(seat))


# -- Provoking one's own Outrage as a setup step -------------------------------------------
@fates.handler("provoke_own_outrage")
def provoke_own_outrage(ctx, seat: int, card_id: str, effect) -> None:
    """The Fate's seat Provokes Outrage of each of the step's `resources` (ARCS-191..194: its
    tokens and Guild cards of that type discarded, an agent on the Outrage slot)."""
    state = ctx.state
    for resource in effect.resources:
        provoke_outrage(rules_box(), state, seat, resource)
    ctx.emit("outrage_provoked", seat=seat, resources=list(effect.resources), why=card_id)


@fates.handler("return_ambition_tokens")
def return_ambition_tokens(ctx, seat: int, card_id: str, effect) -> None:
    """With 2 players: every token of the step's `resources` lying on an ambition box (the
    2-player tokens, BR-073) goes back to the supply. Other player counts have none."""
    state = ctx.state
    if len(state.players) != 2:
        return
    returned = []
    for ambition, tokens in state.ambition_tokens.items():
        back = [r for r in tokens if r in effect.resources]
        state.ambition_tokens[ambition] = [r for r in tokens if r not in effect.resources]
        for r in back:
            state.supply[r] = state.supply.get(r, 0) + 1
        returned += back
    ctx.emit("ambition_tokens_returned", resources=returned, why=card_id)


# -- the Ire Lore cards: an ambition forbidden, taxes limited ------------------------------
# Lore card -> (the ambition its holder cannot declare, the planet types whose Loyal cities
# it cannot tax without control). Filled by the Fates' modules.
IRE: dict[str, tuple[str, tuple[str, ...]]] = {}


def ire_cards(state: BlightedReachState, seat: int) -> list[str]:
    if not is_campaign(state) or not 0 <= seat < len(state.players):
        return []
    return [c for c in state.players[seat].lore if c in IRE]


def declare_barred(state, seat: int, ambition: str) -> str:
    """`court_ops.DECLARE_LIMITS`: the holder of an Ire card never declares its ambition,
    however the declaration comes (a lead card, a card's effect, an Edict)."""
    for card in ire_cards(state, seat):
        if IRE[card][0] == ambition:
            return f"{card}: you cannot declare {ambition}"
    return ""


def check_ire_tax(box, state, seat: int, system: str, building: int) -> None:
    """`turn.TAX_CHECKS`: the holder of an Ire card taxes its own cities on planets of the
    card's types only where it controls the system on its turn."""
    cards = ire_cards(state, seat)
    if not cards:
        return
    planet = rules_box().systems.get(system)
    here = state.systems.get(system)
    if planet is None or here is None or not 0 <= building < len(here.buildings):
        return
    if here.buildings[building].owner != seat:
        return
    for card in cards:
        if planet.type in IRE[card][1] and not board.controls_on_turn(state, seat, system):
            raise IllegalAction(f"{card}: you cannot tax your city on a {planet.type} planet you do not control")


court_ops.DECLARE_LIMITS.append(declare_barred)
TAX_CHECKS.append(check_ire_tax)
