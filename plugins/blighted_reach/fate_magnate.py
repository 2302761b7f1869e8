"""FATE03, the Magnate (cards F301-F327): the rules its Fate Set's cards name.

Act I: Merchant League (F302) holds up to its declared resources off the resource row
(`state.card_resources`), frozen (BR-319) but counted for ambitions (BR-321) and given
only by Transfer Asset in Summits (`summits.TransferAsset` from a card); its Crisis empties
it. The objective (F301) counts, in Summit Negotiations, what Rivals give the Magnate and
the Magnate's exports of 3 resources (a Negotiation move of its own).
Resolutions: F303 / F321 bring Mining and Shipping Interest back from the Court discard.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from plugins.arcs import scoring
from plugins.arcs.abilities import Env, Use, op
from plugins.blighted_reach.rules_box import rules_box
from plugins.arcs.lore_ops import window
from plugins.arcs.scoring import ICONS
from plugins.blighted_reach import crises, fates, objectives, summits
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS
from plugins.blighted_reach.state import BlightedReachState

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


