"""The Steward (Fate 01, cards F101-F126): the rules its cards name that the data cannot
say, and the standing rules of the Empire's held cards that the Admiral's cards share.

Act I
- F101 (setup): data (`fates.apply_effect`): Imperial Authority and Dealmakers, the First
  Regent tile. Its objective's counts are the objectives module's own.
- F102 Imperial Authority (Lore): ignores the Presence and Truce Laws (`ignore_laws`, read
  by `empire.laws_ignored`), taxes any Empire-controlled city like a Loyal one, so takes no
  Captive there (`arcs_tax_captures`), buried while its holder is an Outlaw.
- F103 Dealmakers: the Bargain new action (`bargain` op, then the `bargain_*` steps).
- F104 (Resolution): data.
Act II
- F105 Council Intrigue (CC12's reprint) and F109 Empire Falls: the secured ops
  `flip_council_in_session` and `move_own_agents_to_court` (the securer's agents counted as
  it takes the card, `note_taken`); Empire Falls' Crisis (`empire_falls`).
- F106 Tax Collectors: after a Tax (`arcs_taxed`), the Outlaw's token instead of the supply's.
- F107 Hunter Squads: Skirmishers' reroll for assault dice against an Outlaw.
- F108 Imperial Protectors: the Blight's own rule (`blight.crisis_exempt`).
- F110/F111 (and F120/F121) Lesser Regent: the base `declare_any` op in a Prelude.
- F112 (setup), F114 (Resolution): data. F113 Imperial Quorum: resolves the Govern stack in
  its place (`edicts.REPLACES_GOVERN`) in three Regents' hands.
Act III
- F115 Navy Reprisal (Crisis and secured), F116 Council Insiders (after a Guild card is
  secured: the plugin's `arcs_court_secured` calls `council_insiders_offer`), F117 (BC25's
  reprint), F118/F119 (the Admiral's module: `defect`).
- F122 (setup): the Sponsored token, the Govern the Imperial Reach cards scrapped, the First
  Regent's pick of the Govern with Authority stack. F123 Imperial Sponsor: its Edict, and a
  declaration of the Sponsored ambition (`arcs_declared` in the plugin, `arcs_declared_by_card`).
- F124-F126 Govern with Authority: Govern's procedure over its own three Policies (their
  Demand reaches Outlaws the Empire holds a city of), also under Imperial Quorum.

Standing rules around every step (`burying`, wrapped around each step handler by the
plugin): every `bury_if_outlaw` card (F102, F106, F702, F706) an Outlaw holds goes to the
bottom of the Court deck (BR-228), however the title changed or the card came; and the
rules of `AROUND_STEPS` (the Admiral's objective counts).
"""
from __future__ import annotations

from functools import lru_cache

import msgspec

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs import court_flow, lore_ops
from plugins.arcs.abilities import Env, Use, harm_refused, op, pay_for_harm, standing
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import Reroll
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach import board, council, fates, ship_captives
from plugins.blighted_reach.board import empire_controls, is_outlaw
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

__all__ = ["arcs_declared_by_card", "arcs_tax_captures", "arcs_taxed"]

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


# Standing rules read around every step of the campaign's flow, as (before, after) pairs:
# `before(state)` notes what the rule compares, `after(ctx, noted)` acts on the change (the
# Admiral's objective counts Trophies and Captives so, wherever they are taken).
AROUND_STEPS: list = []


def burying(handler):
    """The step handler, then the Outlaws' burials (see the module docstring) and the other
    rules of `AROUND_STEPS`."""

    def run_then_bury(ctx, **args):
        state = ctx.state
        campaign = isinstance(state, BlightedReachState)
        noted = [before(state) for before, _ in AROUND_STEPS] if campaign else []
        out = handler(ctx, **args)
        if not campaign:
            return out
        if "outlaw" in state.titles:
            for seat, card in outlaw_burials(state):
                ctx.emit("card_buried", seat=seat, card=card, why="outlaw")
        for (_, after), note in zip(AROUND_STEPS, noted):
            after(ctx, note)
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
        raise BadParameter(f"{seat_name(choice.rival)} is not a Rival")
    if choice.card not in state.court_row or not choice.card:
        raise BadParameter(f"{choice.card!r} is not in the Court")
    if not could_secure(state, choice.rival, choice.card):
        raise IllegalAction(f"{seat_name(choice.rival)} could not secure {choice.card}")


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
        board.destroyed_ships_home(state, board.EMPIRE, here.damaged)
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
    if edicts.govern_barred(state, state.first_regent, {"enforce": True}):
        demands = []  # collecting the War Policy's Demand enforces it: Oath of Peace (F1502)
    ctx.push_all([*demands, (quorum_action, {}), (quorum_policy, {})])


def quorum_governor(cbox, state):
    """Act III's Govern with Authority resolves under Imperial Quorum by its own rules: the
    function doing so when that stack governs, else None (the Govern the Imperial Reach
    stack, by the Edicts' rules)."""
    return authority_quorum if authority_slot(state) is not None else None


@steps("quorum_action")
def quorum_action(ctx):
    from plugins.blighted_reach import edicts

    state, cbox = ctx.state, campaign_box()
    taker = most_built(state, "starport")
    options = edicts.options_imperial_action(box_for(state), cbox, state) if taker >= 0 else []
    if taker >= 0 and edicts.govern_barred(state, taker, {"enforce": True}):
        options = []  # taking the War Policy's Imperial Action enforces it: Oath of Peace (F1502)
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
            + [Action("quorum_policy", {"change": c}) for c in state.booklet[slot][1:]
               if not edicts.govern_barred(state, changer, {"change": c})],  # Oath of Peace (F1502)
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


# -- F124-F126 Govern with Authority (Act III's Govern stack) ------------------------------

AUTHORITY = {"F124": "war", "F125": "escalation", "F126": "peace"}
AUTHORITY_DEMAND = {"escalation": ("weapon", "fuel", "material"), "peace": ("relic", "psionic")}
AUTHORITY_SHIPS = 4  # Escalation's Imperial Action


def authority_slot(state: BlightedReachState) -> int | None:
    """The booklet slot of the Govern with Authority stack (its top card is the Policy)."""
    return next((i for i, cards in enumerate(state.booklet) if cards and cards[0] in AUTHORITY), None)


def authority_policy(state: BlightedReachState) -> str:
    slot = authority_slot(state)
    return "" if slot is None else AUTHORITY[state.booklet[slot][0]]


def _turn_order(state: BlightedReachState) -> list[int]:
    n = len(state.players)
    return [(state.initiative + i) % n for i in range(n)]


def empire_holds_their_city(state: BlightedReachState, seat: int) -> bool:
    """A Loyal city of the seat in an Empire-controlled system (Flagships: none in play)."""
    return any(empire_controls(state, system) for system, here in state.systems.items()
               for b in here.buildings if b.owner == seat and b.kind == "city")


def authority_payers(state: BlightedReachState) -> list[int]:
    """Who owes the Demand, in the order the First Regent collects: in turn order each Rival
    Regent and each Outlaw whose city the Empire controls (BR-116 lifted for them), then the
    First Regent's own resource under Escalation and Peace ("even you")."""
    from plugins.blighted_reach.board import is_regent

    policy, fr = authority_policy(state), state.first_regent
    if not policy or fr < 0:
        return []
    payers = [s for s in _turn_order(state) if s != fr
              and (is_regent(state, s) or (is_outlaw(state, s) and empire_holds_their_city(state, s)))]
    return payers + ([fr] if policy != "war" else [])


def _spared(state: BlightedReachState, owner: int) -> bool:
    """War takes no Imperial and no Regent piece: a seat's only while it is an Outlaw."""
    from plugins.blighted_reach.board import EMPIRE, is_regent

    if 0 <= owner < len(state.players):
        return is_regent(state, owner)
    return owner == EMPIRE


def authority_demand_options(state: BlightedReachState, payer: int) -> list[dict]:
    """As `edicts.options_demand`, under Govern with Authority: a demanded resource from a
    slot (to the Trust), a Trophy or Captive (War), else a Favor, else for a Regent with no
    agent the First Regent's choice to make them an Outlaw. The First Regent pays a resource
    or nothing."""
    from plugins.blighted_reach.board import is_regent

    policy, fr = authority_policy(state), state.first_regent
    if payer not in authority_payers(state):
        return []
    player = state.players[payer]
    if policy == "war":
        out = [{"trophy": i} for i, t in enumerate(player.trophies) if not _spared(state, t.owner)]
        out += [{"captive": i} for i, owner in enumerate(player.captives) if not _spared(state, owner)]
        out += [{"ship_captive": i} for i, owner in enumerate(ship_captives.held(state, payer))
                if not _spared(state, owner)]  # Happy Hosts' ships (F1012) are Captives too
    else:
        out = [{"slot": i} for i, r in enumerate(player.resources) if r in AUTHORITY_DEMAND[policy]]
    if out or payer == fr:
        return out
    if player.agents > 0:
        return [{"favor": True}]
    # Reading: only a Regent may be made an Outlaw; an Outlaw with nothing to give owes nothing.
    return [{"outlaw": True}, {"outlaw": False}] if is_regent(state, payer) else []


def apply_authority_demand(state: BlightedReachState, payer: int, choice: dict) -> dict:
    from plugins.blighted_reach import empire
    from plugins.blighted_reach.edicts import move_ship_captive
    from plugins.blighted_reach.favors import take_favor
    from plugins.blighted_reach.trust import add_to_trust

    if choice not in authority_demand_options(state, payer):
        raise IllegalAction(f"{choice} is not what {seat_name(payer)} can pay under this Policy")
    fr, player = state.first_regent, state.players[payer]
    if "slot" in choice:
        resource = player.resources[choice["slot"]]
        player.resources[choice["slot"]] = None
        add_to_trust(state, resource)
        return {"trust": resource}
    if "trophy" in choice:
        trophy = player.trophies.pop(choice["trophy"])
        state.players[fr].trophies.append(trophy)
        return {"trophy": [trophy.owner, trophy.kind]}
    if "captive" in choice:
        owner = player.captives.pop(choice["captive"])
        state.players[fr].captives.append(owner)
        return {"captive": owner}
    if "ship_captive" in choice:
        return {"ship_captive": move_ship_captive(state, payer, fr, choice["ship_captive"])}
    if "favor" in choice:
        take_favor(state, fr, payer)
        return {"favor": True}
    if choice["outlaw"]:
        empire.become_outlaw(state, payer)
    return {"outlaw": bool(choice["outlaw"])}


def authority_action_options(box, state: BlightedReachState) -> list[dict]:
    """The Imperial Action's choices: War, the extra resource each Regent is given (one
    dict per Regent in turn order, a type the supply or the Trust has); Escalation, the
    system for 4 fresh Imperial ships; Peace, none ([{}])."""
    from plugins.blighted_reach import edicts

    policy = authority_policy(state)
    if policy == "escalation":
        where = edicts.requisition_systems(state) if state.imperial_supply > 0 else []
        return [{"system": s} for s in where] or [{}]
    if policy == "war":
        kinds = sorted({r for r, n in state.supply.items() if n > 0} | set(state.trust))
        return [{"resource": r} for r in kinds] or [{}]
    return [{}]


def _give(state: BlightedReachState, seat: int, resource: str) -> str:
    """One token to the seat from the supply, or once it has none from the Trust ("" none)."""
    from plugins.arcs.placing import gain, receive
    from plugins.blighted_reach.trust import take_from_trust

    if gain(state, seat, resource):
        return "supply"
    if resource in state.trust:
        take_from_trust(state, resource)
        receive(state, seat, resource)
        return "trust"
    return ""


def apply_authority_action(box, state: BlightedReachState, choice: dict) -> dict:
    """War: 1 Weapon and the chosen resource to each Regent, in turn order (from the supply,
    else the Trust; what neither has is not given). Escalation: 4 fresh Imperial ships into
    the chosen system. Peace: each Regent twice its uncovered city slots' bonus Power.
    # Reading: War's "any 1 resource" is the same type for every Regent, chosen by whoever
    # takes the Imperial Action (as every Govern choice is the First Regent's)."""
    from plugins.blighted_reach import edicts
    from plugins.blighted_reach.board import regents

    if choice not in authority_action_options(box, state):
        raise IllegalAction(f"{choice} is not a choice for this Imperial Action")
    policy = authority_policy(state)
    order = [s for s in _turn_order(state) if s in regents(state)]
    if policy == "peace":
        gains = {s: 2 * edicts.celebration_power(box, state, s) for s in order}
        for seat, power in gains.items():
            state.players[seat].power += power
        return {"power": {str(s): p for s, p in gains.items()}}
    if policy == "escalation":
        if "system" not in choice:
            return {"placed": 0}
        from plugins.blighted_reach.fate_admiral import place_imperial

        return {"placed": place_imperial(state, choice["system"], AUTHORITY_SHIPS), "system": choice["system"]}
    given = {}
    for seat in order:
        given[str(seat)] = [_give(state, seat, "weapon"), _give(state, seat, choice["resource"]) if choice else ""]
    return {"given": given}


def _authority_handler(ctx, seat: int, card_id: str, effect) -> None:
    """The Govern with Authority card on top resolves as Govern does (BR-241..BR-243): the
    First Regent enforces it or puts another of the stack on top."""
    state = ctx.state
    slot = authority_slot(state)
    if slot is None or state.first_regent < 0:
        ctx.emit("edict_lapsed", card=card_id, why="nobody governs")
        return
    from plugins.blighted_reach import edicts

    options = [o for o in [{"enforce": True}] + [{"change": c} for c in state.booklet[slot][1:]]
               if not edicts.govern_barred(state, state.first_regent, o)]  # Oath of Peace (F1502)
    ctx.ask(state.first_regent, "govern_authority", [Action("govern_authority", o) for o in options],
            resume=authority_governed)


for _name in ("govern_with_authority_war", "govern_with_authority_escalation", "govern_with_authority_peace"):
    fates.handler(_name)(_authority_handler)


def change_authority(state: BlightedReachState, card: str) -> None:
    slot = authority_slot(state)
    stack = state.booklet[slot]
    stack.remove(card)
    stack.insert(0, card)


@steps("authority_governed")
def authority_governed(ctx, seat, params):
    state = ctx.state
    if "change" in params:
        change_authority(state, params["change"])
        ctx.emit("policy", seat=seat, outcome="change", policy=authority_policy(state))
        return
    ctx.emit("policy", seat=seat, outcome="enforce", policy=authority_policy(state))
    ctx.push_all([*((authority_demand, {"payer": p}) for p in authority_payers(state)),
                  (authority_action, {"seat": state.first_regent, "optional": False})])


@steps("authority_demand")
def authority_demand(ctx, payer: int):
    state = ctx.state
    options = authority_demand_options(state, payer)
    if options:
        ctx.ask(state.first_regent, "authority_demand", [Action("authority_demand", o) for o in options],
                resume=authority_demanded, payer=payer)


@steps("authority_demanded")
def authority_demanded(ctx, seat, params, payer: int):
    got = apply_authority_demand(ctx.state, payer, dict(params))
    ctx.emit("demand_collected", seat=seat, payer=payer, **got)


@steps("authority_action")
def authority_action(ctx, seat: int, optional: bool):
    """The Imperial Action, its choices `seat`'s (the First Regent's, or under Imperial
    Quorum the Regent with the most starports, who may also skip it)."""
    options = authority_action_options(box_for(ctx.state), ctx.state)
    actions = [Action("authority_action", {"take": True, **o}) for o in options]
    if optional:
        actions.insert(0, Action("authority_action", {"take": False}))
    ctx.ask(seat, "authority_action", actions, resume=authority_acted)


@steps("authority_acted")
def authority_acted(ctx, seat, params):
    if not params["take"]:
        ctx.emit("quorum_skipped", part="imperial_action", why="declined", seat=seat)
        return
    state = ctx.state
    done = apply_authority_action(box_for(state), state, {k: v for k, v in params.items() if k != "take"})
    ctx.emit("imperial_action", seat=seat, policy=authority_policy(state), **done)
    _imperial_ships_placed(state, done.get("placed", 0))


def authority_quorum(ctx) -> None:
    """Imperial Quorum over Govern with Authority: the First Regent collects its Demand, the
    Regent with the most starports may take its Imperial Action, the Regent with the most
    cities may put another of its cards on top (a tie skips either)."""
    from plugins.blighted_reach import edicts

    state = ctx.state
    plan = [(authority_demand, {"payer": p}) for p in authority_payers(state)]
    if edicts.govern_barred(state, state.first_regent, {"enforce": True}):
        plan = []  # collecting the War card's Demand enforces it: Oath of Peace (F1502)
    taker = most_built(state, "starport")
    if taker >= 0 and edicts.govern_barred(state, taker, {"enforce": True}):  # Oath of Peace (F1502)
        ctx.emit("quorum_skipped", part="imperial_action", why="nothing to do")
    elif taker >= 0:
        plan.append((authority_action, {"seat": taker, "optional": True}))
    else:
        ctx.emit("quorum_skipped", part="imperial_action", why="a tie")
    plan.append((authority_quorum_policy, {}))
    ctx.push_all(plan)


@steps("authority_quorum_policy")
def authority_quorum_policy(ctx):
    state = ctx.state
    changer, slot = most_built(state, "city"), authority_slot(state)
    if changer < 0 or slot is None:
        ctx.emit("quorum_skipped", part="policy", why="a tie")
        return
    from plugins.blighted_reach import edicts

    ctx.ask(changer, "quorum_policy",
            [Action("quorum_policy", {"change": ""})]
            + [Action("quorum_policy", {"change": c}) for c in state.booklet[slot][1:]
               if not edicts.govern_barred(state, changer, {"change": c})],  # Oath of Peace (F1502)
            resume=authority_quorum_changed)


@steps("authority_quorum_changed")
def authority_quorum_changed(ctx, seat, params):
    if params["change"]:
        change_authority(ctx.state, params["change"])
        ctx.emit("policy", seat=seat, outcome="change", why="imperial_quorum", policy=authority_policy(ctx.state))


def _register_authority() -> None:
    from plugins.blighted_reach import edicts

    edicts.GOVERN_HANDLERS.update({"govern_with_authority_war", "govern_with_authority_escalation",
                                   "govern_with_authority_peace"})


_register_authority()


# -- F122 Steward Act III Setup ---------------------------------------------------------------

GOVERN_THE_IMPERIAL_REACH = ("AID03", "AID04", "AID05")


@fates.handler("sponsored_token_on_first_regent_tile")
def sponsored_on_tile(ctx, seat: int, card_id: str, effect) -> None:
    ctx.state.sponsored = "tile"
    ctx.emit("sponsored_token", place="tile", why=card_id)


@fates.handler("scrap_govern_the_imperial_reach")
def scrap_govern(ctx, seat: int, card_id: str, effect) -> None:
    """The three Govern the Imperial Reach cards leave the booklet for good."""
    state = ctx.state
    gone = [c for slot in state.booklet for c in slot if c in GOVERN_THE_IMPERIAL_REACH]
    state.booklet = [[c for c in slot if c not in GOVERN_THE_IMPERIAL_REACH] for slot in state.booklet]
    state.booklet = [slot for slot in state.booklet if slot]
    state.scrapped.extend(c for c in gone if c not in state.scrapped)
    ctx.emit("booklet_scrapped", cards=gone, why=card_id)


@fates.handler("first_regent_picks_authority_policy")
def first_regent_picks(ctx, seat: int, card_id: str, effect) -> None:
    """The three Govern with Authority cards (each added to the booklet by the step before)
    become one stack; the First Regent picks the Policy on top.
    # Reading: with nobody First Regent the stack keeps the cards' printed order."""
    state = ctx.state
    cards = [c for slot in state.booklet for c in slot if c in AUTHORITY]
    if not cards:
        return
    first = min(i for i, slot in enumerate(state.booklet) if any(c in AUTHORITY for c in slot))
    state.booklet = [[c for c in slot if c not in AUTHORITY] for slot in state.booklet]
    state.booklet.insert(first, sorted(cards))
    state.booklet = [slot for slot in state.booklet if slot]
    if state.first_regent >= 0:
        ctx.ask(state.first_regent, "authority_policy",
                [Action("authority_policy", {"card": c}) for c in sorted(cards)], resume=authority_picked)


@steps("authority_picked")
def authority_picked(ctx, seat, params):
    change_authority(ctx.state, params["card"])
    ctx.emit("policy", seat=seat, outcome="chosen", policy=authority_policy(ctx.state))


# -- F123 Imperial Sponsor ---------------------------------------------------------------------


def undeclared(state: BlightedReachState) -> list[str]:
    return [a for a, markers in state.ambition_boxes.items() if not markers]


@fates.handler("imperial_sponsor")
def imperial_sponsor(ctx, seat: int, card_id: str, effect) -> None:
    """The First Regent places the Sponsored token on an undeclared ambition box (or keeps it
    where it stands), then may add one of its resources to the Trust."""
    state = ctx.state
    fr = state.first_regent
    if fr < 0 or not state.sponsored:
        ctx.emit("edict_lapsed", card=card_id, why="nobody holds the First Regent tile")
        return
    boxes = undeclared(state)  # where it stands already (undeclared, or it was claimed) it may stay
    if not boxes:
        ctx.emit("sponsor_lapsed", why="every ambition is declared")
    ctx.push(sponsor_trust, seat=fr)
    if boxes:
        ctx.ask(fr, "sponsor_ambition", [Action("sponsor_ambition", {"ambition": a}) for a in boxes],
                resume=sponsor_placed)


@steps("sponsor_placed")
def sponsor_placed(ctx, seat, params):
    ctx.state.sponsored = params["ambition"]
    ctx.emit("sponsored_token", place=params["ambition"], seat=seat)


@steps("sponsor_trust")
def sponsor_trust(ctx, seat: int):
    slots = [i for i, r in enumerate(ctx.state.players[seat].resources) if r is not None]
    if slots and ctx.state.first_regent == seat:
        ctx.ask(seat, "sponsor_trust", [Action("sponsor_trust", {"slot": -1})]
                + [Action("sponsor_trust", {"slot": i}) for i in slots], resume=sponsor_trusted)


@steps("sponsor_trusted")
def sponsor_trusted(ctx, seat, params):
    from plugins.blighted_reach.trust import add_to_trust

    if params["slot"] < 0:
        return
    player = ctx.state.players[seat]
    resource, player.resources[params["slot"]] = player.resources[params["slot"]], None
    add_to_trust(ctx.state, resource)
    ctx.emit("trust_added", seat=seat, resource=resource, why="imperial_sponsor")


def sponsored_declared(ctx, seat: int, ambition: str) -> None:
    """A declaration of the Sponsored ambition: the declarer takes a Trust resource (its
    choice of type), gains the second-place Power of the marker just placed, the token goes
    back to the First Regent tile and an Outlaw declarer becomes a Regent.
    # Reading: the First Regent declaring takes from its own Trust all the same (the card
    # says every declarer must); an empty Trust gives nothing."""
    from plugins.arcs.content import box_for as _box
    from plugins.arcs.scoring import marker_values
    from plugins.blighted_reach import empire

    state = ctx.state
    if not ambition or state.sponsored != ambition:
        return
    markers = state.ambition_boxes.get(ambition, [])
    power = marker_values(_box(state), markers[-1:])[1] if markers else 0
    state.players[seat].power += power
    state.sponsored = "tile"
    became = False
    if is_outlaw(state, seat):
        empire.become_regent(state, seat)
        became = True
    ctx.emit("sponsor_claimed", seat=seat, ambition=ambition, power=power, regent=became)
    ctx.push(sponsor_take, seat=seat)


@steps("sponsor_take")
def sponsor_take(ctx, seat: int):
    kinds = sorted(set(ctx.state.trust))
    if kinds:
        ctx.ask(seat, "sponsor_take", [Action("sponsor_take", {"resource": r}) for r in kinds],
                resume=sponsor_taken)


@steps("sponsor_taken")
def sponsor_taken(ctx, seat, params):
    from plugins.arcs.placing import receive
    from plugins.blighted_reach.trust import take_from_trust

    take_from_trust(ctx.state, params["resource"])
    receive(ctx.state, seat, params["resource"])
    ctx.emit("trust_taken", seat=seat, resource=params["resource"], why="imperial_sponsor")


@hookimpl
def arcs_declared_by_card(ctx, seat, ambition):
    """A card's declaration claims the Sponsored ambition as a lead card's does (the plugin's
    `arcs_declared` calls `sponsored_declared` for those)."""
    if isinstance(ctx.state, BlightedReachState):
        sponsored_declared(ctx, seat, ambition)


# -- F115 Navy Reprisal -----------------------------------------------------------------------


def hit_ships(fresh: int, damaged: int, hits: int) -> tuple[int, int, int]:
    """Hits on ships, fresh first (damaging), then damaged (destroying): (fresh, damaged,
    destroyed) after."""
    from plugins.blighted_reach.blight import hit_fresh_first

    fresh, damaged, destroyed, _ = hit_fresh_first(fresh, damaged, hits)
    return fresh, damaged, destroyed


def reprisal(state: BlightedReachState, systems) -> dict[str, dict[str, int]]:
    """Each Imperial ship in a system hits one ship of each Outlaw there, fresh ships first;
    destroyed ships go home (a Crisis takes no Trophy). Returns system -> seat -> destroyed."""
    from plugins.blighted_reach.board import outlaws

    out: dict[str, dict[str, int]] = {}
    for system in systems:
        hits = imperial_ships_total(state, system)
        if not hits or system not in state.systems:
            continue
        for seat in outlaws(state):
            ships = state.systems[system].ships_of(seat)
            if not ships.total:
                continue
            ships.fresh, ships.damaged, destroyed = hit_ships(ships.fresh, ships.damaged, hits)
            board.destroyed_ships_home(state, seat, destroyed)
            out.setdefault(system, {})[str(seat)] = destroyed
    return out


def imperial_ships_total(state: BlightedReachState, system: str) -> int:
    here = state.imperial.get(system)
    return here.total if here is not None else 0


def hit_imperial_ships(state: BlightedReachState, systems) -> dict[str, list[int]]:
    """One hit on every Imperial ship of these systems (destroyed ones to the supply)."""
    from plugins.blighted_reach.state import Pieces

    out = {}
    for system in systems:
        here = state.imperial.get(system)
        if here is None:
            continue
        fresh, damaged, destroyed = 0, here.fresh, here.damaged
        board.destroyed_ships_home(state, board.EMPIRE, destroyed)
        if fresh + damaged:
            state.imperial[system] = Pieces(fresh=fresh, damaged=damaged)
        else:
            del state.imperial[system]
        out[system] = [here.fresh, destroyed]
    return out


class Reprisal(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """When secured: in one cluster, the Crisis ("reprisal") or a hit on every Imperial ship
    ("hit_imperial"); `cluster` 0: neither."""

    cluster: int = 0
    what: str = ""


def _clusters(env: Env) -> list[int]:
    return sorted({env.box.cluster_of(s) for s in env.state.systems})


def reprisal_harmed(state: BlightedReachState, systems, what: str) -> dict[str, list]:
    """Whose pieces the card's choice would harm, for a price a Fate puts on harm
    (`HARM_PRICES`): the Outlaws' ships beside Imperial ships, or the Imperial ships."""
    from plugins.blighted_reach.board import outlaws

    out: dict[str, list] = {}
    for system in systems:
        if not imperial_ships_total(state, system) or system not in state.systems:
            continue
        if what == "hit_imperial":
            out[system] = ["empire"]
            continue
        seats = [s for s in outlaws(state) if state.systems[system].ships_of(s).total]
        if seats:
            out[system] = seats
    return out


def _reprisal_candidates(env: Env, u: Use) -> list[dict]:
    from plugins.blighted_reach.setup import cluster_systems

    return [{}] + [{"cluster": c, "what": w} for c in _clusters(env) for w in ("reprisal", "hit_imperial")
                   if not harm_refused(env.state, u.seat, reprisal_harmed(env.state, cluster_systems(env.box, c), w))]


@op("navy_reprisal_in_cluster", params=Reprisal, candidates=_reprisal_candidates)
def do_navy_reprisal(env: Env, u: Use, choice: Reprisal) -> None:
    from plugins.blighted_reach.setup import cluster_systems

    if not choice.cluster and not choice.what:
        return
    if choice.cluster not in _clusters(env) or choice.what not in ("reprisal", "hit_imperial"):
        raise BadParameter("choose a cluster in play and 'reprisal' or 'hit_imperial'")
    systems = cluster_systems(env.box, choice.cluster)
    pay_for_harm(env, u.seat, reprisal_harmed(env.state, systems, choice.what))
    if choice.what == "reprisal":
        env.emit("navy_reprisal", seat=u.seat, card=u.card, destroyed=reprisal(env.state, systems))
    else:
        env.emit("imperial_ships_hit", seat=u.seat, card=u.card, hits=hit_imperial_ships(env.state, systems))


def _navy_reprisal(call) -> dict:
    return {"event": "navy_reprisal", "card": call.card,
            "destroyed": reprisal(call.state, sorted(call.state.imperial))}


# -- F116 Council Insiders --------------------------------------------------------------------


class Insider(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    do: str = ""  # "flip" the Decided Council In Session, "influence" it In Session, "" neither


def _insider_candidates(env: Env, u: Use) -> list[dict]:
    state = env.state
    out = [{"do": ""}]
    if state.council == council.DECIDED and not council.is_tucked(state):
        out.append({"do": "flip"})
    elif council.IN_SESSION in influence_options(state, u.seat):
        out.append({"do": "influence"})
    return out


@op("council_insiders", params=Insider, candidates=_insider_candidates)
def do_council_insiders(env: Env, u: Use, choice: Insider) -> None:
    """After the holder secures a Guild card: the Council flipped In Session, or influenced
    if it is In Session already."""
    if choice not in [Insider(**c) for c in _insider_candidates(env, u)]:
        raise IllegalAction(f"{choice.do!r} is not open now")
    if choice.do == "flip":
        council.flip_council(env.state, council.IN_SESSION)
        env.emit("council_in_session", seat=u.seat, card=u.card)
    elif choice.do == "influence":
        council.influence(env.state, u.seat, council.IN_SESSION)
        env.emit("influenced", seat=u.seat, card=council.IN_SESSION, why=u.card)


def council_insiders_offer(ctx, seat: int, card: str) -> None:
    """After a secure (`arcs_court_secured`): a Guild card secured opens its securer's
    `secure_guild` abilities.
    # Reading: not the card just secured itself (it was not held when the secure was made)."""
    from plugins.arcs.abilities import held

    if not isinstance(ctx.state, BlightedReachState):
        return
    box = box_for(ctx.state)
    if card not in box.court or box.court[card].kind != "guild":
        return
    if any(u.card != card for u in held(ctx.state, box, seat, "secure_guild")):
        ctx.push(court_flow.offer, seat=seat, when="secure_guild", used=[[u.card, u.index] for u in
                                                                      held(ctx.state, box, seat, "secure_guild")
                                                                      if u.card == card])


def _register_act_three_crises() -> None:
    from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler

    FATE_CRISIS_HANDLERS["imperial_ships_hit_outlaws"] = CrisisHandler(apply=_navy_reprisal)


_register_act_three_crises()
