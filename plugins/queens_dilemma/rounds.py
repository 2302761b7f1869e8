"""The Queen's Dilemma: the one-time campaign setup, the 12 setup steps of every game, and
the round (read, vote, resolve the Dilemma, check the end trigger), its phases declared as
data (`ROUND`, through `core.phases`).

Everything waits on the flow stack as named steps, so a game stops for any decision (a
Region pick, a tied Ideology draw, an Investment draft, a vote) and resumes from the state.
"""
from __future__ import annotations

import msgspec

from core import chance
from core.errors import CannotAfford
from core.flow import Ctx, StepTable
from core.phases import Phase, Phases, start_phase
from core.seats import seat_name
from core.state import Action
from plugins.queens_dilemma import council_rules, ending, voting
from plugins.queens_dilemma.absence import ask_held_crossroads
from plugins.queens_dilemma.content import Dilemma
from plugins.queens_dilemma.economy import can_afford
from plugins.queens_dilemma.effects import (band_steps, box_of, box_steps, effect, pay_cost, run_boxes, run_effects,
                                            run_effects_step, targets, unlock_agenda)
from plugins.queens_dilemma.scoring import IdeologyBoard, push as push_slider
from plugins.queens_dilemma.state import Chronicle, EventRecord, QDState
from plugins.queens_dilemma.voting import open_payments

steps = StepTable("qd")
SIDES = ("aye", "nay")


# -- Before Your First Game ----------------------------------------------------------------
@steps("first_game")
def first_game(ctx: Ctx) -> None:
    """QD-039..065: random Leader, seat bonuses, Moderator, Regions, starting Agendas, Envelope 00."""
    state: QDState = ctx.state
    c = state.campaign
    n = c.players
    c.leader = chance.pick(ctx, list(range(n)), "leader")
    bonuses, c.moderator = council_rules.seat_bonuses(n, c.leader)
    for seat, bonus in bonuses.items():
        d = c.diaries[seat]
        d.bonus_power += bonus.get("power", 0)    # QD-047: adds to game 1's Starting Power
        d.resources["gold"] += bonus.get("gold", 0)
        d.independence += bonus.get("independence", 0)
    state.leader, state.moderator = c.leader, c.moderator
    ctx.emit("campaign_setup", leader=c.leader, moderator=c.moderator, bonuses={str(k): v for k, v in bonuses.items()})
    picks = council_rules.region_pick_order(n, c.leader, c.moderator)
    ctx.push(first_game_done)
    ctx.push_all([(region_pick, {"seat": s, "kind": kind}) for s, kind in picks])


@steps("region_pick")
def region_pick(ctx: Ctx, seat: int, kind: str) -> None:
    state: QDState = ctx.state
    taken = {r for d in state.campaign.diaries for r in d.regions + d.vassals}
    free = [r for r in box_of(state).regions if r not in taken]
    main = kind == "main"
    options = [Action("region", {"region": r, "main": main}) for r in free]
    if state.councilors[seat].absent:  # the Leader chooses for an absent player (QD-124's way)
        ctx.ask(state.leader, "region", options, region_chosen,
                text=f"Choose a {'Main' if main else 'Vassal'} Region for {seat_name(seat)}", owner=seat)
        return
    ctx.ask(seat, "region", options, region_chosen, text=f"Choose a {'Main' if main else 'Vassal'} Region")


@steps("region_chosen")
def region_chosen(ctx: Ctx, seat: int, params: dict, owner: int | None = None) -> None:
    seat = seat if owner is None else owner  # `seat` chose: the Leader, for an absent owner
    d = ctx.state.campaign.diaries[seat]
    (d.regions if params["main"] else d.vassals).append(params["region"])
    ctx.emit("region", seat=seat, region=params["region"], main=params["main"])


@steps("first_game_done")
def first_game_done(ctx: Ctx) -> None:
    state: QDState = ctx.state
    c = state.campaign
    c.regions_chosen = True
    box = box_of(state)
    for d in c.diaries:  # QD-032..038: dealt face down
        unlock_agenda(ctx, d.seat, box.characters[d.character].starting_agenda, "starting agenda")
    ctx.hook.qd_campaign_setup(ctx=ctx)  # modules' content, after Envelope 00 (pushed below runs first)
    ctx.push(open_envelope, code="00", first=True)  # QD-064, QD-065


# -- Game setup (every game) ----------------------------------------------------------------
@steps("setup")
def setup(ctx: Ctx) -> None:
    state: QDState = ctx.state
    c = state.campaign
    box = box_of(state)
    state.game_number = c.games_played + 1                 # QD-079: the leftmost empty Timeline space
    state.power_pool = box.board.pool_power                # QD-078
    state.board = IdeologyBoard()                          # QD-082
    ctx.enter_phase("setup")
    for seat in state.options.get("defected") or []:  # QD-128: gone for good, from this game on
        c.diaries[seat].defected = True
    first = [] if c.regions_chosen else [(first_game, {})]
    ctx.push_all(first + [(seat_players, {}), (returning, {}), (finale_boxes, {}),
                          (ideology_draw, {}), (income, {}), (chronicles, {}), (investments, {}),
                          (stories, {}), (events_setup, {}), (deck, {}), (round_, {})])


@steps("seat_players")
def seat_players(ctx: Ctx) -> None:
    """Step 5: each player's Treasury and Diary come to the table (after the one-time setup,
    so its seat bonuses are in them: QD-047); the tokens stay where they were (QD-085)."""
    state: QDState = ctx.state
    c = state.campaign
    box = box_of(state)
    state.leader, state.moderator = c.leader, c.moderator
    for p in state.councilors:
        d = c.diaries[p.seat]
        p.absent = p.absent or d.defected  # a defected player never takes part again
        p.hegemony, p.independence, p.infamy = d.hegemony, d.independence, d.infamy
        p.resources = dict(d.resources)
        p.heraldry = box.board.heraldry_tokens
        p.power = 0
    present_seats = [p.seat for p in state.councilors if not p.absent]
    for token in ("leader", "moderator"):  # QD-119
        if getattr(state, token) not in present_seats:
            setattr(state, token, chance.pick(ctx, present_seats, token))
    ctx.emit("game_setup", game=state.game_number, timeline=msgspec.to_builtins(box.timeline[state.game_number - 1]),
             leader=state.leader, moderator=state.moderator)


@steps("returning")
def returning(ctx: Ctx) -> None:
    """QD-126, QD-127: a player back from absence gains 3 Independence per game missed and
    fails every Agenda whose time limit passed meanwhile."""
    state: QDState = ctx.state
    for p in state.councilors:
        d = state.campaign.diaries[p.seat]
        if p.absent:
            continue
        ask_held_crossroads(ctx, p.seat)  # placed in their Treasury while they were away
        if not d.missed:
            continue
        p.independence += 3 * d.missed
        ctx.emit("returned", seat=p.seat, missed=d.missed, independence=3 * d.missed)
        d.missed = 0
        for held in [a for a in d.agendas if a.deadline is not None and a.deadline < state.game_number]:
            ctx.push(ending.failed, seat=p.seat, code=held.code)


@steps("finale_boxes")
def finale_boxes(ctx: Ctx) -> None:
    """QD-267: the Grand Finale opens Mystery boxes M07 and M08."""
    state: QDState = ctx.state
    if state.campaign.finale_next:
        state.finale = True
        ctx.emit("grand_finale")
        ctx.push_all([(open_mystery, {"code": "M07"}), (open_mystery, {"code": "M08"})])


@steps("ideology_draw")
def ideology_draw(ctx: Ctx) -> None:
    """QD-088..090: draw 2 of your 5, keep the higher number (a tie: your choice), secretly."""
    state: QDState = ctx.state
    box = box_of(state)
    for p in state.councilors:
        if p.absent:
            continue
        character = state.campaign.diaries[p.seat].character
        deck = sorted(c.id for c in box.ideology_cards.values() if c.character == character)
        chance.shuffle(ctx, deck, f"{seat_name(p.seat)}'s ideology cards")
        drawn = deck[:2]
        p.drawn_ideology = drawn
        numbers = [box.ideology_cards[i].number for i in drawn]
        if numbers[0] == numbers[1]:
            ctx.prompt(p.seat, "ideology", [Action("keep_ideology", {"card": i}) for i in drawn], ideology_kept,
                       text="Both cards show the same number: keep one")
        else:
            ideology_kept(ctx, p.seat, {"card": council_rules.kept_ideology_card(list(zip(drawn, numbers)))})


@steps("ideology_kept")
def ideology_kept(ctx: Ctx, seat: int, params: dict) -> None:
    p = ctx.state.councilors[seat]
    p.ideology_card = params["card"]
    p.drawn_ideology = []
    ctx.emit("ideology_drawn", to=[seat], public={"seat": seat}, seat=seat, card=params["card"])


@steps("income")
def income(ctx: Ctx) -> None:
    """QD-091..094: 7 Power, one of each Resource, then productive Buildings."""
    state: QDState = ctx.state
    box = box_of(state)
    colour = box.timeline[state.game_number - 1].colour
    for p in state.councilors:
        if p.absent:
            continue
        d = state.campaign.diaries[p.seat]
        p.power = box.board.starting_power + d.bonus_power
        d.bonus_power = 0
        for r in p.resources:
            p.resources[r] += 1
        producing = [box.regions[r] for r in d.regions] + [box.buildings[b] for b in d.buildings]
        for b in producing:  # a Vassal base Building is covered and produces nothing (QD-059)
            if b.colour != colour:
                continue
            if len(b.produces) == 1:
                p.resources[b.produces[0]] += b.n
            else:  # QD-312: the owner picks one each time
                ctx.prompt(p.seat, "produce", [Action("produce", {"resource": r, "n": b.n}) for r in b.produces],
                           produced, text="This Building produces one of two Resources: choose")
        ctx.emit("income", seat=p.seat, power=p.power, resources=dict(p.resources))


@steps("produced")
def produced(ctx: Ctx, seat: int, params: dict) -> None:
    ctx.state.councilors[seat].resources[params["resource"]] += params["n"]
    ctx.emit("produced", seat=seat, resource=params["resource"], n=params["n"])


@steps("chronicles")
def chronicles(ctx: Ctx) -> None:
    """QD-095..104: draw up to 10 unlocked Chronicles; Instants stack, others take the 5
    brown slots (the rest go back unread); read them (Herald effects, Instant effects);
    mark every placed card's Duration Track."""
    state: QDState = ctx.state
    box = box_of(state)
    deck = list(state.campaign.chronicle_deck)
    if not deck:
        return
    order = list(range(len(deck)))
    chance.shuffle(ctx, order, "chronicle deck")
    drawn = [deck[i] for i in order[: box.board.chronicle_draw]]
    placed, brown = [], 0
    for rec in drawn:
        card = box.chronicles[rec.code]
        instant = "instant" in card.bands
        if not instant:
            if brown == box.board.brown_slots:
                continue  # QD-100: back unread
            brown += 1
        placed.append(rec)
        state.chronicles.append(Chronicle(code=rec.code, herald=rec.herald, instant=instant))
    ctx.emit("chronicles", placed=[r.code for r in placed])
    work = []
    for rec in placed:
        card = box.chronicles[rec.code]
        herald = rec.herald if rec.herald is not None else _preprinted(state, card.herald)
        if herald is not None and card.herald_effects:
            work.append((run_effects_step, {"seats": [herald], "effects": msgspec.to_builtins(card.herald_effects),
                                             "source": f"herald {rec.code}"}))
        if "instant" in card.bands:
            work += box_steps(card.boxes, herald, rec.code)
    ctx.push_all(work)
    for rec in placed:  # QD-102..104
        if box.chronicles[rec.code].duration is not None:
            rec.marks += 1


def _preprinted(state: QDState, herald: str) -> int | None:
    for d in state.campaign.diaries:
        if d.character == herald:
            return d.seat
    return None


@steps("investments")
def investments(ctx: Ctx) -> None:
    """QD-105..111: remove 0/1/2 unseen, then draft from least Hegemony."""
    state: QDState = ctx.state
    here = [p.seat for p in state.councilors if not p.absent]
    cards = sorted(box_of(state).investments)
    chance.shuffle(ctx, cards, "investments")
    used = council_rules.INVESTMENTS_USED[len(here)]  # QD-116: the players present
    state.investments_left = cards[:used]
    order = [s for s in council_rules.investment_draft_order([p.hegemony for p in state.councilors], state.leader)
             if s in here]
    ctx.push_all([(draft, {"seat": s}) for s in order])


@steps("draft")
def draft(ctx: Ctx, seat: int) -> None:
    state: QDState = ctx.state
    if state.councilors[seat].absent:  # left during the draft (absence.py): the cards pass on
        return
    ctx.ask(seat, "investment", [Action("invest_pick", {"card": c}) for c in state.investments_left], drafted,
            text="Keep one Investment card and pass the rest on")


@steps("drafted")
def drafted(ctx: Ctx, seat: int, params: dict) -> None:
    state: QDState = ctx.state
    state.councilors[seat].investment = params["card"]
    state.investments_left.remove(params["card"])
    ctx.emit("drafted", to=[seat], public={"seat": seat}, seat=seat, card=params["card"])


@steps("stories")
def stories(ctx: Ctx) -> None:
    """QD-112, QD-113, QD-360: Story stacks by Storyline, most recent on top; ended
    Storylines show their Ending instead."""
    state: QDState = ctx.state
    ctx.emit("stories", shown=story_stacks(state))


def story_stacks(state: QDState) -> dict[str, list[str]]:
    box = box_of(state)
    out: dict[str, list[str]] = {}
    for sid in state.campaign.stories:
        line = str(box.stories[sid].storyline)
        if line not in state.campaign.endings:
            out.setdefault(line, []).append(sid)
    return {line: sorted(ids, key=lambda i: box.stories[i].number, reverse=True) for line, ids in sorted(out.items())}


@steps("events_setup")
def events_setup(ctx: Ctx) -> None:
    """QD-114: active Events are placed and set up by their own rules."""
    state: QDState = ctx.state
    box = box_of(state)
    state.events_active = [e.id for e in sorted(state.campaign.events, key=lambda e: box.events[e.id].number)]
    for eid in reversed(state.events_active):
        run_boxes(ctx, box.events[eid].setup, source=f"event {eid}")


@steps("deck")
def deck(ctx: Ctx) -> None:
    """QD-115: the whole saved Dilemma deck is shuffled (its order is never shown)."""
    chance.shuffle(ctx, ctx.state.campaign.deck, "dilemma deck")
    ctx.emit("deck", size=len(ctx.state.campaign.deck))


# -- Envelopes and Mystery boxes ------------------------------------------------------------
@steps("open_envelope")
def open_envelope(ctx: Ctx, code: str, first: bool = False) -> None:
    """QD-207..210: read the Story card and apply it, place it, shuffle the Dilemmas in."""
    state: QDState = ctx.state
    c = state.campaign
    if code in c.opened:
        return
    c.opened.append(code)
    env = box_of(state).envelopes[code]
    ctx.emit("envelope", code=code)
    c.deck.extend(env.dilemmas)
    chance.shuffle(ctx, c.deck, "dilemma deck")
    for code_ in env.chronicles:  # CAOD: the starting unlocked Chronicle deck (QD-070, QD-071)
        ctx.push(effect, seat=None, e={"op": "chronicle", "code": code_}, source=f"envelope {code}")
    if env.story:
        ctx.push(read_story, story=env.story)


@steps("read_story")
def read_story(ctx: Ctx, story: str) -> None:
    state: QDState = ctx.state
    card = box_of(state).stories[story]
    state.campaign.stories.append(story)
    ctx.emit("story", id=story, storyline=card.storyline, number=card.number, title=card.title, text=card.text)
    work = box_steps(card.boxes, source=f"story {story}")
    work += [(open_mystery, {"code": m}) for m in card.mysteries]
    if card.ending:
        work.append((effect, {"seat": None, "e": {"op": "ending", "code": card.ending}, "source": story}))
    ctx.push_all(work)


@steps("open_mystery")
def open_mystery(ctx: Ctx, code: str) -> None:
    """QD-212, QD-213: the WARNING! steps at once; its Dilemmas join the deck."""
    state: QDState = ctx.state
    c = state.campaign
    if code in c.opened:
        return
    c.opened.append(code)
    m = box_of(state).mysteries[code]
    ctx.emit("mystery", code=code, title=m.title, warning=m.warning)
    c.deck.extend(m.dilemmas)
    chance.shuffle(ctx, c.deck, "dilemma deck")
    for eid in m.events:
        games = box_of(state).events[eid].games
        c.events.append(EventRecord(id=eid, games_left=games))
    work = [(effect, {"seat": None, "e": {"op": "chronicle", "code": ch}, "source": code}) for ch in m.chronicles]
    work += box_steps(m.boxes, source=code)
    ctx.push_all(work)


# -- The round ------------------------------------------------------------------------------
@steps("round")
def round_(ctx: Ctx) -> None:
    """After the setup or a round (QD-132's end-of-game check): the end of the game when it
    was triggered, else the next round's Read phase."""
    state: QDState = ctx.state
    box = box_of(state)
    if state.end_triggered:
        ctx.push(start_phase, name="end")
        return
    if not state.campaign.deck:
        state.end_triggered = True
        if len(state.campaign.endings) < box.board.storylines:
            # QD-134: an empty deck before the Storylines end is the Troubleshooting state;
            # the game is closed normally and the result says so.
            ctx.emit("troubleshooting", reason="the Dilemma deck is empty")
            state.log_notes.append("dilemma deck exhausted before every Storyline ended")
        ctx.push(start_phase, name="end")  # QD-221 with every Ending attached
        return
    state.round += 1
    ctx.push(start_phase, name="read")


@steps("read")
def read(ctx: Ctx) -> None:
    """QD-010, QD-133: the Dilemma card from the bottom of the deck, its front read out."""
    state: QDState = ctx.state
    state.dilemma = state.campaign.deck.pop()
    card = box_of(state).dilemmas[state.dilemma]
    shown = front(card)
    # QD-137: blue markers for the Aye outcomes, red for the Nay ones, on the Ideology spaces
    # and the Positive/Negative/Uncertain spaces, for all to see while the vote lasts
    state.markers = {"blue": shown["aye"], "red": shown["nay"]}
    ctx.emit("dilemma", **shown)


@steps("voting_bands")
def voting_bands(ctx: Ctx) -> None:
    """QD-326: the Voting-band Chronicles in play, before the vote opens."""
    ctx.push_all(band_steps(ctx.state, "voting"))


def front(card: Dilemma) -> dict:
    """What the card front shows (QD-135, QD-136): never the back."""
    return {"id": card.id, "title": card.title, "text": card.text, "keywords": list(card.keywords),
            "aye": {"pushes": msgspec.to_builtins(card.aye.pushes), "legacy": card.aye.legacy},
            "nay": {"pushes": msgspec.to_builtins(card.nay.pushes), "legacy": card.nay.legacy}}


@steps("vote_done")
def vote_done(ctx: Ctx) -> None:
    """The vote's own steps ran Vote Resolution and cleanup: the card actions are reset and
    the vote's winners named, the Voting Phase's last work (QD-199, QD-284, QD-285)."""
    state: QDState = ctx.state
    reset_card_actions(ctx)
    vote = state.votes[-1]
    tiles = vote["tiles"]
    if all(t["side"] in ("pass", "") for t in tiles):  # ("": no turn came, voting.resolve)
        state.winners = [vote["moderator"]]  # QD-285
    else:
        state.winners = [i for i, t in enumerate(tiles) if t["side"] == vote["winner"]]  # QD-284


@steps("outcome")
def outcome(ctx: Ctx) -> None:
    """Dilemma Resolution a-f (QD-199): the winning side's boxes, Slider pushes, Envelopes and
    Mysteries, then the card on the Round Counter; what they are depends on the card."""
    state: QDState = ctx.state
    side = state.votes[-1]["winner"]
    card = box_of(state).dilemmas[state.dilemma]
    won = getattr(card, side)
    ctx.emit("outcome", id=card.id, side=side, text=won.text, winners=state.winners,
             boxes=public_boxes(won.boxes), envelopes=list(won.envelopes),
             mysteries=list(won.mysteries), sand_timer=won.sand_timer)  # QD-200: only the winning side
    work = box_steps(won.boxes, source=card.id)
    work.append((board_step, {"side": side}))
    work += [(open_envelope, {"code": e}) for e in won.envelopes]
    work += [(open_mystery, {"code": m}) for m in won.mysteries]
    work.append((place_card, {"side": side}))
    ctx.push_all(work)


def public_boxes(boxes) -> list[dict]:
    """The outcome's boxes as everyone may read them: an Agenda's code is told only to the
    player who takes it (its private "agenda" event), since the code leads to its back."""
    out = msgspec.to_builtins(boxes)
    for b in out:
        b["effects"] = [{"op": "agenda"} if e["op"] == "agenda" else e for e in b.get("effects", [])]
    return out


@steps("board")
def board_step(ctx: Ctx, side: str) -> None:
    """QD-204..206: push each Slider; one Hegemony token per pushed Ideology, moved or not."""
    state: QDState = ctx.state
    outcome = getattr(box_of(state).dilemmas[state.dilemma], side)
    for p in outcome.pushes:
        moved = push_slider(state.board, p.ideology, p.n)
        ctx.emit("push", ideology=p.ideology, n=p.n, moved=moved, source=state.dilemma)


@steps("place_card")
def place_card(ctx: Ctx, side: str) -> None:
    """QD-214..220: the card goes on the lowest empty Round Counter slot; a sand timer on
    slots 7-9, or a full counter, triggers the end."""
    state: QDState = ctx.state
    board = box_of(state).board
    state.round_counter.append([state.dilemma, side])
    slot = len(state.round_counter)
    outcome = getattr(box_of(state).dilemmas[state.dilemma], side)
    if (outcome.sand_timer and slot in board.sand_slots) or slot >= board.round_slots:
        state.end_triggered = True
        ctx.emit("end_triggered", slot=slot, sand_timer=outcome.sand_timer)
    state.dilemma = ""
    state.markers = {}  # QD-215: the Outcome markers leave the board with the round


# -- the round as data -------------------------------------------------------------------------
# QD-132: Read the Dilemma, the Voting Phase (the vote and its resolution), Dilemma Resolution;
# after it the end-of-game check (`round_`) starts the next round or the end (ending.END).
ROUND = Phases((
    Phase("read", ((read, {}),)),
    Phase("voting", ((voting_bands, {}), (voting.begin, {}), (vote_done, {}))),
    Phase("resolution", ((outcome, {}),)),
), then=round_)


# -- Special Pass Actions and Pass Bonuses (QD-154..161, QD-191..196) -----------------------
def card_actions(state: QDState, seat: int, kind: str) -> list[Action]:
    """Every card action of `kind` ("pass_action" or "pass_bonus") the seat may take now."""
    box = box_of(state)
    p = state.councilors[seat]
    out = []
    for ch in state.chronicles:
        action = box.chronicles[ch.code].action
        if action is None or action.kind != kind:
            continue
        if ch.slot_taken_by is not None or p.heraldry == 0:                     # QD-157, QD-158, QD-196
            continue
        if action.spaces is not None and not action.stack and ch.tokens >= action.spaces:  # QD-159, QD-192
            continue
        if action.requires_keyword and seat not in targets(state, action.requires_keyword):  # QD-161
            continue
        if can_afford(p.resources, action.cost):                                 # QD-160
            out.append(_card_option(kind, ch.code))
    for held in state.campaign.diaries[seat].skills:
        skill = box.skills[held.code]
        if skill.action.kind != kind or (skill.uses is not None and held.used >= skill.uses):  # QD-303, QD-304
            continue
        if can_afford(p.resources, skill.action.cost):
            out.append(_card_option(kind, held.code))
    for record in state.campaign.events:
        ev = box.events[record.id]
        if record.id not in state.events_active or ev.action is None or ev.action.kind != kind:
            continue
        if record.id in state.event_slots or p.heraldry == 0:
            continue
        if ev.action.spaces is not None and not ev.action.stack and record.tokens >= ev.action.spaces:
            continue
        if can_afford(p.resources, ev.action.cost):
            out.append(_card_option(kind, record.id))
    return out


def _card_option(kind: str, source: str) -> Action:
    if kind == "pass_action":
        return Action("pass", {"action": "card", "source": source})
    return Action("bonus", {"source": source})


@steps("card_action")
def card_action(ctx: Ctx, seat: int, source: str) -> None:
    """Take a card's action: pay its cost in full (QD-278), put a Heraldry token on the
    card's slot (QD-156), then its effects for the player taking it."""
    state: QDState = ctx.state
    box = box_of(state)
    p = state.councilors[seat]
    if source in box.skills:
        held = next(h for h in state.campaign.diaries[seat].skills if h.code == source)
        held.used += 1
        action = box.skills[source].action
    elif source in box.events:
        action = box.events[source].action
        state.event_slots[source] = seat
        p.heraldry -= 1
    else:
        ch = next(c for c in state.chronicles if c.code == source)
        action = box.chronicles[source].action
        ch.slot_taken_by = seat
        p.heraldry -= 1
    if not pay_cost(p.resources, action.cost):  # QD-160, QD-278: paid in full or not taken
        raise CannotAfford(f"{seat_name(seat)} cannot pay {dict(action.cost)} for {source}")
    open_payments(ctx)  # the bargaining offers follow the Treasury
    ctx.emit("card_action", seat=seat, source=source, kind=action.kind, cost=dict(action.cost))
    run_effects(ctx, [seat], msgspec.to_builtins(action.effects), source)


@steps("offer_bonus")
def offer_bonus(ctx: Ctx, seat: int) -> None:
    """QD-150, QD-155: after the Pass Action, at most one Pass Bonus, if any is open."""
    options = card_actions(ctx.state, seat, "pass_bonus")
    if options:
        ctx.prompt(seat, "pass_bonus", options + [Action("no_bonus", {})], bonus_chosen,
                   text="Take a Pass Bonus, or none")


@steps("bonus_chosen")
def bonus_chosen(ctx: Ctx, seat: int, params: dict) -> None:
    if "source" in params:
        card_action(ctx, seat, params["source"])


def reset_card_actions(ctx: Ctx) -> None:
    """QD-191..195: a token on a card's slot moves onto its Pass Action spaces (or back to
    its owner when the card has none); the action is free again next Voting Phase."""
    state: QDState = ctx.state
    box = box_of(state)
    for ch in state.chronicles:
        if ch.slot_taken_by is None:
            continue
        action = box.chronicles[ch.code].action
        if action.spaces is None and not action.stack:
            state.councilors[ch.slot_taken_by].heraldry += 1
        else:
            ch.tokens += 1
        ch.slot_taken_by = None
    for eid, seat in state.event_slots.items():
        record = next(r for r in state.campaign.events if r.id == eid)
        if box.events[eid].token == "keep":
            record.tokens += 1
        else:
            state.councilors[seat].heraldry += 1
    state.event_slots = {}
    for seat in state.aontas:  # QD-189: the Gather Power tokens go back after the distribution
        state.councilors[seat].heraldry += 1
    state.aontas = []
