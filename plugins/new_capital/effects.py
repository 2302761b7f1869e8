"""Effects: the declarative vocabulary of cards, leaders, crises, factions and tracks.

Every effect runs as a step (`effect`) so that one which needs a choice stops, opens a
prompt, and resumes later from data. `source` says where an effect comes from: modules
may block effects (Guildmasters) but never crisis rewards or track bonuses (FAQ).
"""
from __future__ import annotations

from functools import lru_cache

import msgspec

from core import chance
from core.flow import Ctx, StepTable
from core.seats import seat_name
from core.state import Action
from plugins.new_capital import province as pv
from plugins.new_capital.content import CARD_KINDS, LEADER_TYPES, STRUCTURE_TYPES, TRACKS, Effect, Pack, pack_for
from plugins.new_capital.state import BOARD_ACTIONS, Column, HonoraryEntry, Player

steps = StepTable("nc")
UNBLOCKABLE = ("reward", "track")


def pack(ctx_or_state) -> Pack:
    state = getattr(ctx_or_state, "state", ctx_or_state)
    return pack_for(state.pack)


def player(ctx: Ctx, seat: int) -> Player:
    return ctx.state.players[seat]


def A(type: str, **params) -> Action:
    return Action(type=type, params=params)


_EFFECT_CACHE: dict[int, list[dict]] = {}


def as_data(effects: list[Effect]) -> list[dict]:
    """Effects as plain data for step arguments (cached: content objects live for the process)."""
    key = id(effects)
    data = _EFFECT_CACHE.get(key)
    if data is None:
        data = _EFFECT_CACHE[key] = [msgspec.to_builtins(e) for e in effects]
    return data


def push_effects(ctx: Ctx, seat: int, effects, source: str) -> None:
    """Schedule effects to resolve left to right, before anything already pending."""
    if effects and isinstance(effects[0], Effect):
        effects = as_data(effects)
    ctx.push_all((effect, {"seat": seat, "effect": e, "source": source}) for e in effects)


# -- moving cards --------------------------------------------------------------------
def draw(ctx: Ctx, seat: int, n: int) -> int:
    """Draw up to n cards, shuffling the discard pile into an empty deck (QNC-064, G-3)."""
    p = player(ctx, seat)
    drawn = []
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break
            p.deck, p.discard = p.discard, []
            chance.shuffle(ctx, p.deck, f"{seat_name(seat)}'s deck")
            ctx.emit("reshuffle", seat=seat, cards=len(p.deck))
        drawn.append(p.deck.pop())
    p.hand.extend(drawn)
    ctx.emit("draw", to=[seat], public={"seat": seat, "count": len(drawn)}, seat=seat, cards=drawn)
    return len(drawn)


def refill(ctx: Ctx, row_key: str) -> None:
    """Top a common pool back up to 3 from its deck, reshuffling its discards (QNC-245)."""
    row = ctx.state.rows[row_key]
    while len(row.pool) < 3:
        if not row.deck:
            if not row.discard:
                return
            row.deck, row.discard = row.discard, []
            chance.shuffle(ctx, row.deck, f"{row_key} row")
            ctx.emit("row_reshuffle", row=row_key, cards=len(row.deck))
        row.pool.append(row.deck.pop())
    ctx.emit("row", row=row_key, pool=list(row.pool))


def take_from_pool(ctx: Ctx, row_key: str, card: str) -> None:
    ctx.state.rows[row_key].pool.remove(card)
    refill(ctx, row_key)


# -- diplomacy, seals, honorary ----------------------------------------------------------
def move_cube(ctx: Ctx, seat: int, track: int, direction: int) -> None:
    """Move a diplomacy cube one space; reaching a Favored space locks it and scores a seal."""
    pk, p = pack(ctx), player(ctx, seat)
    if pv.locked(pk, p, track):
        return  # QNC-166/167: a locked cube never moves
    p.diplomacy[track] += direction
    ctx.emit("diplomacy", seat=seat, track=track, position=p.diplomacy[track])
    if pv.locked(pk, p, track):
        faction = next(f.id for f in pk.board.factions if f.track == track and f.end * pk.board.favored_at == p.diplomacy[track])
        ctx.emit("favored", seat=seat, faction=faction)
        ctx.push(seal, seat=seat, reason="favored")  # QNC-165: a seal at once


def move_toward(ctx: Ctx, seat: int, faction: str) -> None:
    """A card of `faction` entered the province (QNC-163)."""
    f = pack(ctx).faction(faction)
    move_cube(ctx, seat, f.track, f.end)


@steps("seal")
def seal(ctx: Ctx, seat: int, reason: str) -> None:
    """Move a seal from reserve to a slot of the player's choice (QNC-185); none left: nothing (G-3)."""
    p = player(ctx, seat)
    if p.seals_reserve <= 0:
        ctx.emit("no_seal_left", seat=seat, reason=reason)
        return
    empty = [i for i, filled in enumerate(p.seal_slots) if not filled]
    ctx.ask(seat, "seal_slot", [A("seal_slot", slot=i) for i in empty], seal_slot, reason=reason)


@steps("seal_slot")
def seal_slot(ctx: Ctx, seat: int, params: dict, reason: str) -> None:
    p, pk = player(ctx, seat), pack(ctx)
    slot = params["slot"]
    p.seal_slots[slot] = True
    p.seals_reserve -= 1
    alert = pk.board.seal_slots[slot]
    ctx.emit("seal", seat=seat, slot=slot, reason=reason, alert=alert)
    if alert:  # QNC-184/186: covering an Alert symbol triggers the scenario's Alert
        push_effects(ctx, seat, pk.scenario(ctx.state.scenario).alert, "alert")


def check_honorary(ctx: Ctx, seat: int) -> None:
    """Place the Honorary Seal when the objective is first met (QNC-187..191)."""
    state, pk, p = ctx.state, pack(ctx), player(ctx, seat)
    if p.honorary or p.seals_reserve <= 0 or not pv.honorary_met(state, pk, p):
        return
    p.honorary = True
    p.seals_reserve -= 1
    chart = state.honorary_chart
    if chart and chart[-1].round == state.round and chart[-1].phase == state.phase:
        chart[-1].seats.append(seat)  # QNC-191: same phase, same slot
    else:
        chart.append(HonoraryEntry(seats=[seat], round=state.round, phase=state.phase))
    ctx.emit("honorary_seal", seat=seat, position=len(chart))


# -- the effect dispatcher -----------------------------------------------------------------
def modifiers(ctx: Ctx, kind: str) -> list[tuple[str, dict]]:
    """The modifiers of `kind` in force (content.Modifier as data), from every module."""
    return [(mid, m) for found in ctx.hook.new_capital_modifiers(state=ctx.state) for mid, m in found
            if m["kind"] == kind]


@steps("effect")
def effect(ctx: Ctx, seat: int, effect: dict, source: str) -> None:
    blocked_ops = {m["match"] for _, m in modifiers(ctx, "block_effect")} if source not in UNBLOCKABLE else ()
    if source not in UNBLOCKABLE and (effect["op"] in blocked_ops or any(
        ctx.hook.new_capital_effect_blocked(state=ctx.state, seat=seat, effect=effect, source=source)
    )):
        ctx.emit("effect_blocked", seat=seat, effect=effect, source=source)
        return
    OPS[effect["op"]](ctx, seat, effect, source)


def _attr(ctx, seat, e, source):
    if e.get("track", "") == "any":
        ctx.ask(seat, "attr_track", [A("attr_track", track=t) for t in TRACKS], attr_track, n=e.get("n", 1))
    else:
        gain_attr(ctx, seat, e["track"], e.get("n", 1))


@steps("attr_track")
def attr_track(ctx, seat, params, n):
    gain_attr(ctx, seat, params["track"], n)


def gain_attr(ctx: Ctx, seat: int, track: str, n: int) -> None:
    """Move the track token up, never past the 5th space (QNC-050, QNC-178, QNC-183)."""
    p = player(ctx, seat)
    top = pack(ctx).board.track_max
    before = p.tracks[track]
    p.tracks[track] = min(top, before + n)
    ctx.emit("attribute", seat=seat, track=track, gained=p.tracks[track] - before, position=p.tracks[track])


def _reserve(ctx, seat, e, source):
    p = player(ctx, seat)
    p.reserve_power += e.get("power", 0)
    p.reserve_control += e.get("control", 0)
    ctx.emit("reserve", seat=seat, power=p.reserve_power, control=p.reserve_control)
    check_honorary(ctx, seat)


def _upgrade(ctx, seat, e, source):
    """Gain an Upgrade token and place it at once (QNC-088); no valid column: discard it (QNC-093)."""
    p = player(ctx, seat)
    targets = pv.upgrade_targets(ctx.state, pack(ctx), p)
    if not targets:
        ctx.emit("upgrade_discarded", seat=seat)
        return
    ctx.ask(seat, "upgrade_column", [A("upgrade_column", column=i) for i in targets], upgrade_column)


@steps("upgrade_column")
def upgrade_column(ctx, seat, params):
    p, pk = player(ctx, seat), pack(ctx)
    col = p.columns[params["column"]]
    col.upgrades += 1
    ctx.emit("upgrade_token", seat=seat, column=params["column"], tokens=col.upgrades)
    if col.upgrades == 2:  # QNC-089: two tokens are exchanged at once
        top = pk.structures[col.structures[-1]]
        matches = pv.upgrade_matches(ctx.state, pk, top)
        ctx.ask(seat, "upgrade_card", [A("upgrade_card", column=params["column"], card=c) for c in matches],
                upgrade_card)


@steps("upgrade_card")
def upgrade_card(ctx, seat, params):
    p, pk = player(ctx, seat), pack(ctx)
    col, card = p.columns[params["column"]], params["card"]
    tier = pk.structures[card].tier
    take_from_pool(ctx, f"t{tier}", card)
    col.structures.append(card)
    col.upgrades = 0  # QNC-096: both tokens return to the supply
    ctx.emit("upgraded", seat=seat, column=params["column"], card=card)
    move_toward(ctx, seat, pk.structures[card].faction)
    check_honorary(ctx, seat)


def _extra_action(ctx, seat, e, source):
    p = player(ctx, seat)
    p.extra_actions += e.get("n", 1)
    ctx.emit("extra_action", seat=seat, tokens=p.extra_actions)


def _hunger(ctx, seat, e, source):
    """A Hunger card on top of the discard pile (QNC-193); an empty deck gives Rebellion (QNC-200)."""
    state = ctx.state
    if not state.hunger_deck:
        ctx.emit("hunger_deck_empty", seat=seat)
        _rebellion(ctx, seat, e, source)
        return
    card = state.hunger_deck.pop(0)
    player(ctx, seat).discard.append(card)
    ctx.emit("hunger", seat=seat, card=card)


def _rebellion(ctx, seat, e, source):
    """Place on a column with the fewest tokens, player's choice (QNC-123..125)."""
    p = player(ctx, seat)
    least = min(c.rebellion for c in p.columns)
    options = [A("rebellion_column", column=i) for i, c in enumerate(p.columns) if c.rebellion == least]
    ctx.ask(seat, "rebellion_column", options, rebellion_column)


@steps("rebellion_column")
def rebellion_column(ctx, seat, params):
    col = player(ctx, seat).columns[params["column"]]
    col.rebellion += 1
    ctx.emit("rebellion", seat=seat, column=params["column"], tokens=col.rebellion)


def _remove_rebellion(ctx, seat, e, source):
    p = player(ctx, seat)
    options = [A("unrest_column", column=i) for i, c in enumerate(p.columns) if c.rebellion]
    if options:
        ctx.ask(seat, "unrest_column", options, unrest_column)


@steps("unrest_column")
def unrest_column(ctx, seat, params):
    col = player(ctx, seat).columns[params["column"]]
    col.rebellion -= 1
    ctx.emit("rebellion_removed", seat=seat, column=params["column"], tokens=col.rebellion)


def _draw(ctx, seat, e, source):
    draw(ctx, seat, e.get("n", 1))


def _burn(ctx, seat, e, source):
    """Burn a hand card or the top discard (QNC-077); Hunger never (QNC-194)."""
    options = [A("burn", zone=z, card=c) for z, c in pv.burnable(pack(ctx), player(ctx, seat))]
    if options:
        ctx.ask(seat, "burn", options, burn)


@steps("burn")
def burn(ctx, seat, params):
    p = player(ctx, seat)
    zone = p.hand if params["zone"] == "hand" else p.discard
    zone.remove(params["card"])
    p.burned.append(params["card"])
    ctx.emit("burn", seat=seat, card=params["card"], zone=params["zone"])


def _feather(ctx, seat, e, source):
    """One more board action now, not the one the cube covers (QNC-160)."""
    p = player(ctx, seat)
    options = [o for o in board_options(ctx, seat) if o.params["action"] != p.board_cube]
    if options:
        ctx.prompt(seat, "feather", options + [A("decline")], feather)


@steps("feather")
def feather(ctx, seat, params):
    if "action" in params:
        do_board_action(ctx, seat, params, move_cube=False)


def _diplomacy(ctx, seat, e, source):
    options = diplomacy_options(ctx, seat)
    if options:
        ctx.ask(seat, "diplomacy", options, diplomacy)


def diplomacy_options(ctx, seat) -> list[Action]:
    pk, p = pack(ctx), player(ctx, seat)
    return [A("diplomacy", track=t, direction=d) for t in (0, 1) if not pv.locked(pk, p, t) for d in (-1, 1)]


@steps("diplomacy")
def diplomacy(ctx, seat, params):
    move_cube(ctx, seat, params["track"], params["direction"])


def _research(ctx, seat, e, source):
    pool = ctx.state.rows["adv"].pool
    if pool:
        ctx.ask(seat, "research", [A("research", card=c) for c in pool], research)


@steps("research")
def research(ctx, seat, params):
    """The Advanced card goes on top of the deck (QNC-136, QNC-148)."""
    take_from_pool(ctx, "adv", params["card"])
    player(ctx, seat).deck.append(params["card"])
    ctx.emit("research", seat=seat, card=params["card"])


def _recruit(ctx, seat, e, source):
    cards = list(ctx.state.rows["leaders"].pool)
    for extra in ctx.hook.new_capital_recruit_options(state=ctx.state, seat=seat):
        cards.extend(extra)
    if cards:
        ctx.ask(seat, "recruit", [A("recruit", card=c) for c in cards], recruit)


@steps("recruit")
def recruit(ctx, seat, params):
    p = player(ctx, seat)
    options = [A("leader_slot", card=params["card"], column=ci, slot=si)
               for ci in range(len(p.columns)) for si in (0, 1)]
    ctx.ask(seat, "leader_slot", options, leader_slot)


@steps("leader_slot")
def leader_slot(ctx, seat, params):
    """Place a leader; on an occupied slot the old one is flipped or moved, without cascade (QNC-104..107)."""
    p = player(ctx, seat)
    old = p.columns[params["column"]].slots[params["slot"]].leader
    if old is None:
        ctx.push(place_leader, seat=seat, card=params["card"], column=params["column"], slot=params["slot"])
        return
    options = [A("displace", to="flip")]
    options += [A("displace", to=f"{ci}:{si}") for ci, col in enumerate(p.columns)
                for si, s in enumerate(col.slots) if s.leader is None and (ci, si) != (params["column"], params["slot"])]
    ctx.ask(seat, "displace", options, displace, card=params["card"], column=params["column"], slot=params["slot"])


@steps("displace")
def displace(ctx, seat, params, card, column, slot):
    p = player(ctx, seat)
    s = p.columns[column].slots[slot]
    old, s.leader = s.leader, None
    if params["to"] == "flip":
        s.flipped.append(old)  # QNC-105: face down, no ability; still a card in the province
        ctx.emit("leader_flipped", seat=seat, card=old, column=column, slot=slot)
    else:
        ci, si = (int(x) for x in params["to"].split(":"))
        p.columns[ci].slots[si].leader = old  # QNC-109: moving never gives an alignment bonus
        ctx.emit("leader_moved", seat=seat, card=old, column=ci, slot=si)
    ctx.push(place_leader, seat=seat, card=card, column=column, slot=slot)


@steps("place_leader")
def place_leader(ctx, seat, card, column, slot):
    state, pk, p = ctx.state, pack(ctx), player(ctx, seat)
    if card in state.rows["leaders"].pool:
        take_from_pool(ctx, "leaders", card)
    else:
        ctx.hook.new_capital_leader_taken(ctx=ctx, seat=seat, card=card)
    col = p.columns[column]
    col.slots[slot].leader = card
    leader = pk.leaders[card]
    ctx.emit("recruit", seat=seat, card=card, column=column, slot=slot)
    ctx.push(after_recruit, seat=seat, card=card, column=column, slot=slot)
    # QNC-108: alignment bonus once, when first placed under a same-faction top structure;
    # heroes never give one (they show the hero icon instead).
    if not leader.hero and pk.structures[col.structures[-1]].faction == leader.faction:
        ctx.emit("alignment_bonus", seat=seat, card=card)
        push_effects(ctx, seat, leader.alignment, "alignment")
    move_toward(ctx, seat, leader.faction)


@steps("after_recruit")
def after_recruit(ctx, seat, card, column, slot):
    check_honorary(ctx, seat)
    ctx.hook.new_capital_leader_recruited(ctx=ctx, seat=seat, leader=card, column=column, slot=slot)


def _build(ctx, seat, e, source):
    p = player(ctx, seat)
    options = []
    if len(p.columns) < 4:  # QNC-080/140
        options = [A("build", card=c) for c in ctx.state.rows["t1"].pool]
    options.append(A("build", card="upgrade"))
    ctx.ask(seat, "build", options, build)


@steps("build")
def build(ctx, seat, params):
    if params["card"] == "upgrade":
        _upgrade(ctx, seat, {}, "card")
        return
    pk, p = pack(ctx), player(ctx, seat)
    card = params["card"]
    take_from_pool(ctx, "t1", card)
    p.columns.append(Column(structures=[card]))
    ctx.emit("build", seat=seat, card=card, column=len(p.columns) - 1)
    move_toward(ctx, seat, pk.structures[card].faction)
    _hunger(ctx, seat, {}, "build")  # QNC-099: a new column brings Hunger


def _administrate(ctx, seat, e, source):
    """Remove a Rebellion token or move a diplomacy cube one space (QNC-141/142)."""
    p = player(ctx, seat)
    options = [A("administrate", column=i) for i, c in enumerate(p.columns) if c.rebellion]
    options += [A("administrate", track=o.params["track"], direction=o.params["direction"])
                for o in diplomacy_options(ctx, seat)]
    if options:
        ctx.ask(seat, "administrate", options, administrate)


@steps("administrate")
def administrate(ctx, seat, params):
    if "column" in params:
        unrest_column(ctx, seat, params)
    else:
        move_cube(ctx, seat, params["track"], params["direction"])


def _scout(ctx, seat, e, source):
    ctx.ask(seat, "scout", scout_options(ctx), scout)


def _resupply(ctx, seat, e, source):
    draw(ctx, seat, 2)  # QNC-153


def _choice(ctx, seat, e, source):
    """Connecting symbol: any linked action may be taken instead of the others (QNC-250)."""
    ctx.ask(seat, "choice", [A("choice", option=i) for i in range(len(e["options"]))], choice,
            branches=e["options"], source=source)


@steps("choice")
def choice(ctx, seat, params, branches, source):
    push_effects(ctx, seat, branches[params["option"]], source)


OPS = {
    "attr": _attr, "reserve": _reserve, "upgrade": _upgrade, "extra_action": _extra_action,
    "hunger": _hunger, "rebellion": _rebellion, "remove_rebellion": _remove_rebellion,
    "draw": _draw, "burn": _burn, "feather": _feather, "diplomacy": _diplomacy,
    "research": _research, "recruit": _recruit, "build": _build, "administrate": _administrate,
    "scout": _scout, "resupply": _resupply, "choice": _choice,
}


# -- Scout ---------------------------------------------------------------------------
def scout_matches(pk: Pack, row: str, card: str, match: str) -> bool:
    """'colour (type)' is the structure type, action kind or leader type; or a faction (QNC-157)."""
    if row == "adv":
        return pk.actions[card].kind == match
    if row == "leaders":
        ld = pk.leaders[card]
        return match in (ld.type, ld.faction)
    st = pk.structures[card]
    return match in (st.type, st.faction)


def scout_options(ctx) -> list[Action]:
    return list(_scouts("scout", tuple(f.id for f in pack(ctx).board.factions)))


@lru_cache(maxsize=16)
def _scouts(kind: str, factions: tuple[str, ...]) -> tuple[Action, ...]:
    """Every Scout a pack's factions allow, as `scout` answers or as `board` actions: the
    same for every turn of a table, so built once (actions are immutable)."""
    extra = {"action": "scout"} if kind == "board" else {}
    out = []
    for row in ("t1", "t2", "t3"):
        out += [A(kind, **extra, row=row, match=m) for m in (*STRUCTURE_TYPES, *factions)]
    out += [A(kind, **extra, row="adv", match=m) for m in CARD_KINDS]
    out += [A(kind, **extra, row="leaders", match=m) for m in (*LEADER_TYPES, *factions)]
    return tuple(out)


@steps("scout")
def scout(ctx, seat, params):
    """Discard the row and redeal until a match shows, or none can (QNC-155..157, ruling QNC-R4)."""
    pk, row_key, match = pack(ctx), params["row"], params["match"]
    row = ctx.state.rows[row_key]
    for _ in range(200):
        row.discard.extend(row.pool)
        row.pool = []
        refill(ctx, row_key)
        if any(scout_matches(pk, row_key, c, match) for c in row.pool):
            break
        if not any(scout_matches(pk, row_key, c, match) for c in row.deck + row.discard):
            break  # QNC-R4: no card of that kind can come up any more
    ctx.emit("scout", seat=seat, row=row_key, match=match, pool=list(row.pool))


# -- board actions -------------------------------------------------------------------------
def board_options(ctx, seat) -> list[Action]:
    """Every board action available to `seat` now, ignoring the once-per-round cube."""
    pk, p = pack(ctx), player(ctx, seat)
    blocked = {m["match"] for _, m in modifiers(ctx, "block_board")}
    return [o for o in _board_options(ctx, pk, p) if o.params["action"] not in blocked]


def _board_options(ctx, pk, p) -> list[Action]:
    out = []
    if p.deck or p.discard:
        out.append(A("board", action="resupply"))
    out += _scouts("board", tuple(f.id for f in pk.board.factions))
    for f in pv.favored_factions(pk, p):
        out.append(A("board", action="faction", faction=f))
    if pv.in_diplomacy(p):
        out.append(A("board", action="faction", faction="diplomacy"))
    out += [A("board", action="support", card=c) for c in p.hand if c in pk.hunger]
    return out


def do_board_action(ctx, seat, params, move_cube: bool) -> None:
    """Resolve a free board action. Board actions never trigger leaders (QNC-161)."""
    pk, p, action = pack(ctx), player(ctx, seat), params["action"]
    assert action in BOARD_ACTIONS
    if move_cube:
        p.board_cube = action  # QNC-151
    ctx.emit("board_action", seat=seat, action=action, **{k: v for k, v in params.items() if k != "action"})
    if action == "resupply":
        draw(ctx, seat, 2)
    elif action == "scout":
        scout(ctx, seat, {"row": params["row"], "match": params["match"]})
    elif action == "faction":
        effects = pk.board.diplomacy_action if params["faction"] == "diplomacy" else pk.faction(params["faction"]).action
        push_effects(ctx, seat, effects, "faction")
    elif action == "support":
        card = params["card"]
        p.hand.remove(card)
        ctx.state.hunger_deck.append(card)  # QNC-196 reading: back to the Hunger deck (bottom)
        ctx.emit("support", seat=seat, card=card)
        push_effects(ctx, seat, pk.hunger[card].support, "support")
