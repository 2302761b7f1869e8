"""Resolving the effect vocabulary: who a Box targets, and what each Effect does.

Boxes resolve one at a time in printed order, and each Box's targets are worked out when it
resolves (the Leader is whoever holds the token then: QD-286, QD-293). Effects that need a
decision (a forced payment, where to build, which Skill to cover, a Crossroad) become
prompts; everything waits on the flow stack, so order is kept across decisions.
"""
from __future__ import annotations

import msgspec

from core import chance
from core.flow import Ctx, StepTable
from core.seats import seat_name
from core.state import Action
from plugins.queens_dilemma import economy, symbology
from plugins.queens_dilemma.content import CampaignBox, RESOURCES, default_box
from plugins.queens_dilemma.economy import can_afford, spend
from plugins.queens_dilemma.scoring import IdeologyCard, push as push_slider
from plugins.queens_dilemma.state import ChronicleRecord, HeldAgenda, HeldSkill, QDState

steps = StepTable("qdx")
LEGACY_OPS = ("agenda", "chronicle", "building", "keyword", "skill", "fate", "ongoing")
GLOBAL_OPS = ("push", "envelope", "mystery", "ending")   # act on the table, not on a player


def box_of(state: QDState) -> CampaignBox:
    return default_box()


def present(state: QDState) -> list[int]:
    return [p.seat for p in state.councilors if not p.absent and not state.campaign.diaries[p.seat].defected]


def keyword_holders(state: QDState, name: str) -> list[int]:
    """QD-289..291: a Character, a Region (Main or Vassal) or a Narrative Keyword's holders;
    a defected player's Keywords go to the Moderator (QD-129)."""
    box = box_of(state)
    codes = {k.code for k in box.keywords.values() if k.name == name}
    seats = []
    for d in state.campaign.diaries:
        if d.character == name or name in d.regions or name in d.vassals or codes & set(d.keywords):
            seats.append(state.moderator if d.defected else d.seat)
    return sorted(set(seats))


def building_types(state: QDState, seat: int) -> list[str]:
    """The types of a player's Buildings: Main Regions' base Buildings count (QD-314); a
    covered Vassal base Building counts for no type (QD-061)."""
    box = box_of(state)
    d = state.campaign.diaries[seat]
    return [box.regions[r].type for r in d.regions] + [box.buildings[b].type for b in d.buildings]


def targets(state: QDState, to: str, of: str = "", at_least: int = 1, actor: int | None = None) -> list[int]:
    """The seats a Box targets; absent players are never targeted by group effects (QD-118)."""
    here = present(state)
    if to == "players":
        return here
    if to == "winners":
        return [s for s in state.winners if s in here]
    if to == "leader":
        return [state.leader]
    if to == "moderator":
        return [state.moderator]
    if to == "self":
        return [] if actor is None else [actor]
    if to == "majority":
        return symbology.majority([state.councilors[s] for s in here], of)
    if to == "minority":
        return symbology.minority([state.councilors[s] for s in here], of)
    if to == "buildings":
        return symbology.building_count({s: building_types(state, s) for s in here}, of, at_least)
    if to == "scoring_for":
        cards = {s: box_of(state).ideology_cards[state.councilors[s].ideology_card] for s in here
                 if state.councilors[s].ideology_card}
        return symbology.scoring_for(cards, of)
    return keyword_holders(state, to)  # a Keyword: absent holders get Legacy effects only


def box_steps(boxes, actor: int | None = None, source: str = "") -> list[tuple[str, dict]]:
    """Flow steps resolving Boxes in printed order (each works out its targets when its turn
    comes: QD-286, QD-293)."""
    return [(box_step, {"b": msgspec.to_builtins(b), "actor": actor, "source": source}) for b in boxes]


def run_boxes(ctx: Ctx, boxes, actor: int | None = None, source: str = "") -> None:
    ctx.push_all(box_steps(boxes, actor, source))


def band_steps(state: QDState, band: str) -> list[tuple[str, dict]]:
    """Box steps of every Chronicle in play acting in `band` (QD-322..332), their Herald as actor."""
    box = box_of(state)
    return [step for ch in state.chronicles if band in box.chronicles[ch.code].bands
            for step in box_steps(box.chronicles[ch.code].boxes, ch.herald, ch.code)]


@steps("box")
def box_step(ctx: Ctx, b: dict, actor: int | None, source: str) -> None:
    state: QDState = ctx.state
    trig = b.get("trigger")
    if trig and not symbology.triggered(trig["when"], trig["ideology"], state.board):
        ctx.emit("box_skipped", source=source, target=b.get("to", "self"), trigger=trig)
        return
    seats = targets(state, b.get("to", "self"), b.get("of", ""), b.get("at_least", 1), actor)
    effects = b.get("effects", [])
    ctx.emit("box", source=source, target=b.get("to", "self"), seats=seats)
    region = b["to"] if b.get("to") in box_of(state).regions else ""
    run_effects(ctx, seats, effects, source, region=region)


@steps("run_effects")
def run_effects_step(ctx: Ctx, seats: list[int], effects: list[dict], source: str) -> None:
    run_effects(ctx, seats, effects, source)


def run_effects(ctx: Ctx, seats: list[int], effects: list[dict], source: str, region: str = "") -> None:
    """Each effect in order, for every target (table-wide effects once)."""
    work = []
    for e in effects:
        if e["op"] in GLOBAL_OPS:
            work.append((effect, {"seat": seats[0] if seats else None, "e": e, "source": source, "region": region}))
        else:
            work += [(effect, {"seat": s, "e": e, "source": source, "region": region}) for s in seats]
    ctx.push_all(work)


def amount(state: QDState, e: dict) -> int:
    timeline = box_of(state).timeline
    return timeline[state.game_number - 1].bag if e.get("bag") else e.get("n", 1)


@steps("effect")
def effect(ctx: Ctx, seat: int | None, e: dict, source: str, region: str = "") -> None:
    state: QDState = ctx.state
    op = e["op"]
    if seat is not None and state.councilors[seat].absent and op not in LEGACY_OPS + GLOBAL_OPS:
        return  # QD-117, QD-120: an absent player only receives Legacy effects
    handler = EFFECTS[op]
    handler(ctx, seat, e, source, region)


def _gain(ctx, seat, e, source, region):
    p = ctx.state.councilors[seat]
    n = amount(ctx.state, e)
    what = e["what"]
    if what in RESOURCES:
        p.resources[what] += n
    else:
        setattr(p, what, getattr(p, what) + n)
    ctx.emit("gain", seat=seat, what=what, n=n, source=source)


def _lose(ctx, seat, e, source, region):
    state: QDState = ctx.state
    p = state.councilors[seat]
    n = amount(state, e)
    if e["what"] == "power":  # lost Power goes to the Pool; a shortfall is just lost (QD-275, QD-276)
        lost = min(n, p.power)
        p.power -= lost
        state.power_pool += lost
        ctx.emit("lose", seat=seat, what="power", n=lost, source=source)
        return
    ctx.push(economy.forced, seat=seat, resource=e["what"], amount=n, reason=source)  # QD-277, QD-281


def _push(ctx, seat, e, source, region):
    moved = push_slider(ctx.state.board, e["ideology"], e.get("n", 1))
    ctx.emit("push", ideology=e["ideology"], n=e.get("n", 1), moved=moved, source=source)


def _envelope(ctx, seat, e, source, region):
    from plugins.queens_dilemma.rounds import open_envelope  # rounds builds on this module

    ctx.push(open_envelope, code=e["code"])


def _mystery(ctx, seat, e, source, region):
    from plugins.queens_dilemma.rounds import open_mystery  # rounds builds on this module

    ctx.push(open_mystery, code=e["code"])


def _ending(ctx, seat, e, source, region):
    attach_ending(ctx, e["code"])


def attach_ending(ctx: Ctx, code: str) -> None:
    """QD-211, QD-359: the Leader attaches the Ending on its Storyline's slot."""
    state: QDState = ctx.state
    ending = box_of(state).endings[code]
    state.campaign.endings[str(ending.storyline)] = code
    ctx.emit("ending", code=code, storyline=ending.storyline, scales=ending.scales, by=state.leader)


def _take(state: QDState, code: str) -> bool:
    """Take a Legacy element out of the tray; one that is already out stays where it is."""
    c = state.campaign
    if code in c.unlocked or code in c.trashed:
        return False
    c.unlocked.append(code)
    return True


def _agenda(ctx, seat, e, source, region):
    unlock_agenda(ctx, seat, e["code"], source)


def unlock_agenda(ctx: Ctx, seat: int, code: str, source: str) -> None:
    state: QDState = ctx.state
    card = box_of(state).agendas[code]
    diary = state.campaign.diaries[seat]
    if card.character and card.character != diary.character:
        # QD-355: a storyline card of another Character goes back to the tray
        ctx.emit("agenda_refused", seat=seat, code=code, reason="another Character's storyline")
        return
    if not _take(state, code):
        ctx.emit("agenda_already_out", seat=seat, code=code)
        return
    ctx.emit("agenda", to=[seat], public={"seat": seat}, seat=seat, code=code, source=source)
    if card.kind == "crossroad":  # QD-349: resolved at once, or held by an absent player
        if state.councilors[seat].absent:
            from plugins.queens_dilemma.absence import hold_crossroad  # (it builds on this module)

            hold_crossroad(ctx, seat, code)
            return
        ask_crossroad(ctx, seat, code)
        return
    if card.kind == "epilogue":  # QD-350: the reward at once (fate, then an Ongoing Agenda)
        state.campaign.trashed.append(code)
        run_effects(ctx, [seat], msgspec.to_builtins(card.reward), f"agenda {code}")
        return
    deadline = None if card.kind == "ongoing" else (card.deadline or state.game_number + 3)  # QD-354
    diary.agendas.append(HeldAgenda(code=code, deadline=deadline))


def ask_crossroad(ctx: Ctx, seat: int, code: str) -> None:
    card = box_of(ctx.state).agendas[code]
    options = [Action("crossroad", {"code": code, "option": i}) for i in range(len(card.options))]
    ctx.prompt(seat, "crossroad", options, crossroad, text=f"{card.title}: choose", code=code)


@steps("crossroad")
def crossroad(ctx: Ctx, seat: int, params: dict, code: str) -> None:
    card = box_of(ctx.state).agendas[code]
    option = card.options[params["option"]]
    ctx.state.campaign.trashed.append(code)
    ctx.emit("crossroad", to=[seat], public={"seat": seat}, seat=seat, code=code, option=option.label)
    run_effects(ctx, [seat], msgspec.to_builtins(option.effects), f"agenda {code}")


def _ongoing(ctx, seat, e, source, region):
    draw_ongoing(ctx, seat, exclude="")


def draw_ongoing(ctx: Ctx, seat: int, exclude: str) -> None:
    pool = [c for c in ctx.state.campaign.ongoing_pool if c != exclude]
    if not pool:
        ctx.emit("no_ongoing_left", seat=seat)
        return
    code = chance.pick(ctx, pool, "ongoing agenda", to=[seat])  # held secretly by its seat
    ctx.state.campaign.ongoing_pool.remove(code)
    ctx.state.campaign.diaries[seat].agendas.append(HeldAgenda(code=code, deadline=None))
    ctx.emit("agenda", to=[seat], public={"seat": seat}, seat=seat, code=code, source="ongoing")


def _chronicle(ctx, seat, e, source, region):
    """QD-333, QD-337: Branded by the target (unless pre-printed or herald-less) and shuffled
    into the unlocked deck; it does nothing this game."""
    state: QDState = ctx.state
    code = e["code"]
    if not _take(state, code):
        return
    card = box_of(state).chronicles[code]
    herald = seat if card.herald == "brand" else None
    state.campaign.chronicle_deck.append(ChronicleRecord(code=code, herald=herald))
    ctx.emit("chronicle_unlocked", code=code, herald=herald, source=source)


def _building(ctx, seat, e, source, region):
    state: QDState = ctx.state
    code = e["code"]
    if code in state.campaign.unlocked:
        return
    b = box_of(state).buildings[code]
    diary = state.campaign.diaries[seat]
    fixed = b.region or region  # QD-308, QD-309
    if fixed:
        place_building(ctx, seat, {"region": fixed}, code)
        return
    own = diary.regions + diary.vassals
    chooser = state.leader if state.councilors[seat].absent else seat  # QD-124
    ctx.ask(chooser, "build", [Action("build", {"region": r}) for r in own], place_building,
            text=f"Place Building {code} in one of {seat_name(seat)}'s Regions", code=code, owner=seat)


@steps("place_building")
def place_building(ctx: Ctx, seat: int, params: dict, code: str, owner: int | None = None) -> None:
    owner = seat if owner is None else owner
    state: QDState = ctx.state
    if not _take(state, code):
        return
    state.campaign.diaries[owner].buildings[code] = params["region"]
    ctx.emit("building", seat=owner, code=code, region=params["region"])


def _keyword(ctx, seat, e, source, region):
    if _take(ctx.state, e["code"]):
        ctx.state.campaign.diaries[seat].keywords.append(e["code"])
        ctx.emit("keyword", seat=seat, code=e["code"], name=box_of(ctx.state).keywords[e["code"]].name)


def _skill(ctx, seat, e, source, region):
    state: QDState = ctx.state
    if not _take(state, e["code"]):
        return
    diary = state.campaign.diaries[seat]
    if len(diary.skills) >= box_of(state).board.skill_spaces:  # QD-301: cover one
        options = [Action("cover", {"skill": s.code}) for s in diary.skills]
        # an absent player's is covered by the Leader's choice, as their Buildings are placed (QD-124)
        chooser = state.leader if state.councilors[seat].absent else seat
        if chooser == seat:
            ctx.prompt(seat, "cover_skill", options, cover, text="No free Skill space: cover a Skill", new=e["code"])
        else:
            ctx.prompt(chooser, "cover_skill", options, cover, text=f"No free Skill space for {seat_name(seat)}: "
                       "cover one of their Skills", new=e["code"], owner=seat)
        return
    diary.skills.append(HeldSkill(code=e["code"]))
    ctx.emit("skill", seat=seat, code=e["code"])


@steps("cover")
def cover(ctx: Ctx, seat: int, params: dict, new: str, owner: int | None = None) -> None:
    seat = seat if owner is None else owner  # `seat` chose: the Leader, for an absent owner
    diary = ctx.state.campaign.diaries[seat]
    diary.skills = [s for s in diary.skills if s.code != params["skill"]]
    diary.covered_skills.append(params["skill"])
    diary.skills.append(HeldSkill(code=new))
    ctx.emit("skill", seat=seat, code=new, covered=params["skill"])


def _fate(ctx, seat, e, source, region):
    ctx.state.campaign.diaries[seat].fate = e["fate"]
    ctx.emit("fate", seat=seat, fate=e["fate"])


EFFECTS = {"gain": _gain, "lose": _lose, "push": _push, "envelope": _envelope, "mystery": _mystery,
           "ending": _ending, "agenda": _agenda, "ongoing": _ongoing, "chronicle": _chronicle,
           "building": _building, "keyword": _keyword, "skill": _skill, "fate": _fate}


def with_bag(cost: dict[str, int], bag_kind: str = "", bag: int = 0) -> dict[str, int]:
    """A printed cost plus the Timeline's Bag value in `bag_kind` (QD-345)."""
    total = dict(cost)
    if bag_kind:
        total[bag_kind] = total.get(bag_kind, 0) + bag
    return total


def pay_cost(resources: dict[str, int], cost: dict[str, int], bag_kind: str = "", bag: int = 0) -> bool:
    """A deliberate cost, Bag included: paid in full or not at all (economy.spend)."""
    return spend(resources, with_bag(cost, bag_kind, bag))


def affordable(resources: dict[str, int], cost: dict[str, int], bag_kind: str = "", bag: int = 0) -> bool:
    return can_afford(resources, with_bag(cost, bag_kind, bag))


def ideology_card(state: QDState, seat: int) -> IdeologyCard:
    return box_of(state).ideology_cards[state.councilors[seat].ideology_card]
