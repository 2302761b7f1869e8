"""FATE03, the Magnate (cards F301-F327): the rules its Fate Set's cards name.

Act I: Merchant League (F302) holds its declared resources off the resource row
(`state.card_resources`), frozen (BR-319) but counted for ambitions (BR-321) and given
only by Transfer Asset in Summits (`summits.TransferAsset` from a card); its Crisis empties
it. The objective (F301) counts, in Summit Negotiations, what Rivals give the Magnate and
the Magnate's exports of 3 resources (a Negotiation move of its own).
Act II: the Monopolies (F313-F317) wait in the supply (`state.monopoly_supply`) until the
Gain Monopolies Edict (F318) hands them out; their supplies count for ambitions, and in
Summits their holders consent to the giving of their resource (F319). War Profiteering
(F320) makes Warlord count Weapon icons. The Cartels (F307-F311) and brokers (F304-F306)
play on the base ops.
Act III: Extortion (F323/F324), the Economy card and law (F326/F327) by the Magnate's
title, Prospectors (F322), and the objective's Monopoly scrap after scoring (F325).
Resolutions: F303 / F321 (the Interests back from the Court discard; the Cartels of the
scrapped Monopolies).

Where the base rules are pure and reached from many places (ambition counts, tax and build
checks), the rules plug in through small registries those modules keep
(`scoring.COUNT_EXTRAS`, `turn.TAX_CHECKS`, `actions.CITY_WITHOUT_PRESENCE`); the flow's
moments come through hooks (`arcs_summit_deal_done`, `arcs_tax_repeatable`,
`arcs_chapter_scored`).
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from core.state import Action
from plugins.arcs import scoring
from plugins.arcs.actions import CITY_WITHOUT_PRESENCE
from plugins.arcs.turn import TAX_CHECKS
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.blighted_reach.rules_box import rules_box
from plugins.arcs.lore_ops import window
from plugins.arcs.scoring import ICONS
from plugins.blighted_reach import crises, fates, objectives, summits
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.campaign import CARRIED_FIELDS
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

MAGNATE = "FATE03"
MERCHANT_LEAGUE = "F302"
GIFT, EXPORT = "summit_gift_received", "summit_discard_three"  # the Act I objective's two advances
EXPORTED = 3  # resources discarded per export


def is_campaign(state) -> bool:
    return isinstance(state, BlightedReachState)


def magnate_seat(state: BlightedReachState) -> int:
    return state.fates.index(MAGNATE) if MAGNATE in state.fates else -1


def _advance(box, state: BlightedReachState, per: str, count: int, seat: int) -> dict[int, int]:
    """An objective advance that happened during play (none while the markers are not out)."""
    if count <= 0 or seat >= len(state.objective_markers):
        return {}
    return objectives.advance_on_event(box, campaign_box(), state, per, count, seat=seat)


# -- resources on cards (F302; BR-319..BR-322) -------------------------------------------


def on_cards(state: BlightedReachState, seat: int) -> list[str]:
    """The resources on the seat's held cards (they are in its play area: BR-322)."""
    player = state.players[seat]
    return [r for c in (*player.guild, *player.lore) for r in state.card_resources.get(c, [])]


def _count_on_cards(box, state, seat: int, ambition: str) -> int:
    """BR-321: frozen resources still count toward ambitions."""
    if not is_campaign(state) or not state.card_resources:
        return 0
    kinds = ICONS.get(ambition, ())
    return sum(r in kinds for r in on_cards(state, seat))


scoring.COUNT_EXTRAS.append(_count_on_cards)


def return_to_supply(state: BlightedReachState, card: str) -> list[str]:
    """Every resource on the card back to the supply; returns them."""
    gone = state.card_resources.pop(card, [])
    for r in gone:
        state.supply[r] = state.supply.get(r, 0) + 1
    return gone


def settle_card_resources(state: BlightedReachState) -> dict[str, list[str]]:
    """Resources on a card nobody holds any more (Merchant League discarded by Fuel Outrage,
    or moved by a Resolution) go back to the supply. Reading: they were on the card only
    while its holder had it."""
    held = {c for p in state.players for c in (*p.guild, *p.lore)}
    return {c: return_to_supply(state, c) for c in list(state.card_resources) if c not in held}


def return_all_card_resources(state: BlightedReachState) -> None:
    """Intermission C (BR-337): every frozen resource goes back, Merchant League's too."""
    for card in list(state.card_resources):
        return_to_supply(state, card)


INTERMISSION_HOOKS["clear_pieces"].append(return_all_card_resources)


class FrozenGain(msgspec.Struct, forbid_unknown_fields=True):
    resources: list[str]


def _window_open(env: Env, u: Use) -> bool:
    w = window(env.state, u.seat, u.ability.when)
    return w is not None and f"{u.card}:{u.index}" in w["open"]


def _gain_size(env: Env) -> int:
    """2, or what the supply still holds (G-3: as many as there are)."""
    return min(2, sum(env.state.supply.get(r, 0) for r in env.box.board.resources))


def _frozen_gain_options(env: Env, u: Use) -> list[dict]:
    supply = env.state.supply
    kinds = [r for r in env.box.board.resources if supply.get(r, 0) > 0]
    n = _gain_size(env)
    return [{"resources": list(c)} for c in combinations_with_replacement(kinds, n)
            if all(c.count(r) <= supply.get(r, 0) for r in c)]


def _check_frozen_gain(env: Env, choice: FrozenGain) -> None:
    n = _gain_size(env)
    if len(choice.resources) != n:
        raise BadParameter(f"Merchant League takes {n} resource(s), not {len(choice.resources)}")
    for r in set(choice.resources):
        if r not in env.box.board.resources:
            raise BadParameter(f"{r!r} is not a resource")
        if choice.resources.count(r) > env.state.supply.get(r, 0):
            raise IllegalAction(f"the supply holds only {env.state.supply.get(r, 0)} {r}")


@op("gain_two_frozen_resources", params=FrozenGain, candidates=_frozen_gain_options,
    usable=lambda env, u: is_campaign(env.state) and _window_open(env, u) and _gain_size(env) > 0)
def gain_two_frozen(env: Env, u: Use, choice: FrozenGain) -> None:
    """Merchant League (F302): on declaring an ambition, the holder may put any 2 resources
    from the supply onto the card (frozen there: BR-319). Declining is not using it.
    Reading: 2 exactly, or as many as the whole supply still holds."""
    _check_frozen_gain(env, choice)
    window(env.state, u.seat, u.ability.when)["open"].remove(f"{u.card}:{u.index}")
    for r in choice.resources:
        env.state.supply[r] -= 1
    env.state.card_resources.setdefault(u.card, []).extend(choice.resources)
    env.emit("resources_on_card", seat=u.seat, card=u.card, resources=list(choice.resources))


def _discard_league(call: crises.CrisisCall) -> dict:
    """Merchant League's Crisis: every resource on it back to the supply."""
    gone = return_to_supply(call.state, call.card)
    return {"event": "card_resources_discarded", "seat": call.holder, "card": call.card, "resources": gone}


crises.FATE_CRISIS_HANDLERS["discard_merchant_league"] = crises.CrisisHandler(apply=_discard_league)


# -- the Act I objective in Summits (F301) -----------------------------------------------


def _summit_key(state: BlightedReachState) -> str:
    """One Summit at most is held per round's end, so the round names it."""
    return f"summit:{state.act}:{state.chapter}:{state.round}"


def _ledger(state: BlightedReachState) -> list[str]:
    """What the Magnate gave in the Summit being held (a new Summit starts an empty one)."""
    key = _summit_key(state)
    if state.summit_gifts[:1] != [key]:
        state.summit_gifts = [key]
    return state.summit_gifts


def _gift_key(part: dict, rival: int) -> str | None:
    """What a part hands its receiver, as the ledger names it: a resource by type, a Favor
    by its owner; None for anything else (and for a Favor returned home to its owner)."""
    if part["kind"] == "promise_favor":
        return f"favor:{rival}:{part['giver']}"
    if part["kind"] != "transfer_asset":
        return None
    if part["asset"] == "resource":
        return f"resource:{rival}:{part['resource']}"
    if part["asset"] == "favor" and not part.get("returned_home"):
        return f"favor:{rival}:{part['owner']}"
    return None


def gifts_received(state: BlightedReachState, seat: int, parts: list[dict]) -> int:
    """F301 "Close Deals": the Favors and resources Rivals gave `seat` in this deal, less any
    the seat gave that Rival earlier in this Summit (each such gift excuses one return).
    Reading: a gift is named by its kind and type (a resource's type, a Favor's owner), as
    tokens of a type are alike; the seat's own gifts in the same deal are recorded first,
    so a swap back within one deal does not count."""
    ledger = _ledger(state)
    for part in parts:
        if part["giver"] == seat:
            key = _gift_key(part, part["receiver"])
            if key is not None:
                ledger.append(key)
    count = 0
    for part in parts:
        if part["receiver"] != seat or part["giver"] == seat:
            continue
        key = _gift_key(part, part["giver"])
        if key is None:
            continue
        if key in ledger[1:]:
            ledger.remove(key)
        else:
            count += 1
    return count


def deal_done(ctx, proposal, parts: list[dict]) -> None:
    """`arcs_summit_deal_done`: the Magnate's objective advances 2 per gift received."""
    state = ctx.state
    seat = magnate_seat(state)
    if seat < 0 or state.summit_stage != "negotiations":
        return
    got = gifts_received(state, seat, parts)
    moved = _advance(rules_box(), state, GIFT, got, seat)
    if got:
        ctx.emit("objective_advanced", seat=seat, why=GIFT, times=got, moved=moved.get(seat, 0))


def _exports(cbox, state: BlightedReachState, seat: int) -> bool:
    objective = objectives.current_objective(cbox, state, seat)
    return objective is not None and any(a.per == EXPORT for a in objective.advances)


def options_export(box, cbox, state: BlightedReachState, seat: int) -> list[dict]:
    """F301 "Export": the seat whose objective counts it may discard any 3 resources from
    its resource row (frozen ones cannot be discarded: BR-319). One option per distinct set
    of types, leftmost slots first."""
    if not _exports(cbox, state, seat):
        return []
    row = state.players[seat].resources
    seen, out = set(), []
    for slots in combinations([i for i, r in enumerate(row) if r is not None], EXPORTED):
        kinds = tuple(sorted(row[i] for i in slots))
        if kinds not in seen:
            seen.add(kinds)
            out.append({"slots": list(slots)})
    return out


def check_export(box, cbox, state: BlightedReachState, seat: int, choice: dict) -> None:
    if not _exports(cbox, state, seat):
        raise IllegalAction("only the Magnate exports resources in Negotiations")
    if set(choice) != {"slots"} or not isinstance(choice["slots"], list):
        raise BadParameter("an export names the 3 resource slots it discards: {'slots': [...]}")
    slots, row = choice["slots"], state.players[seat].resources
    if len(slots) != EXPORTED or len(set(slots)) != EXPORTED:
        raise BadParameter(f"an export discards {EXPORTED} different resources")
    for i in slots:
        if not isinstance(i, int) or not 0 <= i < len(row) or row[i] is None:
            raise BadParameter(f"there is no resource in slot {i} to discard")


def export(ctx, seat: int, choice: dict) -> None:
    """Discard the 3 resources to the supply; the objective advances 2."""
    state = ctx.state
    row = state.players[seat].resources
    gone = []
    for i in choice["slots"]:
        gone.append(row[i])
        state.supply[row[i]] = state.supply.get(row[i], 0) + 1
        row[i] = None
    moved = _advance(rules_box(), state, EXPORT, 1, seat)
    ctx.emit("exported", seat=seat, resources=gone, moved=moved.get(seat, 0))


summits.FATE_NEGOTIATIONS["export"] = summits.FateNegotiation(options=options_export, check=check_export,
                                                              apply=export)


# -- Resolutions (F303, F321) -------------------------------------------------------------


@fates.handler("return_from_court_discard")
def return_from_court_discard(ctx, seat: int, card_id: str, effect) -> None:
    """F303 / F321 success: the named Court cards (Mining and Shipping Interest) that lie in
    the Court discard pile go back into the Court deck (shuffled in); others stay put."""
    state = ctx.state
    back = [c for c in effect.cards if c in state.court_discard]
    for c in back:
        state.court_discard.remove(c)
        state.court_deck.append(c)
    if back:
        chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("court_cards_returned", seat=seat, cards=back, why=card_id)




# -- Act II: the Monopolies (F312-F320) ---------------------------------------------------

MONOPOLY_GAINED, MONOPOLY_HELD = "monopoly_gained", "monopoly_held"  # the Act II objective's advances
WAR_PROFITEERING = "war_profiteering"
standing("monopoly_consent", WAR_PROFITEERING, "monopoly_consent_in_summits")
CARRIED_FIELDS.extend(["monopoly_supply", "scrapped_resources"])  # Monopolies unheld stay in the supply


def is_monopoly(card: str) -> bool:
    found = campaign_box().fate_cards.get(card)
    return found is not None and found.kind == "monopoly"


def monopoly_resource(card: str) -> str:
    """The resource whose supply the Monopoly holds (its `hold_supply`)."""
    return next(e.resource for e in campaign_box().fate_cards[card].abilities if e.do == "hold_supply")


def monopolies_of(state: BlightedReachState, seat: int) -> list[str]:
    area = state.play_area[seat] if seat < len(state.play_area) else []
    return [c for c in area if is_monopoly(c)]


def monopoly_holder(state: BlightedReachState, resource: str) -> int:
    """The seat holding the Monopoly of `resource`, -1 when nobody does."""
    for seat in range(len(state.players)):
        if any(monopoly_resource(c) == resource for c in monopolies_of(state, seat)):
            return seat
    return -1


def all_monopolies() -> list[str]:
    return [c.id for c in campaign_box().fates[MAGNATE].cards if c.kind == "monopoly"]


def war_profiteering(cbox, state: BlightedReachState) -> bool:
    """F320 in the rules booklet: Warlord counts Trophies and Weapon icons."""
    return any(cbox.fate_cards.get(c) is not None and any(e.handler == WAR_PROFITEERING
                                                           for e in cbox.fate_cards[c].abilities)
               for slot in state.booklet for c in slot)


def counted_resources(state: BlightedReachState, seat: int) -> list[str]:
    """BR-322: the resources a seat has, wherever in its play area: its row, on its cards,
    and the Imperial Trust for the First Regent (the supply on a Monopoly is the supply)."""
    row = [r for r in state.players[seat].resources if r is not None]
    trust = list(state.trust) if seat == state.first_regent >= 0 else []
    return row + on_cards(state, seat) + trust


def weapon_icons(state: BlightedReachState, seat: int) -> int:
    """War Profiteering's Weapon icons: Weapon resources the seat has and its Weapon cards."""
    box = rules_box()
    cards = sum(box.court[c].suit == "weapon" for c in state.players[seat].guild if c in box.court)
    return counted_resources(state, seat).count("weapon") + cards


def _holds_supply_of(state: BlightedReachState, seat: int) -> list[str]:
    """The resources whose supply the seat holds: its Monopolies' and its Guild cards'
    (the Cartels)."""
    box = rules_box()
    out = [monopoly_resource(c) for c in monopolies_of(state, seat)]
    out += [a.resource for c in state.players[seat].guild if c in box.court
            for a in box.court[c].abilities if a.do == "hold_supply"]
    return out


def _count_monopolies_and_war(box, state, seat: int, ambition: str) -> int:
    """The Monopolies' supplies count toward their ambitions (F313-F317), the Weapon supply
    on a Weapon Cartel or Monopoly toward Warlord (F309, F317; the base count leaves Warlord
    to Trophies), and with War Profiteering (F320) the Weapon icons too. The base rules
    already count a Guild card's supply toward the resource ambitions (ARCS-315)."""
    if not is_campaign(state):
        return 0
    extra = 0
    kinds = ICONS.get(ambition, ())
    for r in (monopoly_resource(c) for c in monopolies_of(state, seat)):
        if r in kinds:
            extra += state.supply.get(r, 0)
    if ambition == "warlord":
        if "weapon" in _holds_supply_of(state, seat):
            extra += state.supply.get("weapon", 0)
        if war_profiteering(campaign_box(), state):
            extra += weapon_icons(state, seat)
    return extra


scoring.COUNT_EXTRAS.append(_count_monopolies_and_war)
objectives.COUNT_RULES[MONOPOLY_HELD] = lambda box, cbox, state, seat, score, ambition: len(monopolies_of(state, seat))


@fates.handler("monopolies_to_supply")
def monopolies_to_supply(ctx, seat: int, card_id: str, effect) -> None:
    """F312: the five Monopoly cards go to the general supply (each holding its resource's
    supply: the supply is where it always was)."""
    state = ctx.state
    for card in effect.cards:
        if lift(state, card) and card not in state.monopoly_supply:
            state.monopoly_supply.append(card)
    ctx.emit("monopolies_in_supply", cards=list(state.monopoly_supply), why=card_id)


@fates.handler("war_profiteer_on_warlord")
def war_profiteer_marker(ctx, seat: int, card_id: str, effect) -> None:
    """F312 / F325: the War Profiteer marker on the Warlord box reminds everyone of War
    Profiteering (F320); the rule itself is read from the booklet (`war_profiteering`)."""
    ctx.emit("war_profiteer_marker", ambition="warlord", why=card_id)


def in_play(state: BlightedReachState, resource: str) -> int:
    """The resources of a type in play: the box's, less those on 2-player ambition boxes
    and those scrapped (F318's note)."""
    boxed = sum(tokens.count(resource) for tokens in state.ambition_tokens.values())
    return rules_box().board.supply_per_resource - boxed - state.scrapped_resources.count(resource)


def monopoly_claims(state: BlightedReachState) -> dict[str, int]:
    """F318 Gain Monopolies: for each Monopoly in play, the seat having more than half of its
    type's resources in play (BR-322 counting), if any. At most one seat can."""
    out = {}
    for card in all_monopolies():
        if card in state.scrapped:
            continue
        r = monopoly_resource(card)
        total = in_play(state, r)
        for seat in range(len(state.players)):
            if 2 * counted_resources(state, seat).count(r) > total:
                out[card] = seat
    return out


@fates.handler("gain_monopolies")
def gain_monopolies(ctx, seat: int, card_id: str, effect) -> None:
    """F318 (an Edict): each Monopoly goes to the seat with more than half of its type, from
    the supply or from a Rival; one taken from the supply advances the Act II objective 1.
    Reading: a Monopoly nobody has and no player qualifies for stays where it is."""
    state = ctx.state
    for card, taker in monopoly_claims(state).items():
        if card in monopolies_of(state, taker):
            continue
        from_supply = card in state.monopoly_supply
        if from_supply:
            state.monopoly_supply.remove(card)
        else:
            lift(state, card)
        state.play_area[taker].append(card)
        ctx.emit("monopoly_gained", seat=taker, card=card, from_supply=from_supply)
        if from_supply:
            _advance(rules_box(), state, MONOPOLY_GAINED, 1, taker)


def _given_resource(state: BlightedReachState, part) -> str:
    if not isinstance(part, summits.TransferAsset) or part.asset != "resource":
        return ""
    if part.source == "board":
        row = state.players[part.giver].resources
        return row[part.slot] if 0 <= part.slot < len(row) and row[part.slot] else ""
    return part.resource


def _monopoly_consents(cbox, state: BlightedReachState, proposal) -> set[int]:
    """F313-F317 (and F319): giving a resource by Transfer Asset needs the consent of whoever
    holds its Monopoly."""
    holders = {monopoly_holder(state, _given_resource(state, p)) for p in proposal.parts if _given_resource(state, p)}
    return holders - {-1}


def _monopoly_force_cost(box, cbox, state: BlightedReachState, caller: int, part) -> dict[int, int]:
    """F319: forcing a resource's giving in the Call to Order forces its Monopoly holder's
    consent too, for 1 of their Favors. Reading: as for the Advocate's (F414), no price when
    the holder is the caller or the forced Rival; without Monopoly Consent in the booklet the
    holder's consent cannot be forced."""
    resource = _given_resource(state, part)
    holder = monopoly_holder(state, resource) if resource else -1
    if holder < 0 or holder in (caller, part.giver):
        return {}
    if not any(e.handler == "monopoly_consent_in_summits" for slot in state.booklet for c in slot
               if c in cbox.fate_cards for e in cbox.fate_cards[c].abilities):
        raise summits.NotTradeable(f"{seat_name(holder)} holds the {resource} Monopoly: their consent is needed")
    return {holder: 1}


summits.CONSENT_RULES.append(_monopoly_consents)
summits.FORCE_COSTS.append(_monopoly_force_cost)


# -- the Act II Resolution (F321) ---------------------------------------------------------


@fates.handler("scrap_unheld_monopolies")
def scrap_unheld_monopolies(ctx, seat: int, card_id: str, effect) -> None:
    """F321 failure: every Monopoly no player has is scrapped (those in the supply)."""
    state = ctx.state
    held = {c for s in range(len(state.players)) for c in monopolies_of(state, s)}
    gone = [c for c in effect.cards if c not in held and c not in state.scrapped]
    for card in gone:
        if card in state.monopoly_supply:
            state.monopoly_supply.remove(card)
        lift(state, card)
        state.scrapped.append(card)
    ctx.emit("cards_scrapped", cards=gone, why=card_id)


@fates.handler("cartels_of_scrapped_monopolies_to_court")
def cartels_to_court(ctx, seat: int, card_id: str, effect) -> None:
    """F321 failure: the Cartel of each scrapped Monopoly's resource joins the Court deck;
    the other Cartels are scrapped (both lifted from wherever they are)."""
    state = ctx.state
    box = rules_box()
    scrapped = {monopoly_resource(c) for c in all_monopolies() if c in state.scrapped}
    joined = [c for c in effect.cards if box.court[c].suit in scrapped and lift(state, c)]
    rest = [c for c in effect.cards if c not in joined and lift(state, c)]
    state.court_deck.extend(joined)
    if joined:
        chance.shuffle(ctx, state.court_deck, "court deck")
    state.scrapped.extend(c for c in rest if c not in state.scrapped)
    ctx.emit("cartels_resolved", to_court=joined, scrapped=rest, why=card_id)


# -- Act III: Extortion (F323, F324) -------------------------------------------------------


def _extortion_targets(state: BlightedReachState) -> dict[str, list[int]]:
    """For each resource type, the seats with the most of it (ties all), counting what they
    have (BR-322); nobody when nobody has any."""
    out = {}
    for r in rules_box().board.resources:
        counts = {s: counted_resources(state, s).count(r) for s in range(len(state.players))}
        best = max(counts.values(), default=0)
        if best > 0:
            out[r] = [s for s, n in counts.items() if n == best]
    return out


def _extort(call: crises.CrisisCall) -> dict:
    """Extortion's Crisis: for each type, the player(s) with the most discard 1 of it.
    Reading: a frozen resource cannot be discarded (BR-319), so the token comes off the
    resource row; a leader holding that type only frozen discards nothing of it."""
    state = call.state
    discarded: dict[str, list[int]] = {}
    for r, seats in _extortion_targets(state).items():
        for s in seats:
            row = state.players[s].resources
            if r in row:
                row[row.index(r)] = None
                state.supply[r] = state.supply.get(r, 0) + 1
                discarded.setdefault(r, []).append(s)
    return {"event": "extortion", "card": call.card, "discarded": discarded}


crises.FATE_CRISIS_HANDLERS["most_of_each_resource_discards"] = crises.CrisisHandler(apply=_extort)


class Theft(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One resource of a Rival's: from resource slot `slot`, or a frozen one (`source`
    "card" with its `card`, or "imperial_trust") of type `resource` (BR-320)."""

    rival: int
    slot: int = -1
    source: str = "board"
    card: str = ""
    resource: str = ""


def _theft_options(env: Env, u: Use) -> list[dict]:
    from plugins.arcs.outrage import guarded
    from plugins.blighted_reach import trust

    state, out = env.state, []
    for r in range(len(state.players)):
        if r == u.seat or guarded(env.box, state, r):
            continue
        out += [{"rival": r, "slot": i} for i, x in enumerate(state.players[r].resources) if x is not None]
        out += [{"rival": r, "source": "card", "card": c, "resource": x}
                for c in state.players[r].guild for x in sorted(set(state.card_resources.get(c, [])))]
        if r == state.first_regent:
            out += [{"rival": r, "source": "imperial_trust", "resource": o["resource"]}
                    for o in trust.trust_theft_options(state, u.seat)]
    return out


@op("steal_any_resource", params=Theft, candidates=_theft_options,
    usable=lambda env, u: is_campaign(env.state) and bool(_theft_options(env, u)))
def extortion_steals(env: Env, u: Use, choice: Theft) -> None:
    """Extortion when secured: steal 1 resource from a Rival, a frozen one included (BR-320:
    from Merchant League or the First Regent's Trust); Sworn Guardians protect their holder."""
    from plugins.arcs.placing import receive
    from plugins.blighted_reach import trust

    state = env.state
    if msgspec.to_builtins(choice) not in _theft_options(env, u):
        raise IllegalAction(f"{seat_name(choice.rival)} has no such resource for {u.card} to steal")
    if choice.source == "imperial_trust":
        trust.steal_from_trust(state, u.seat, choice.resource)
        taken = choice.resource
    elif choice.source == "card":
        state.card_resources[choice.card].remove(choice.resource)
        if not state.card_resources[choice.card]:
            del state.card_resources[choice.card]
        receive(state, u.seat, choice.resource)
        taken = choice.resource
    else:
        row = state.players[choice.rival].resources
        taken, row[choice.slot] = row[choice.slot], None
        receive(state, u.seat, taken)
    env.emit("resource_stolen", seat=u.seat, card=u.card, rival=choice.rival, resource=taken, count=1)


# -- Act III: the setup, the Economy (F325-F327) and the objective -----------------------------

ECONOMY = "F326"


@fates.handler("economy_card_by_title")
def economy_card(ctx, seat: int, card_id: str, effect) -> None:
    """F325: the Economy card is tucked by the map, showing Closed Economy while the Magnate
    is a Regent and Open Economy while an Outlaw. Reading: it is kept with the Magnate's
    play area, and its side is read from the Magnate's title whenever a rule asks, so it
    flips by itself when the title does."""
    state = ctx.state
    for card in effect.cards:
        if lift(state, card):
            state.play_area[seat].append(card)
    ctx.emit("economy", seat=seat, side=economy_side(state), why=card_id)


def economy_side(state: BlightedReachState) -> str:
    """"closed" (the Magnate a Regent), "open" (an Outlaw), "" while the card is not in play."""
    seat = magnate_seat(state)
    if seat < 0 or ECONOMY not in (state.play_area[seat] if seat < len(state.play_area) else []):
        return ""
    return "closed" if state.titles[seat] == "regent" else "open"


objectives.GOAL_RULES["has_a_monopoly"] = lambda box, cbox, state, seat: len(monopolies_of(state, seat)) >= 1
objectives.GOAL_RULES["has_two_monopolies"] = lambda box, cbox, state, seat: len(monopolies_of(state, seat)) >= 2


def after_scoring_scrap(state: BlightedReachState) -> int:
    """F325's Act III objective: after each chapter's scoring the Magnate holding a Monopoly
    must scrap one. Returns the seat that must choose, -1 for nobody."""
    seat = magnate_seat(state)
    cbox = campaign_box()
    if seat < 0 or state.act != 3 or not monopolies_of(state, seat):
        return -1
    card = fates.objective_card(cbox, MAGNATE, state.act)
    if not any(e.handler == "scrap_a_monopoly_and_its_resources" for e in card.abilities):
        return -1
    return seat


def options_scrap_monopoly(state: BlightedReachState, seat: int) -> list[dict]:
    return [{"card": c} for c in monopolies_of(state, seat)]


def scrap_monopoly(state: BlightedReachState, seat: int, card: str) -> list[str]:
    """Scrap the Monopoly and every resource of its type the seat has, wherever in its play
    area (its row, on its cards, the Trust it holds): out of play for the campaign."""
    if card not in monopolies_of(state, seat):
        raise BadParameter(f"{seat_name(seat)} holds no Monopoly {card!r}")
    r = monopoly_resource(card)
    state.play_area[seat].remove(card)
    state.scrapped.append(card)
    gone = []
    row = state.players[seat].resources
    for i, x in enumerate(row):
        if x == r:
            row[i] = None
            gone.append(r)
    for c in [c for c in (*state.players[seat].guild, *state.players[seat].lore) if c in state.card_resources]:
        while r in state.card_resources[c]:
            state.card_resources[c].remove(r)
            gone.append(r)
        if not state.card_resources[c]:
            del state.card_resources[c]
    if seat == state.first_regent:
        while r in state.trust:
            state.trust.remove(r)
            gone.append(r)
    state.scrapped_resources.extend(gone)
    return gone


def chapter_scored(ctx) -> None:
    """`arcs_chapter_scored` (after the grand ambitions are scored): the Magnate's scrap."""
    seat = after_scoring_scrap(ctx.state)
    if seat >= 0:
        options = options_scrap_monopoly(ctx.state, seat)
        ctx.ask(seat, "scrap_monopoly", [Action("scrap_monopoly", o) for o in options], resume=monopoly_scrapped)


@steps("magnate_monopoly_scrapped")
def monopoly_scrapped(ctx, seat, params):
    gone = scrap_monopoly(ctx.state, seat, params["card"])
    ctx.emit("monopoly_scrapped", seat=seat, card=params["card"], resources=gone)


def _city_types(box, state: BlightedReachState, system: str) -> list[str]:
    from plugins.arcs.lore_ops import city_types

    planet = rules_box().systems.get(system)
    return [planet.type] if planet is not None else city_types(state, rules_box(), system)


def check_closed_economy(box, state, seat: int, system: str, building: int) -> None:
    """F326/F327 Closed Economy (the Magnate a Regent): another Regent taxes no city of an
    Empire-controlled system, their own included, without the Monopoly of its type."""
    from plugins.blighted_reach import board

    if not is_campaign(state) or economy_side(state) != "closed" or seat == magnate_seat(state):
        return
    if not board.is_regent(state, seat) or not board.empire_controls(state, system):
        return
    held = {monopoly_resource(c) for c in monopolies_of(state, seat)}
    if not held & set(_city_types(box, state, system)):
        raise IllegalAction(f"Closed Economy: taxing an Empire-controlled city in {system} needs its Monopoly")


def tax_repeatable(state, seat: int, system: str, building: int) -> bool:
    """F326/F327 Open Economy (the Magnate an Outlaw): Loyal cities may be taxed more than
    once a turn; the Magnate may tax Rival and Free cities more than once too. Reading: the
    city taxed under Open Economy is not recorded as taxed this turn."""
    if not is_campaign(state) or economy_side(state) != "open":
        return False
    here = state.systems.get(system)
    if here is None or not 0 <= building < len(here.buildings):
        return False
    return here.buildings[building].owner == seat or seat == magnate_seat(state)


TAX_CHECKS.append(check_closed_economy)
standing("closed_economy", "open_economy", "economy_law")


# -- Act III: Prospectors (F322) -------------------------------------------------------------


def prospects(box, state, seat: int, system: str) -> bool:
    """F322: its holder builds a city at any planet, no Loyal piece needed, unless they hold
    the Monopoly of the planet's type. The slots still limit it (ARCS-029)."""
    if not is_campaign(state) or not any(a.do == "prospectors" for c in state.players[seat].guild
                                         if c in rules_box().court for a in rules_box().court[c].abilities):
        return False
    planet = rules_box().systems.get(system)
    return planet is not None and planet.type not in {monopoly_resource(c) for c in monopolies_of(state, seat)}


CITY_WITHOUT_PRESENCE.append(prospects)
standing("prospectors")
