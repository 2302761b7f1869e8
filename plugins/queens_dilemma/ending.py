"""The Queen's Dilemma end of game: Events, Scoring (a-f), Cleanup and Save (QD-223), the
campaign-end check and the Grand Finale's final scores (ruling QD-R4). Its two phases are
declared as data (`END`, through `core.phases`); Save follows the last."""
from __future__ import annotations

import msgspec

from core.flow import Ctx, StepTable
from core.phases import Phase, Phases
from core.turn_order import clockwise
from core.state import Action
from plugins.queens_dilemma import economy, scoring
from plugins.queens_dilemma.effects import (affordable, band_steps, box_of, box_steps, draw_ongoing, ideology_card, pay_cost,
                                            run_effects, run_effects_step, targets)
from plugins.queens_dilemma.state import QDState
from plugins.queens_dilemma.symbology import triggered

steps = StepTable("qdend")


def order_from_leader(state: QDState) -> list[int]:
    """The players present, clockwise from the Leader (QD-116: the absent take no part)."""
    return clockwise(state.leader, len(state.councilors), skip=[p.seat for p in state.councilors if p.absent])


@steps("begin")
def begin(ctx: Ctx) -> None:
    """The end's work in order (QD-223); which Events and Chronicle bands take part depends on
    the cards in play, so it is pushed here, inside the phase."""
    state: QDState = ctx.state
    box = box_of(state)
    events = sorted(state.events_active, key=lambda e: box.events[e].number)  # QD-224, QD-225
    work = [step for e in events for step in box_steps(box.events[e].resolve, source=f"event {e}")]
    work += band_steps(state, "end_of_game")                          # QD-226
    work += [(ideology, {})] + band_steps(state, "ideology_scoring")
    work += [(power, {})] + band_steps(state, "power_scoring")
    work += [(invest, {"seat": s}) for s in order_from_leader(state)]
    work += [(investment_band, {})]
    work += [(agendas, {"seat": s}) for s in order_from_leader(state)]
    work += [(failures, {})]
    work += band_steps(state, "tax") + [(taxes, {})]
    ctx.push_all(work)


@steps("ideology")
def ideology(ctx: Ctx) -> None:
    """QD-227..237: every kept Ideology card is revealed and scored."""
    state: QDState = ctx.state
    for p in state.councilors:
        if p.absent or not p.ideology_card:  # (none: they left while drawing it, absence.py)
            continue
        card = ideology_card(state, p.seat)
        got = scoring.ideology_score(card, state.board)
        p.hegemony += got["hegemony"]
        p.independence += got["independence"]
        ctx.emit("ideology_scored", seat=p.seat, card=card.id, **got)


@steps("power")
def power(ctx: Ctx) -> None:
    """QD-238..240 (ruling QD-R6): 2 and 1 Independence for the most and second-most Power
    left, 0 included; the event says how much Power each player had left."""
    state: QDState = ctx.state
    here = [p for p in state.councilors if not p.absent]
    awards = scoring.power_scoring([p.power for p in here])
    for p, award in zip(here, awards):
        p.independence += award
    ctx.emit("power_scored", awards={str(p.seat): a for p, a in zip(here, awards)},
             power={str(p.seat): p.power for p in here})


@steps("invest")
def invest(ctx: Ctx, seat: int) -> None:
    """QD-241..245: pay the Bag value in the card's Resource for Success, or take Failure."""
    state: QDState = ctx.state
    if state.councilors[seat].absent or not state.councilors[seat].investment:
        return  # left since the end began, or during the draft (absence.py): no Investment to score
    card = box_of(state).investments[state.councilors[seat].investment]
    bag = box_of(state).timeline[state.game_number - 1].bag
    options = [Action("invest", {"pay": False})]
    if affordable(state.councilors[seat].resources, {}, card.resource, bag):
        options.insert(0, Action("invest", {"pay": True}))
    ctx.ask(seat, "invest", options, invested, text=f"Pay {bag} {card.resource} for your Investment?")


@steps("invested")
def invested(ctx: Ctx, seat: int, params: dict) -> None:
    state: QDState = ctx.state
    p = state.councilors[seat]
    card = box_of(state).investments[p.investment]
    bag = box_of(state).timeline[state.game_number - 1].bag
    result = economy.investment(p.resources, card.resource, bag, params["pay"])
    ctx.emit("investment", seat=seat, card=card.id, result=result)
    run_effects(ctx, [seat], msgspec.to_builtins(card.success if result == "success" else card.failure),
                f"investment {card.id}")


@steps("investment_band")
def investment_band(ctx: Ctx) -> None:
    """QD-330: Investment-band Chronicles, limited to one kind of Investment when printed so."""
    state: QDState = ctx.state
    box = box_of(state)
    for ch in reversed(state.chronicles):
        card = box.chronicles[ch.code]
        if "investment" not in card.bands:
            continue
        for b in reversed(card.boxes):
            seats = [s for s in targets(state, b.to, b.of, b.at_least, ch.herald)
                     if state.councilors[s].investment]  # (a player who missed the draft has none)
            if card.investment_kind:
                seats = [s for s in seats if box.investments[state.councilors[s].investment].resource == card.investment_kind]
            trig = b.trigger
            if trig is None or triggered(trig.when, trig.ideology, state.board):
                ctx.push(run_effects_step, seats=seats, effects=msgspec.to_builtins(b.effects), source=ch.code)


@steps("agendas")
def agendas(ctx: Ctx, seat: int, exclude: list[str] | None = None) -> None:
    """QD-246, QD-247, QD-250: complete any affordable Agenda (repeatable), then stop.
    `exclude`: Agendas already declined in this phase (only newly gained ones are offered)."""
    state: QDState = ctx.state
    box = box_of(state)
    bag = box.timeline[state.game_number - 1].bag
    diary = state.campaign.diaries[seat]
    p = state.councilors[seat]
    if p.absent:  # left since the end began (absence.py)
        return
    skip = set(exclude or [])
    options = [Action("complete", {"agenda": a.code}) for a in diary.agendas if a.code not in skip
               and box.agendas[a.code].kind != "crossroad"  # one held while away is chosen, not paid
               and affordable(p.resources, box.agendas[a.code].cost, box.agendas[a.code].bag, bag)]
    if options:
        ctx.prompt(seat, "agenda", options + [Action("agendas_done", {})], completed,
                   text="Complete an Agenda by paying its cost, or stop", exclude=sorted(skip))


@steps("completed")
def completed(ctx: Ctx, seat: int, params: dict, exclude: list[str] | None = None) -> None:
    if "agenda" not in params:
        return
    state: QDState = ctx.state
    box = box_of(state)
    code = params["agenda"]
    card = box.agendas[code]
    diary = state.campaign.diaries[seat]
    pay_cost(state.councilors[seat].resources, card.cost, card.bag, box.timeline[state.game_number - 1].bag)
    diary.agendas = [a for a in diary.agendas if a.code != code]
    ctx.emit("agenda_completed", seat=seat, code=code)
    ctx.push(agendas, seat=seat, exclude=exclude or [])  # more, including new ones (QD-250)
    if card.kind == "ongoing":  # QD-352: draw another first, then the card goes back
        ctx.push(ongoing_back, code=code)
        draw_ongoing(ctx, seat, exclude=code)
    else:
        state.campaign.trashed.append(code)
    run_effects(ctx, [seat], msgspec.to_builtins(card.success), f"agenda {code}")


@steps("ongoing_back")
def ongoing_back(ctx: Ctx, code: str) -> None:
    ctx.state.campaign.ongoing_pool.append(code)


@steps("failures")
def failures(ctx: Ctx) -> None:
    """QD-248, QD-249: an Agenda due this game and not completed fails."""
    state: QDState = ctx.state
    work = []
    for s in order_from_leader(state):
        held_now = [a.code for a in state.campaign.diaries[s].agendas]
        failing = [a.code for a in state.campaign.diaries[s].agendas
                   if a.deadline is not None and a.deadline <= state.game_number]
        work += [(failed, {"seat": s, "code": code}) for code in failing]
        if failing:  # QD-250: an Agenda a Failure hands over may be completed at once
            work.append((agendas, {"seat": s, "exclude": held_now}))
    ctx.push_all(work)


@steps("failed")
def failed(ctx: Ctx, seat: int, code: str) -> None:
    """An Agenda past its time limit: its Failure box, then the Trash (QD-248, QD-127)."""
    state: QDState = ctx.state
    diary = state.campaign.diaries[seat]
    if not any(a.code == code for a in diary.agendas):
        return
    diary.agendas = [a for a in diary.agendas if a.code != code]
    state.campaign.trashed.append(code)
    ctx.emit("agenda_failed", seat=seat, code=code)
    run_effects(ctx, [seat], msgspec.to_builtins(box_of(state).agendas[code].failure), f"agenda {code}")


@steps("taxes")
def taxes(ctx: Ctx) -> None:
    """QD-253..257: half the taxed Resource, rounded up; never Infamy, never Gold."""
    state: QDState = ctx.state
    taxed = box_of(state).timeline[state.game_number - 1].taxed
    for s in order_from_leader(state):
        paid = economy.tax(state.councilors[s].resources, taxed)
        ctx.emit("tax", seat=s, resource=taxed, paid=paid)


@steps("cleanup")
def cleanup(ctx: Ctx) -> None:
    """QD-258..264: the Round Counter's cards, spent Chronicles and Events trashed; the
    Treasuries saved in the Diaries; the tokens kept for the next game."""
    state: QDState = ctx.state
    box = box_of(state)
    c = state.campaign
    c.trashed += [d for d, _ in state.round_counter]                       # QD-258
    for ch in state.chronicles:                                             # QD-259, QD-260
        card = box.chronicles[ch.code]
        record = next(r for r in c.chronicle_deck if r.code == ch.code)
        if card.duration is not None and record.marks >= card.duration:
            c.chronicle_deck.remove(record)
            c.trashed.append(ch.code)
            ctx.emit("chronicle_trashed", code=ch.code)
    for record in list(c.events):
        if record.games_left is not None:
            record.games_left -= 1
            if record.games_left <= 0:
                c.events.remove(record)
                c.trashed.append(record.id)
    state.power_pool = 0                                                    # QD-261
    for p in state.councilors:
        p.power = 0
        d = c.diaries[p.seat]
        d.hegemony, d.independence, d.infamy = p.hegemony, p.independence, p.infamy
        d.resources = dict(p.resources)                                     # QD-262
        if p.absent and not d.defected:
            d.missed += 1
    c.leader, c.moderator = state.leader, state.moderator                  # QD-263


@steps("save")
def save(ctx: Ctx) -> None:
    """After the Cleanup: Save, the campaign-end check (QD-265..268), the game's result."""
    state: QDState = ctx.state
    box = box_of(state)
    c = state.campaign
    c.games_played = state.game_number
    result = {"game": state.game_number, "standings": standings(c)}
    if state.finale:
        c.finale_next, c.finale_played = False, True
        c.final = final_scores(state)
        result["final"] = c.final
    elif len(c.endings) >= box.board.storylines and len(c.deck) <= 3:      # QD-265, QD-266
        c.trashed += c.deck
        c.deck = []
        c.finale_next = True
        ctx.emit("campaign_end_triggered")
    if state.log_notes:
        result["notes"] = list(state.log_notes)
    ctx.finish(result)


# QD-223: the end of the game as data: the end's work, then the Cleanup, then Save.
END = Phases((Phase("end", ((begin, {}),)), Phase("cleanup", ((cleanup, {}),))), then=save)


def standings(c) -> list[dict]:
    return [{"seat": d.seat, "character": d.character, "hegemony": d.hegemony, "independence": d.independence,
             "infamy": d.infamy, "tier": scoring.infamy_tier(d.infamy)} for d in c.diaries]


def final_scores(state: QDState) -> list[dict]:
    """Ruling QD-R4 (the weights are data in M07): stable when the Scales are at least half
    the maximum; minus the Infamy tier's penalty; ties by G-1 from the Leader."""
    box = box_of(state)
    rule = next(m.finale for m in box.mysteries.values() if m.finale is not None)
    scales = sum(box.endings[e].scales for e in state.campaign.endings.values())
    stable = scales >= box.board.storylines  # at least half of 2 Scales x 7 Endings
    weights = rule.stable if stable else rule.unstable
    rows = []
    for d in state.campaign.diaries:
        total = (weights.get("hegemony", 0) * d.hegemony + weights.get("independence", 0) * d.independence
                 - rule.infamy_penalty_per_tier * scoring.infamy_tier(d.infamy))
        rows.append({"seat": d.seat, "character": d.character, "total": total, "stable": stable, "scales": scales})
    n = len(rows)
    nearness = {(state.leader + i) % n: i for i in range(n)}
    ranked = sorted(rows, key=lambda r: (-r["total"], nearness[r["seat"]]))
    for rank, r in enumerate(ranked, 1):
        r["rank"] = rank
    return sorted(rows, key=lambda r: r["seat"])
