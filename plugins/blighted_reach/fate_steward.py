"""The Steward (Fate 01, cards F101-F126): the rules its cards name that the data cannot
say, and two standing rules of the Empire's held cards that the Admiral's cards share.

Act I
- F101 (setup): data (`fates.apply_effect`): Imperial Authority and Dealmakers, the First
  Regent tile.
- F102 Imperial Authority (Lore): ignores the Presence and Truce Laws (`ignore_laws`,
  read by `empire.laws_ignored`), taxes any Empire-controlled city like a Loyal one and so
  takes no Captive there (`tax_takes_captive`, through the `arcs_tax_captures` hook), and
  is buried while its holder is an Outlaw (`bury_if_outlaw`, below).
- F103 Dealmakers: the Bargain new action (`bargain` op, then the steps `bargain_*`).

`bury_if_outlaw` (F102, F106, F702, F706) is a standing rule: after every step of the
campaign's flow (`burying`, wrapped around each step handler by the plugin), every card
with it that an Outlaw holds goes to the bottom of the Court deck (BR-228), however the
title changed (a Summit, the Imperial Demand, a Fate card) or the card came.
"""
from __future__ import annotations

from functools import lru_cache

import msgspec

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import court_flow, lore_ops
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.content import box_for
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach import council
from plugins.blighted_reach.board import empire_controls, is_outlaw
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

__all__ = ["arcs_tax_captures"]

# Standing rules: read where they apply, never used as an action.
standing("bury_if_outlaw", "tax_empire_cities", "ignore_laws")


# -- cards buried while their holder is an Outlaw (F102, F106, F702, F706) ----------------


@lru_cache(maxsize=1)
def _burying_cards() -> frozenset[str]:
    cbox = campaign_box()
    return frozenset(c for c in cbox.fate_cards
                     if any(getattr(e, "do", "") == "bury_if_outlaw" for e in cbox.effects_of(c)))


def outlaw_burials(state: BlightedReachState) -> list[tuple[int, str]]:
    """Bury (the Court deck's bottom, BR-228) every `bury_if_outlaw` card an Outlaw holds, as
    Guild card, Lore or other held card. Returns (seat, card) for each, in seat order."""
    out = []
    cards = _burying_cards()
    for seat, title in enumerate(state.titles):
        if title != "outlaw" or seat >= len(state.players):
            continue
        player = state.players[seat]
        piles = [player.guild, player.lore]
        if seat < len(state.play_area):
            piles.append(state.play_area[seat])
        for pile in piles:
            for card in [c for c in pile if c in cards]:
                pile.remove(card)
                state.court_deck.append(card)
                out.append((seat, card))
    return out


def burying(handler):
    """The step handler, then the Outlaws' burials (see the module docstring)."""

    def run_then_bury(ctx, **args):
        out = handler(ctx, **args)
        state = ctx.state
        if getattr(state, "titles", None) and "outlaw" in state.titles:
            for seat, card in outlaw_burials(state):
                ctx.emit("card_buried", seat=seat, card=card, why="outlaw")
        return out

    run_then_bury.step_name = handler.step_name
    run_then_bury.__doc__ = handler.__doc__
    run_then_bury.__wrapped__ = handler
    return run_then_bury


def burying_all(handlers: dict) -> dict:
    """A new step table with every handler wrapped by `burying` (the given one untouched)."""
    return {name: burying(fn) for name, fn in handlers.items()}


# -- F102 Imperial Authority: no Captive from an Empire-controlled city (BR-021) ---------


def taxes_empire_cities(state: BlightedReachState, seat: int) -> bool:
    """Whether the seat holds a card taxing Empire-controlled cities like Loyal ones."""
    from plugins.arcs.abilities import modifiers

    return bool(modifiers(state, box_for(state), seat, "tax_empire_cities"))


def tax_takes_captive(state: BlightedReachState, seat: int, system: str, building: int) -> bool | None:
    """False where Imperial Authority taxes a Rival's city of an Empire-controlled system as
    if it were Loyal; None (the base rule) elsewhere.
    # Reading: every city of an Empire-controlled system the holder taxes is taxed "like
    # Loyal", whether or not it could also tax it by the Presence Law: never a Captive."""
    if not isinstance(state, BlightedReachState) or seat >= len(state.titles):
        return None
    if is_outlaw(state, seat) or not empire_controls(state, system) or not taxes_empire_cities(state, seat):
        return None
    return False


@hookimpl
def arcs_tax_captures(state, seat, system, building):
    return tax_takes_captive(state, seat, system, building)


# -- F103 Dealmakers: Bargain (Secure) (BR-022) --------------------------------------------


class Bargain(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The Court card and the Rival who secures it."""

    card: str
    rival: int


def could_secure(state: BlightedReachState, seat: int, card: str) -> bool:
    """Whether `seat` could secure `card` now: the majority of agents (ARCS-162), never the
    Decided Council (BR-172), Paranoid's limit (a Lore card's)."""
    if not card or card not in state.court_row:
        return False
    try:
        council.check_secure(state, seat, card)
        lore_ops.check_paranoid(state, box_for(state), seat, card)
    except ActionRejected:
        return False
    return True


def bargain_options(state: BlightedReachState, seat: int) -> list[dict]:
    """Every Court card a Rival of the seat could secure, with that Rival."""
    return [{"card": c, "rival": r} for c in state.court_row if c
            for r in range(len(state.players)) if r != seat and could_secure(state, r, c)]


def check_bargain(state: BlightedReachState, seat: int, choice: Bargain) -> None:
    if choice.rival == seat or not 0 <= choice.rival < len(state.players):
        raise BadParameter(f"seat {choice.rival!r} is not a Rival")
    if choice.card not in state.court_row or not choice.card:
        raise BadParameter(f"{choice.card!r} is not in the Court")
    if not could_secure(state, choice.rival, choice.card):
        raise IllegalAction(f"seat {choice.rival} could not secure {choice.card}")


@op("bargain", params=Bargain, candidates=lambda env, u: bargain_options(env.state, u.seat),
    usable=lambda env, u: bool(bargain_options(env.state, u.seat)))
def do_bargain(env: Env, u: Use, choice: Bargain) -> None:
    """The agents the Rival would capture go home (the Steward's too), then the flow has
    the Rival secure the card (its effect theirs to resolve), the Steward influence once per
    agent the Rival had there and then secure once (`bargain_*` steps). Outside a flow (the
    check on a trial copy) only the first part happens."""
    state = env.state
    check_bargain(state, u.seat, choice)
    agents = state.court_agents[choice.card]
    theirs = agents[choice.rival]
    returned = {}
    for owner, n in enumerate(list(agents)):
        if owner != choice.rival and n:
            agents[owner] = 0
            agent_returns(state, owner, n)
            returned[str(owner)] = n
    env.emit("bargain", seat=u.seat, rival=choice.rival, card=choice.card, returned=returned, influences=theirs)
    if env.chance is not None:
        env.chance.push_all([(bargain_rival_secures, {"rival": choice.rival, "card": choice.card}),
                             (bargain_influence, {"seat": u.seat, "left": theirs}),
                             (bargain_secure, {"seat": u.seat})])


@steps("bargain_rival_secures")
def bargain_rival_secures(ctx, rival: int, card: str):
    """The Rival secures it (nobody's agents are left to capture); a Vox card's effect is
    theirs."""
    court_flow.take(ctx, rival, card, rivals_to="captives")


def influence_options(state: BlightedReachState, seat: int) -> list[str]:
    out = []
    for c in state.court_row:
        if not c:
            continue
        try:
            council.check_influence(state, seat, c)
        except ActionRejected:
            continue
        out.append(c)
    return out


@steps("bargain_influence")
def bargain_influence(ctx, seat: int, left: int):
    """One influence of the Steward's, `left` still owed (none with no agent in supply)."""
    if left <= 0:
        return
    cards = influence_options(ctx.state, seat)
    if not cards:
        ctx.emit("bargain_influence_lapsed", seat=seat, left=left)
        return
    ctx.ask(seat, "bargain_influence", [Action("bargain_influence", {"card": c}) for c in cards],
            resume=bargain_influenced, left=left)


@steps("bargain_influenced")
def bargain_influenced(ctx, seat, params, left: int):
    council.influence(ctx.state, seat, params["card"])
    ctx.emit("influenced", seat=seat, card=params["card"], why="bargain")
    ctx.push(bargain_influence, seat=seat, left=left - 1)


@steps("bargain_secure")
def bargain_secure(ctx, seat: int):
    """The Steward's one secure.
    # Reading: it is owed, like the Feastbringer's (its FAQ: the secure after influencing
    # must be made when a card can be secured); with none, nothing happens."""
    cards = [c for c in ctx.state.court_row if could_secure(ctx.state, seat, c)]
    if not cards:
        ctx.emit("bargain_secure_lapsed", seat=seat)
        return
    ctx.ask(seat, "bargain_secure", [Action("bargain_secure", {"card": c}) for c in cards],
            resume=bargain_secured)


@steps("bargain_secured")
def bargain_secured(ctx, seat, params):
    court_flow.take(ctx, seat, params["card"], rivals_to="captives")
