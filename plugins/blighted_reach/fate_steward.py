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
from plugins.arcs.court_ops import Reroll
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach import council, fates
from plugins.blighted_reach.board import empire_controls, is_outlaw
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

__all__ = ["arcs_tax_captures", "arcs_taxed"]

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


# -- the card just taken from the Court (Council Intrigue F105, Empire Falls F109) --------


def note_taken(state: BlightedReachState, seat: int, card: str) -> None:
    """Before a Court card is taken, how many of the taker's agents are on it: a Vox card's
    effect that moves "Loyal agents from here" moves that many (they went home with the take)."""
    if isinstance(state, BlightedReachState):
        agents = state.court_agents.get(card, [])
        state.vox_agents = agents[seat] if seat < len(agents) else 0


class AgentsOnto(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One Court card per agent moved on (none: they stay home)."""

    cards: list[str] = []


def onto_options(state: BlightedReachState) -> list[str]:
    """The Court cards agents may be moved onto.
    # Reading: not the Decided Council, which nobody may put agents on (BR-172); moving is
    # not influencing, but the card's rule is that it is closed."""
    return [c for c in state.court_row if c and c != council.DECIDED]


def _onto_candidates(env: Env, u: Use) -> list[dict]:
    k = min(env.state.vox_agents, env.state.players[u.seat].agents)
    return [{}] + ([{"cards": [c] * k} for c in onto_options(env.state)] if k else [])


@op("move_own_agents_to_court", params=AgentsOnto, candidates=_onto_candidates)
def do_move_own_agents(env: Env, u: Use, choice: AgentsOnto) -> None:
    """Council Intrigue (F105, CC12) and Empire Falls (F109) when secured: the securer may put
    the agents it had on the card (home since the secure) onto other Court cards."""
    state = env.state
    if len(choice.cards) > state.vox_agents:
        raise IllegalAction(f"only {state.vox_agents} of your agents were on {u.card}")
    if len(choice.cards) > state.players[u.seat].agents:
        raise IllegalAction("not that many agents in your supply")
    allowed = onto_options(state)
    for card in choice.cards:
        if card not in allowed:
            raise BadParameter(f"{card!r} is not a Court card agents may be moved onto")
    for card in choice.cards:
        state.court_agents[card][u.seat] += 1
        state.players[u.seat].agents -= 1
    state.vox_agents = 0
    if choice.cards:
        env.emit("agents_moved", seat=u.seat, card=u.card, onto=list(choice.cards))


@op("flip_council_in_session", candidates=lambda env, u: [{}])
def do_flip_council(env: Env, u: Use, _: None) -> None:
    """Council Intrigue (F105, CC12) when secured: the Imperial Council turns In Session
    (where it lies; a Council secured this round and tucked away returns Decided whatever
    happens, as `council.flip_council` has it)."""
    from plugins.blighted_reach.crises import flip_council_in_session

    if not council.is_tucked(env.state) and flip_council_in_session(env.state):
        env.emit("council_in_session", seat=u.seat, card=u.card)


# -- F106 Tax Collectors: an Outlaw's city taxed from their board --------------------------

standing("tax_outlaw_city_from_board")


def tax_collector_choice(state: BlightedReachState, seat: int, system: str, building: int,
                         resource: str | None) -> dict | None:
    """After a Tax by `seat`: when it holds Tax Collectors and the city is an Outlaw's who
    has a token of the city's type on their board, the choice to offer, else None."""
    from plugins.arcs.abilities import modifiers

    if not isinstance(state, BlightedReachState) or not resource:
        return None
    owner = state.systems[system].buildings[building].owner
    if owner < 0 or owner == seat or not is_outlaw(state, owner):
        return None
    if not modifiers(state, box_for(state), seat, "tax_outlaw_city_from_board"):
        return None
    if resource not in state.players[owner].resources:
        return None
    return {"owner": owner, "resource": resource}


def take_from_board(state: BlightedReachState, seat: int, owner: int, resource: str, gained: bool) -> None:
    """The taxed token comes from the Outlaw's board instead of the supply: one of their
    tokens of that type leaves their row; the taxer keeps the one it took (which the supply
    gets back from the Outlaw's), or, the supply having had none, receives the Outlaw's."""
    row = state.players[owner].resources
    row[row.index(resource)] = None
    if gained:
        state.supply[resource] = state.supply.get(resource, 0) + 1
    else:
        from plugins.arcs.placing import receive

        receive(state, seat, resource)


@hookimpl
def arcs_taxed(ctx, seat, system, building, got):
    """Tax Collectors (F106): offer the holder the Outlaw's token instead of the supply's."""
    state = ctx.state
    planet = box_for(state).systems.get(system)
    resource = got.get("resource") or (planet.type if planet is not None else None)
    offer = tax_collector_choice(state, seat, system, building, resource)
    if offer is not None:
        ctx.push(tax_collectors_offer, seat=seat, owner=offer["owner"], resource=resource,
                 gained=bool(got.get("resource")))


@steps("tax_collectors_offer")
def tax_collectors_offer(ctx, seat: int, owner: int, resource: str, gained: bool):
    if resource not in ctx.state.players[owner].resources:
        return  # their token went meanwhile
    ctx.ask(seat, "tax_collectors", [Action("tax_collectors", {"from_board": b}) for b in (True, False)],
            resume=tax_collectors_chosen, owner=owner, resource=resource, gained=gained)


@steps("tax_collectors_chosen")
def tax_collectors_chosen(ctx, seat, params, owner: int, resource: str, gained: bool):
    if params["from_board"]:
        take_from_board(ctx.state, seat, owner, resource, gained)
        ctx.emit("taxed_from_board", seat=seat, owner=owner, resource=resource, card="F106")


# -- F107 Hunter Squads: rerolls against an Outlaw ------------------------------------------


def _as_reroll(u: Use) -> Use:
    """The card's ability as Skirmishers' reroll: assault dice, up to the Weapon icons."""
    return Use(u.seat, u.card, u.index, msgspec.structs.replace(u.ability, die="assault", limit="weapon_icons"))


def _against_outlaw(env: Env, u: Use) -> bool:
    b = env.state.battle
    return (b is not None and b.attacker == u.seat and 0 <= b.defender < len(env.state.players)
            and is_outlaw(env.state, b.defender))


def _reroll():
    from plugins.arcs.abilities import OPS

    return OPS["reroll"]


@op("reroll_assault_against_outlaw", params=Reroll,
    candidates=lambda env, u: _reroll().candidates(env, _as_reroll(u)),
    usable=lambda env, u: _against_outlaw(env, u) and _reroll().usable(env, _as_reroll(u)))
def do_hunter_squads(env: Env, u: Use, choice: Reroll) -> None:
    """Hunter Squads (F107), after the holder's roll attacking an Outlaw, once per roll:
    reroll assault dice, at most the holder's Weapon tokens and Weapon cards (Skirmishers'
    rule for the assault die)."""
    if not _against_outlaw(env, u):
        raise IllegalAction(f"{u.card} rerolls only when attacking an Outlaw")
    _reroll().apply(env, _as_reroll(u), choice)


# -- F109 Empire Falls: the Crisis ------------------------------------------------------------


def hit_every_imperial_ship(state: BlightedReachState) -> dict[str, list[int]]:
    """One hit on each Imperial ship on the map: fresh ones are damaged, damaged ones
    destroyed (back to the Imperial supply: a Crisis takes no Trophy). Returns
    system -> [damaged, destroyed]."""
    from plugins.blighted_reach.state import Pieces

    out = {}
    for system, here in sorted(state.imperial.items()):
        state.imperial_supply += here.damaged
        out[system] = [here.fresh, here.damaged]
        if here.fresh:
            state.imperial[system] = Pieces(damaged=here.fresh)
        else:
            del state.imperial[system]
    return out


def every_regent_falls(state: BlightedReachState) -> list[dict]:
    """Every Regent becomes an Outlaw; the First Regent last, so it is the one who leaves
    with no Regent to succeed it (its Trust back to the supply, 1 Power lost for each).
    # Reading: all fall at once; the Empire's title rules say what the last leaver owes."""
    from plugins.blighted_reach import empire
    from plugins.blighted_reach.board import regents

    order = [s for s in regents(state) if s != state.first_regent]
    if state.first_regent in regents(state):
        order.append(state.first_regent)
    return [empire.become_outlaw(state, s) for s in order]


def _empire_falls(call) -> list[dict]:
    from plugins.blighted_reach.crises import _remove_self

    fallen = every_regent_falls(call.state)
    hits = hit_every_imperial_ship(call.state)
    return [{"event": "empire_falls", "card": call.card, "outlaws": [f["seat"] for f in fallen],
             "power_lost": {str(f["seat"]): f["power_lost"] for f in fallen if f["power_lost"]},
             "imperial_hits": hits},
            _remove_self(call, "discard")]


def _register_crises() -> None:
    from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler

    FATE_CRISIS_HANDLERS["empire_falls"] = CrisisHandler(apply=_empire_falls)


_register_crises()


# -- F113 Imperial Quorum: the Govern stack resolved by three Regents ---------------------


def built(state: BlightedReachState, seat: int, kind: str) -> int:
    """The seat's buildings of that kind on the map (no Flagship boards in these Acts' rules
    yet: the card counts those too)."""
    return sum(b.owner == seat and b.kind == kind for here in state.systems.values() for b in here.buildings)


def most_built(state: BlightedReachState, kind: str) -> int:
    """The Regent with strictly the most of `kind` built; -1 on a tie (nobody, BR: "skip")."""
    from plugins.blighted_reach.board import regents

    counts = {s: built(state, s, kind) for s in regents(state)}
    if not counts:
        return -1
    best = max(counts.values())
    top = [s for s, n in counts.items() if n == best]
    return top[0] if len(top) == 1 else -1


@fates.handler("imperial_quorum")
def imperial_quorum(ctx, seat: int, card_id: str, effect) -> None:
    """In place of Govern (`edicts.REPLACES_GOVERN`): the First Regent collects the Demand
    of the Policy on top; the Regent with the most starports may take its Imperial Action;
    the Regent with the most cities may change the Policy (a tie skips either)."""
    from plugins.blighted_reach import edicts, event_flow

    state, cbox = ctx.state, campaign_box()
    governing = quorum_governor(cbox, state)
    if governing is not None:
        governing(ctx)
        return
    if edicts.current_policy(cbox, state) is None or state.first_regent < 0:
        ctx.emit("edict_lapsed", card=card_id, why="no Policy or no First Regent")
        return
    demands = [(event_flow.demand, {"payer": p}) for p in edicts.demand_payers(cbox, state)]
    ctx.push_all([*demands, (quorum_action, {}), (quorum_policy, {})])


# Act III's Govern with Authority resolves under Imperial Quorum by its own rules: the
# function that does it, when that stack governs (set by the Act III rules below).
def quorum_governor(cbox, state):
    return None


@steps("quorum_action")
def quorum_action(ctx):
    from plugins.blighted_reach import edicts

    state, cbox = ctx.state, campaign_box()
    taker = most_built(state, "starport")
    options = edicts.options_imperial_action(box_for(state), cbox, state) if taker >= 0 else []
    if not options:
        ctx.emit("quorum_skipped", part="imperial_action", why="a tie" if taker < 0 else "nothing to do")
        return
    ctx.ask(taker, "quorum_imperial_action",
            [Action("quorum_imperial_action", {"take": False})]
            + [Action("quorum_imperial_action", {"take": True, **o}) for o in options],
            resume=quorum_acted)


@steps("quorum_acted")
def quorum_acted(ctx, seat, params):
    """The Regent's choice made for the Imperial Action; the Edicts' rules apply it as the
    First Regent's (who otherwise decides it)."""
    from plugins.blighted_reach import edicts

    if not params["take"]:
        ctx.emit("quorum_skipped", part="imperial_action", why="declined", seat=seat)
        return
    state = ctx.state
    choice = {k: v for k, v in params.items() if k != "take"}
    done = edicts.apply_imperial_action(box_for(state), campaign_box(), state, state.first_regent, choice)
    ctx.emit("imperial_action", seat=seat, why="imperial_quorum", **{k: v for k, v in done.items() if k != "seat"})
    _imperial_ships_placed(state, done.get("placed", 0))


def _imperial_ships_placed(state: BlightedReachState, count: int) -> None:
    from plugins.blighted_reach.fate_admiral import imperial_ships_placed

    imperial_ships_placed(state, count)


@steps("quorum_policy")
def quorum_policy(ctx):
    from plugins.blighted_reach import edicts

    state, cbox = ctx.state, campaign_box()
    changer = most_built(state, "city")
    slot = edicts.govern_slot(cbox, state)
    if changer < 0 or slot is None:
        ctx.emit("quorum_skipped", part="policy", why="a tie" if changer < 0 else "no Govern stack")
        return
    ctx.ask(changer, "quorum_policy",
            [Action("quorum_policy", {"change": ""})]
            + [Action("quorum_policy", {"change": c}) for c in state.booklet[slot][1:]],
            resume=quorum_policy_chosen)


@steps("quorum_policy_chosen")
def quorum_policy_chosen(ctx, seat, params):
    from plugins.blighted_reach import edicts

    if params["change"]:
        edicts.change_policy(campaign_box(), ctx.state, params["change"])
        ctx.emit("policy", seat=seat, outcome="change", why="imperial_quorum",
                 policy=edicts.current_policy(campaign_box(), ctx.state).name)


def _register_edicts() -> None:
    from plugins.blighted_reach import edicts

    edicts.REPLACES_GOVERN.add("imperial_quorum")


_register_edicts()
