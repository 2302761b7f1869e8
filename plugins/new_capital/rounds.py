"""Setup and the round: the 20 steps of the Round Anatomy, each a step of the flow.

The round is declared once, as data (`PHASES`, at the end, through `core.phases`): its phases
and their steps in order. A phase's steps are all pending from its start; each does its part
and returns, none names the step after it, and the kernel enters and leaves each phase."""
from __future__ import annotations

from core import chance
from core.flow import Ctx
from core.phases import Phase, Phases, start_phase
from core.seats import seat_name
from core.turn_order import next_around, next_in, next_lap
from plugins.new_capital import province as pv
from plugins.new_capital.content import TRACKS
from plugins.new_capital.effects import (
    A, as_data, board_options, burn, check_honorary, do_board_action, draw, effect, gain_attr, modifiers, pack,
    player, push_effects, refill, scout, scout_options, seal, steps,
)
from plugins.new_capital.scoring import final_result
from plugins.new_capital.state import Column, NewCapitalState, Player, Row

COLORS = ("red", "blue", "green", "yellow")
CARDS_PER_ROUND = 4   # QNC-067
DRAW_PER_ROUND = 6    # QNC-063


# -- setup (Board Setup 1-9, Players Setup 10-13, Asymmetry Draft 14-15) ---------------------
def setup(ctx: Ctx) -> None:
    state: NewCapitalState = ctx.state
    pk = pack(ctx)
    structures = [s for s in pk.structures.values() if not s.draft]
    for tier in (1, 2, 3):  # QNC-016/017: one deck and one pool per tier
        deck = sorted(s.id for s in structures if s.tier == tier)
        chance.shuffle(ctx, deck, f"tier {tier} structures")
        state.rows[f"t{tier}"] = Row(deck=deck)
        refill(ctx, f"t{tier}")
    for level in range(1, 7):  # QNC-018/019: one card per level, level 1 on top
        cards = sorted(c.id for c in pk.crises.values() if c.level == level)
        chosen = chance.pick(ctx, cards, f"level {level} crisis", to=[])  # face down until its turn
        state.crisis_deck.append(chosen)
        state.box.extend(c for c in cards if c != chosen)
    state.crisis = state.crisis_deck.pop(0)  # QNC-020
    ctx.emit("crisis", card=state.crisis, level=1)
    adv = sorted(a.id for a in pk.actions.values() if not a.basic)
    chance.shuffle(ctx, adv, "advanced actions")
    state.rows["adv"] = Row(deck=adv)
    refill(ctx, "adv")  # QNC-021
    leaders = sorted(l.id for l in pk.leaders.values() if not l.draft and not l.hero)
    chance.shuffle(ctx, leaders, "leaders")
    state.rows["leaders"] = Row(deck=leaders)
    refill(ctx, "leaders")  # QNC-022
    state.hunger_deck = sorted(pk.hunger)
    chance.shuffle(ctx, state.hunger_deck, "hunger deck")

    draft_structures = sorted(s.id for s in pk.structures.values() if s.draft)
    draft_leaders = sorted(l.id for l in pk.leaders.values() if l.draft)
    chance.shuffle(ctx, draft_structures, "draft structures")
    chance.shuffle(ctx, draft_leaders, "draft leaders")
    for seat in range(len(state.seats)):
        deck = [f"{seat}:{c}" for c in pk.board.starting_deck]  # QNC-028
        chance.shuffle(ctx, deck, f"{seat_name(seat)}'s starting deck")
        p = Player(
            seat=seat, color=COLORS[seat], deck=deck,
            tracks={t: 0 for t in TRACKS}, seal_slots=[False] * len(pk.board.seal_slots),
        )
        state.players.append(p)
    state.first = chance.pick(ctx, list(range(len(state.seats))), "first player")  # QNC-029
    for p in state.players:  # QNC-031/032: a draft structure opens column 1 and moves a cube
        card = draft_structures.pop()
        p.columns.append(Column(structures=[card]))
        f = pk.faction(pk.structures[card].faction)
        p.diplomacy[f.track] += f.end
        p.draft_offer = [draft_leaders.pop(), draft_leaders.pop()]
    state.box.extend(draft_structures)  # QNC-033
    state.box.extend(draft_leaders)
    state.box.extend(sorted(l.id for l in pk.leaders.values() if l.hero))  # module cards stay boxed
    ctx.emit("setup", first=state.first, scenario=state.scenario,
             columns={p.seat: p.columns[0].structures[0] for p in state.players})
    ctx.call(start_phase, name="development")  # round 1 waits for the draft
    for p in state.players:  # QNC-034: choose 1 of 2 draft leaders (simultaneous, secret)
        ctx.prompt(p.seat, "draft_leader", [A("draft_leader", card=c) for c in p.draft_offer], draft_leader)


@steps("draft_leader")
def draft_leader(ctx, seat, params):
    """The kept leader goes under the draft structure: no cube move, no alignment (QNC-035)."""
    p = player(ctx, seat)
    p.columns[0].slots[0].leader = params["card"]
    ctx.state.box.extend(c for c in p.draft_offer if c != params["card"])
    p.draft_offer = []
    ctx.emit("draft_leader", to=[seat], public={"seat": seat}, seat=seat, card=params["card"])
    if not any(q.draft_offer for q in ctx.state.players):
        ctx.emit("draft_done", leaders={q.seat: q.columns[0].slots[0].leader for q in ctx.state.players})


# -- Development phase (steps 1-6) -------------------------------------------------------
@steps("round_start")
def round_start(ctx: Ctx) -> None:
    """A new round, counted before its Development is entered (the phase event names it)."""
    state = ctx.state
    state.round += 1
    state.die = 1
    state.revealed = False
    state.firsts = {}
    for p in state.players:
        p.played = 0


@steps("draw_hands")
def draw_hands(ctx: Ctx) -> None:
    state = ctx.state
    state.step = "draw"
    for seat in pv.turn_order(state):  # step 1
        draw(ctx, seat, DRAW_PER_ROUND)


@steps("after_draw")
def after_draw(ctx: Ctx) -> None:
    ctx.hook.new_capital_after_development_draw(ctx=ctx)  # step 2 (modules)


@steps("turn")
def turn(ctx: Ctx, after: int | None = None, lap: int = 0) -> None:
    """Regular turns: the seats in turn order, four times round, one card each time (step 3,
    QNC-065/067). `after` has just taken its turn of lap `lap`."""
    state = ctx.state
    up = next_lap(pv.turn_order(state), after, lap, CARDS_PER_ROUND)
    if up is None:
        state.extra_out = []  # the Extra Action round starts with nobody out
        return
    state.step = "play"
    seat, lap = up
    offer_turn(ctx, seat, regular=True, lap=lap)


def offer_turn(ctx: Ctx, seat: int, regular: bool, lap: int = 0) -> None:
    """One turn: an optional board action first (QNC-150), then exactly one card. A regular
    turn (of lap `lap`) is followed by the next regular one, an Extra Action by the next
    Extra Action."""
    pk, p = pack(ctx), player(ctx, seat)
    options = [A("play", card=c) for c in pv.playable(pk, p)]
    if p.board_cube == "top":
        options += board_options(ctx, seat)
    if not pv.playable(pk, p):
        options.append(A("skip"))  # QNC-201: no playable card, the play is skipped
    ctx.prompt(seat, "turn", options, on_turn, regular=regular, lap=lap)


@steps("on_turn")
def on_turn(ctx: Ctx, seat: int, params: dict, regular: bool, lap: int) -> None:
    state = ctx.state
    if "action" in params:  # a board action, then the same turn continues
        ctx.push(reoffer, seat=seat, regular=regular, lap=lap)
        do_board_action(ctx, seat, params, move_cube=True)
        return
    if regular:
        ctx.push(turn, after=seat, lap=lap)
    else:
        ctx.push(extra, after=seat)
    if "card" not in params:
        ctx.emit("skip", seat=seat)
        return
    p = player(ctx, seat)
    if regular:
        p.played += 1
        if seat == state.first:
            state.die = p.played  # QNC-078: the die counts the first player's turns
    play_card(ctx, seat, params["card"])


@steps("reoffer")
def reoffer(ctx, seat, regular, lap):
    offer_turn(ctx, seat, regular, lap)


def play_card(ctx: Ctx, seat: int, card: str) -> None:
    """Green cards resolve face up; red/blue go face down until the Crisis phase (QNC-070/071)."""
    pk, p = pack(ctx), player(ctx, seat)
    data = pk.action(card)
    p.hand.remove(card)
    ctx.push(first_play, seat=seat, card=card)
    ctx.push(dev_leaders, seat=seat, card=card)
    if data.kind == "improvement":
        p.resolving.append(card)
        ctx.emit("play", seat=seat, card=card, face_up=True)
        ctx.push(discard_played, seat=seat, card=card)
        if data.bonus:
            ctx.push(card_bonus, seat=seat, card=card)
        push_effects(ctx, seat, data.effects, "card")  # QNC-074: the top row always applies
    else:
        # Face down: no effect now; its own effects resolve when revealed (crisis_start).
        p.face_down.append(card)
        ctx.emit("play", to=[seat], public={"seat": seat, "face_up": False}, seat=seat, card=card, face_up=False)


@steps("card_bonus")
def card_bonus(ctx, seat, card):
    """QNC-074: the lower row applies only when its condition holds."""
    pk = pack(ctx)
    bonus = pk.action(card).bonus
    if pv.holds(bonus.when, ctx.state, pk, player(ctx, seat)):
        ctx.emit("card_bonus", seat=seat, card=card)
        push_effects(ctx, seat, bonus.effects, "card")


@steps("discard_played")
def discard_played(ctx, seat, card):
    p = player(ctx, seat)
    p.resolving.remove(card)
    p.discard.append(card)


@steps("dev_leaders")
def dev_leaders(ctx, seat, card):
    """Development leaders fire on the owner's card plays only (QNC-102, QNC-161)."""
    pk = pack(ctx)
    data = pk.action(card)
    for lid in reversed(pv.province_leaders(player(ctx, seat))):
        ab = pk.leaders[lid].ability
        if ab.trigger == "play" and ab.match in (data.name, data.kind):
            ctx.push(leader_fires, seat=seat, leader=lid)


@steps("first_play")
def first_play(ctx, seat, card):
    """`first_play` modifiers: each player's first matching card of the round (QNC-214)."""
    data = pack(ctx).action(card)
    for mid, m in modifiers(ctx, "first_play"):
        used = ctx.state.firsts.setdefault(mid, [])
        if m["match"] in (data.name, data.kind) and seat not in used:
            used.append(seat)
            ctx.emit("modifier", seat=seat, modifier=mid, kind="first_play")
            push_effects(ctx, seat, m.get("effects", []), "modifier")


@steps("leader_fires")
def leader_fires(ctx, seat, leader):
    ctx.emit("leader", seat=seat, card=leader)
    push_effects(ctx, seat, pack(ctx).leaders[leader].ability.effects, "leader")


@steps("extra")
def extra(ctx: Ctx, after: int | None = None) -> None:
    """Step 4: Extra Action tokens, one at a time round the table in turn order, until every
    seat passed or has no token or card left (QNC-146). `after` has just had its chance."""
    state = ctx.state
    order = pv.turn_order(state)
    pk = pack(ctx)
    able = [s for s in order if s not in state.extra_out and player(ctx, s).extra_actions > 0
            and pv.playable(pk, player(ctx, s))]
    seat = next_around(order, after, able)
    if seat is None:
        return
    state.step = "extra_actions"
    ctx.prompt(seat, "extra_action", [A("extra_action", use=True), A("extra_action", use=False)], use_extra)


@steps("use_extra")
def use_extra(ctx, seat, params):
    state = ctx.state
    p = player(ctx, seat)
    if params.get("use"):
        p.extra_actions -= 1
        ctx.emit("extra_action_used", seat=seat, tokens=p.extra_actions)
        offer_turn(ctx, seat, regular=False)  # QNC-147
    else:
        state.extra_out.append(seat)  # QNC-146: a seat that passes is out for the round
        ctx.push(extra, after=seat)


@steps("burn_step")
def burn_step(ctx: Ctx, after: int | None = None) -> None:
    """Step 5: in turn order, each player may burn one card, never Hunger (QNC-068/076/259)."""
    state = ctx.state
    seat = next_in(pv.turn_order(state), after)
    if seat is None:
        return
    state.step = "burn"
    options = [A("burn", zone=z, card=c) for z, c in pv.burnable(pack(ctx), player(ctx, seat))]
    ctx.push(burn_step, after=seat)
    if options:
        ctx.prompt(seat, "end_burn", options + [A("no_burn")], end_burn)


@steps("end_burn")
def end_burn(ctx, seat, params):
    if params:
        burn(ctx, seat, params)


@steps("discard_hands")
def discard_hands(ctx: Ctx) -> None:
    """Step 6: every card left in hand is discarded (QNC-069/260)."""
    for p in ctx.state.players:
        p.discard.extend(p.hand)
        p.hand = []
    ctx.emit("hands_discarded")


# -- Crisis phase (steps 7-12) -------------------------------------------------------------
@steps("crisis_start")
def crisis_start(ctx: Ctx) -> None:
    """Step 7: every face-down card is revealed (QNC-111); their own effects resolve now."""
    state = ctx.state
    pk = pack(ctx)
    state.step = "reveal"
    state.revealed = True
    ctx.emit("reveal", cards={p.seat: list(p.face_down) for p in state.players}, crisis=state.crisis)
    steps_ = []
    for seat in pv.turn_order(state):
        for card in player(ctx, seat).face_down:
            data = pk.action(card)
            if data.effects:
                steps_ += [(effect, {"seat": seat, "effect": e, "source": "card"}) for e in as_data(data.effects)]
            if data.bonus:
                steps_.append((card_bonus, {"seat": seat, "card": card}))
    ctx.push_all(steps_)


@steps("bid")
def bid(ctx: Ctx, after: int | None = None) -> None:
    """Step 8: in turn order each player bids power and control together (QNC-131/132)."""
    state = ctx.state
    seat = next_in(pv.turn_order(state), after)
    if seat is None:
        return
    state.step = "reserve_bids"
    p = player(ctx, seat)
    ctx.push(bid, after=seat)
    if p.reserve_control:
        ctx.push(bid_control_ask, seat=seat)
    if p.reserve_power:
        ctx.prompt(seat, "bid_power", [A("bid_power", n=n) for n in range(p.reserve_power + 1)], bid_power)


@steps("bid_power")
def bid_power(ctx, seat, params):
    p = player(ctx, seat)
    p.bid_power = params["n"]
    p.reserve_power -= params["n"]  # QNC-133: bid tokens are spent
    ctx.emit("bid", seat=seat, power=params["n"])


@steps("bid_control_ask")
def bid_control_ask(ctx, seat):
    p = player(ctx, seat)
    ctx.prompt(seat, "bid_control", [A("bid_control", n=n) for n in range(p.reserve_control + 1)], bid_control)


@steps("bid_control")
def bid_control(ctx, seat, params):
    p = player(ctx, seat)
    p.bid_control = params["n"]
    p.reserve_control -= params["n"]
    ctx.emit("bid", seat=seat, control=params["n"])


@steps("bribes")
def bribes(ctx: Ctx, after: int | None = None) -> None:
    """Each revealed Bribe protects its owner from one penalty of their choice (QNC-144)."""
    state = ctx.state
    seat = next_in(pv.turn_order(state), after)
    if seat is None:
        return
    pk = pack(ctx)
    ctx.push(bribes, after=seat)
    for card in player(ctx, seat).face_down:
        if pk.action(card).bribe:
            ctx.push(bribe_ask, seat=seat)


@steps("bribe_ask")
def bribe_ask(ctx, seat):
    ctx.prompt(seat, "bribe", [A("bribe", crisis="warfare"), A("bribe", crisis="political")], bribe)


@steps("bribe")
def bribe(ctx, seat, params):
    player(ctx, seat).bribes.append(params["crisis"])
    ctx.emit("bribe", seat=seat, crisis=params["crisis"])


def crisis_totals(ctx: Ctx, kind: str) -> dict[int, int]:
    """Card power (or control) + reserve bid + crisis leaders (QNC-113/114)."""
    pk = pack(ctx)
    totals = {}
    for p in ctx.state.players:
        cards = sum((pk.action(c).power if kind == "warfare" else pk.action(c).control) for c in p.face_down)
        bid_ = p.bid_power if kind == "warfare" else p.bid_control
        lead = sum(pk.leaders[l].ability.add for l in pv.province_leaders(p)
                   if pk.leaders[l].ability.trigger == "crisis_total" and pk.leaders[l].ability.match == kind)
        totals[p.seat] = cards + bid_ + lead + crisis_modifier(ctx, "crisis_add", kind)
    return totals


def crisis_modifier(ctx: Ctx, kind_of_modifier: str, crisis: str) -> int:
    """Sum of `crisis_need` deltas or `crisis_add` additions in force for this crisis."""
    field = "delta" if kind_of_modifier == "crisis_need" else "add"
    return sum(m.get(field, 0) for _, m in modifiers(ctx, kind_of_modifier) if m.get("crisis") in (crisis, "any"))


def challenge_value(ch, players: int) -> int:
    """Group challenges read the value for the player count; solo faces the 2-player value."""
    if ch.mode == "individual":
        return ch.value
    return ch.values[str(max(2, players))]


@steps("check")
def check(ctx: Ctx, kind: str) -> None:
    """Steps 9/10: check one crisis, then penalties and rewards in turn order (QNC-112..122)."""
    state = ctx.state
    pk = pack(ctx)
    state.step = f"{kind}_crisis"
    ch = getattr(pk.crises[state.crisis], kind)
    totals = crisis_totals(ctx, kind)
    need = max(1, challenge_value(ch, len(state.players)) + crisis_modifier(ctx, "crisis_need", kind))
    order = pv.turn_order(state)
    solo = len(order) == 1
    phantom = None
    if ch.mode == "group":
        group_total = sum(totals.values())
        if solo:  # QNC-236: the die is a phantom player (-1 subtracts one)
            faces = pk.board.solo_die  # QNC-015: the die's faces are content data
            [(_, face)] = chance.roll(ctx, None, {"solo": faces}, ["solo"], why=f"{kind} crisis")
            phantom = faces[face]
            state.die = phantom
            group_total += phantom
        beaten = group_total >= need  # QNC-116/117
        failed = [] if beaten else order
        if solo:  # QNC-237: the bonus needs the player's own share to reach the die
            eligible = order if beaten and totals[order[0]] >= phantom else []
        else:
            eligible = order if beaten else []
    else:
        failed = [s for s in order if totals[s] < need]  # QNC-115/117 (solo too: QNC-239)
        if solo:  # QNC-238: strictly more than the card's number for the bonus
            eligible = [s for s in order if totals[s] > need]
        else:
            eligible = [s for s in order if totals[s] >= need]  # QNC-121: the top player must have met it
    best = max(totals.values()) if totals else 0
    winners = [s for s in eligible if totals[s] == best and best > 0]
    ctx.emit("crisis_check", kind=kind, mode=ch.mode, need=need, totals=totals, phantom=phantom,
             beaten=(not failed) if ch.mode == "group" else None, failed=failed, rewarded=winners)
    steps_ = []
    for seat in order:  # QNC-263 reading: each player takes their penalty, then their reward
        if seat in failed:
            steps_.append((penalty, {"seat": seat, "kind": kind, "penalty": ch.penalty}))
        if seat in winners:
            steps_.append((reward, {"seat": seat, "kind": kind}))
    ctx.push_all(steps_)


@steps("penalty")
def penalty(ctx, seat, kind, penalty):
    p = player(ctx, seat)
    if kind in p.bribes:  # QNC-144: Bribe cancels this penalty
        p.bribes.remove(kind)
        ctx.emit("bribed", seat=seat, kind=kind, penalty=penalty)
        return
    ctx.emit("penalty", seat=seat, kind=kind, penalty=penalty)
    _crisis_leaders(ctx, seat, "crisis_penalty", kind)
    push_effects(ctx, seat, [{"op": penalty}], "penalty")


@steps("reward")
def reward(ctx, seat, kind):
    pk = pack(ctx)
    p = player(ctx, seat)
    p.rewards += 1
    ctx.emit("reward", seat=seat, kind=kind)
    _crisis_leaders(ctx, seat, "crisis_reward", kind)
    push_effects(ctx, seat, getattr(pk.crises[ctx.state.crisis], kind).reward, "reward")
    check_honorary(ctx, seat)


def _crisis_leaders(ctx, seat, trigger, kind):
    """Crisis leaders fire only in the Crisis phase (QNC-103)."""
    pk = pack(ctx)
    for lid in reversed(pv.province_leaders(player(ctx, seat))):
        ab = pk.leaders[lid].ability
        if ab.trigger == trigger and ab.match in (kind, "any"):
            ctx.push(leader_fires, seat=seat, leader=lid)


@steps("crisis_collect")
def crisis_collect(ctx: Ctx) -> None:
    """Step 11: reserve icons on the played cards become tokens (QNC-134/265); step 12: discard."""
    state = ctx.state
    pk = pack(ctx)
    state.step = "collect"
    for seat in pv.turn_order(state):
        p = player(ctx, seat)
        gp = sum(pk.action(c).reserve_power for c in p.face_down)
        gc = sum(pk.action(c).reserve_control for c in p.face_down)
        p.reserve_power += gp
        p.reserve_control += gc
        p.bid_power = p.bid_control = 0
        p.bribes = []
        if gp or gc:
            ctx.emit("reserve", seat=seat, power=p.reserve_power, control=p.reserve_control)
        check_honorary(ctx, seat)
    for p in state.players:  # step 12 (QNC-266)
        p.discard.extend(p.face_down)
        p.face_down = []
    state.revealed = False


# -- Score phase (steps 13-15) ---------------------------------------------------------------
@steps("score_start")
def score_start(ctx: Ctx) -> None:
    """Step 13: every structure scores at once, columns in Rebellion excepted (QNC-097/126/174)."""
    state = ctx.state
    pk = pack(ctx)
    state.step = "structures"
    for p in state.players:
        for col in p.columns:
            if col.rebellion:
                continue
            for card in col.structures:
                for track, n in pk.structures[card].attributes.items():
                    gain_attr(ctx, p.seat, track, n)
    steps_ = [(score_leaders, {"seat": s}) for s in pv.turn_order(state)]
    steps_ += [(reset, {"seat": s}) for s in pv.turn_order(state)]
    ctx.push_all(steps_)


@steps("score_leaders")
def score_leaders(ctx, seat):
    """Step 14: Score leaders in placement order, nearest column first, top slot first (QNC-175/176).
    Rebellion does not stop leaders (QNC-127)."""
    state = ctx.state
    state.step = "leaders"
    pk = pack(ctx)
    p = player(ctx, seat)
    fire = []
    for lid in pv.province_leaders(p):
        ab = pk.leaders[lid].ability
        if ab.trigger == "score" and pv.holds(ab.when, state, pk, p):
            fire.append((leader_fires, {"seat": seat, "leader": lid}))
    ctx.push_all(fire)


@steps("reset")
def reset(ctx, seat):
    """Step 15: each full track gives its bonus and a seal, then returns to 0 (QNC-177..182).
    Re-checked until no track is full, so a point gained during this step counts (QNC-253)."""
    state = ctx.state
    state.step = "reset"
    pk = pack(ctx)
    p = player(ctx, seat)
    full = [t for t in TRACKS if p.tracks[t] >= pk.board.track_max]
    if not full:
        return
    ctx.push(reset, seat=seat)
    ctx.ask(seat, "reset_track", [A("reset_track", track=t) for t in full], reset_track)


@steps("reset_track")
def reset_track(ctx, seat, params):
    pk = pack(ctx)
    track = params["track"]
    # step 15 order: the track's bonus, the seal (and any Alert it covers), then the reset
    ctx.push_all([(seal, {"seat": seat, "reason": f"track:{track}"}), (track_zero, {"seat": seat, "track": track})])
    push_effects(ctx, seat, pk.board.track_bonus[track], "track")


@steps("track_zero")
def track_zero(ctx, seat, track):
    player(ctx, seat).tracks[track] = 0  # QNC-178: points past the 5th space are lost
    ctx.emit("track_reset", seat=seat, track=track)


@steps("solo_end")
def solo_end(ctx):
    """After Score, before the Refresh is entered: the solo game's last round (QNC-241)."""
    state = ctx.state
    scenario = pack(ctx).scenario(state.scenario)
    if len(state.players) == 1 and state.round >= scenario.solo_end_round:
        # QNC-241/242, ruling QNC-R1: a solo game ends right before this round's Refresh
        ctx.finish(final_result(state, "solo_end", solo_target=scenario.seals))


# -- Refresh phase (steps 16-20) ---------------------------------------------------------------
@steps("refresh")
def refresh(ctx: Ctx) -> None:
    state = ctx.state
    pk = pack(ctx)
    state.step = "victory_check"
    target = pk.scenario(state.scenario).seals
    solo = len(state.players) == 1
    reached = any(p.seals >= target for p in state.players)
    if (reached and not solo) or not state.crisis_deck:  # step 16
        reason = "seals" if reached and not solo else "crisis_deck"
        ctx.finish(final_result(state, reason, solo_target=target if solo else None))


@steps("before_reveal")
def before_reveal(ctx):
    ctx.state.step = "dilemma"
    ctx.hook.new_capital_before_crisis_reveal(ctx=ctx)  # step 17 (modules)


@steps("reveal_crisis")
def reveal_crisis(ctx):
    """Step 18: the next Crisis replaces the active one, which is retired (QNC-272)."""
    state = ctx.state
    state.step = "reveal_crisis"
    state.crises_done.append(state.crisis)
    state.crisis = state.crisis_deck.pop(0)
    ctx.emit("crisis", card=state.crisis, level=pack(ctx).crises[state.crisis].level)


@steps("round_end")
def round_end(ctx):
    state = ctx.state
    for p in state.players:  # step 19 (QNC-152/273)
        p.board_cube = "top"
    ctx.hook.new_capital_refresh(ctx=ctx)
    if len(state.players) == 1:  # QNC-240: a solo Scout after the new Crisis, cube untouched
        ctx.emit("solo_scout", seat=0)
        ctx.ask(0, "scout", scout_options(ctx), scout)


@steps("pass_die")
def pass_die(ctx):
    state = ctx.state
    state.first = (state.first + 1) % len(state.players)  # step 20 (QNC-274)
    ctx.emit("first_player", seat=state.first)


# -- the round as data -------------------------------------------------------------------------
# The Round Anatomy: the phases and their steps, in order; after the Refresh the next round's
# Development. The Refresh's victory check (or the solo end before it) finishes the game.
PHASES = Phases((
    Phase("development", ((draw_hands, {}), (after_draw, {}), (turn, {}), (extra, {}), (burn_step, {}),
                          (discard_hands, {})), before=((round_start, {}),)),              # steps 1-6
    Phase("crisis", ((crisis_start, {}), (bid, {}), (bribes, {}), (check, {"kind": "warfare"}),
                     (check, {"kind": "political"}), (crisis_collect, {}))),               # steps 7-12
    Phase("score", ((score_start, {}),)),                                                  # steps 13-15
    Phase("refresh", ((refresh, {}), (before_reveal, {}), (reveal_crisis, {}), (round_end, {}),
                      (pass_die, {})), before=((solo_end, {}),)),                          # steps 16-20
))
