"""The Naturalist (FATE21, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F2101 Setup side: Resettle (`fate_c`), gain Blight Society and Spore Guides, the
  Blightkin tile by Empath (an empty ambition box `blightkin`), Blightkin Ambition into the
  booklet. Objective side, the final objective: at each chapter's end, if the seat wins
  Blightkin or nobody declared it, 1 space per system it controls holding fresh Blight.
- F2102 Blight Society (Lore): Move Blight and Repair Blight, the Blight Speaker's new
  actions (`fate_blight_speaker`: Blight in a system its holder controls, never a
  Catapult); each action in which its holder damages or destroys Blight scraps one agent of
  its supply (`blight.BLIGHT_HARMED`); before the Blight Crises of an event, its holder may
  spend 1 Psionic so that no Blight Crisis happens in the systems holding its Loyal ships
  (`event_flow.BEFORE_BLIGHT_CRISES`, `blight.CRISIS_SPARED`).
- F2103 Spore Guides (Guild, protected): Seed, a Build: the number die is rolled, then the
  holder may return its agents from the Court, each turning the die 1 (6 wraps to 1); one
  damaged Blight goes to a system without Blight in that cluster.
- F2104 Blightkin Ambition (law): a new ambition, most systems with fresh Blight controlled
  (the First Regent counting the Empire's systems, BR-121); whoever may declare Empath with a
  lead card may declare Blightkin instead. Scored with the others at the chapter's end.

Readings:
- Blightkin is declared instead of Empath with a lead card; a card's "declare any ambition"
  (Populist Demands) names the box's five, so not Blightkin (as Edenguard, `fate_guardian`).
- "Once per action": one agent per battle, per card effect, however many Blight it harmed;
  none when the supply holds no agent.
- Blight Society's Psionic is offered before the Blight Crises an event (or the Council)
  sets off, not those of a card's own effect (the Blight Speaker's Anger), and only when some
  system about to have a Blight Crisis holds the holder's Loyal ships.
- Seed: the holder picks the Court cards its returned agents come from, one at a time; a
  cluster with no system free of Blight receives nothing.
- Blightkin's Power is added as the chapter is scored, before the five base ambitions', and
  Vow of Survival (F1802) limits it as it does the others.
"""
from __future__ import annotations

from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import scoring
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.battle import ships_present
from plugins.arcs.content import box_for
from plugins.arcs.outrage import agent_returns
from plugins.arcs.scoring import score_ambition
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import board, event_flow, fates, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_blight_speaker import turned
from plugins.blighted_reach.fate_c import is_campaign
from plugins.blighted_reach.fate_redeemer import won_or_undeclared
from plugins.blighted_reach.setup import chance_roll, cluster_systems
from plugins.blighted_reach.tables import steps

NATURALIST = "FATE21"
BLIGHT_SOCIETY = "F2102"
SPORE_GUIDES = "F2103"
BLIGHTKIN_LAW = "F2104"
BLIGHTKIN, EMPATH = "blightkin", "empath"

standing("scrap_agent_for_harming_blight", "psionic_spares_blight_crises", "blightkin_ambition")


def blightkin_in_play(state) -> bool:
    return is_campaign(state) and any(BLIGHTKIN_LAW in slot for slot in state.booklet)


def society_holder(state) -> int:
    if not is_campaign(state):
        return -1
    return next((s for s, p in enumerate(state.players) if BLIGHT_SOCIETY in p.lore), -1)


def fresh_blight_controlled(state, seat: int) -> int:
    """Systems with fresh Blight that the seat controls as ambitions and objectives count it."""
    return sum(board.controls_for_scoring(state, seat, s) for s, here in state.blight.items()
               if here.fresh > 0 and s in state.systems)


# -- F2104 Blightkin: the box, declaring, counting, scoring -------------------------------------
@fates.handler("place_blightkin_tile")
def place_blightkin_tile(ctx, seat: int, card_id: str, effect) -> None:
    ctx.state.ambition_boxes.setdefault(BLIGHTKIN, [])
    ctx.emit("ambition_box_added", ambition=BLIGHTKIN, why=card_id)


@hookimpl(specname="arcs_chapter_deal", tryfirst=True)  # before the rule that deals the hands
def blightkin_box_kept(ctx):
    """The chapter's clean-up empties the boxes the base board knows; the tile stays."""
    if blightkin_in_play(ctx.state):
        ctx.state.ambition_boxes.setdefault(BLIGHTKIN, [])
    return None


def declarable(state, ambitions: list[str]) -> list[str]:
    """A lead card that may declare Empath may declare Blightkin instead."""
    if EMPATH in ambitions and BLIGHTKIN not in ambitions and blightkin_in_play(state):
        return [*ambitions, BLIGHTKIN]
    return ambitions


def blightkin_count(box, state, seat: int, ambition: str) -> int:
    """`scoring.COUNT_EXTRAS`: Blightkin counts the systems with fresh Blight controlled."""
    if ambition != BLIGHTKIN or not is_campaign(state):
        return 0
    return fresh_blight_controlled(state, seat)


scoring.COUNT_EXTRAS.append(blightkin_count)


def score_blightkin(ctx) -> dict[int, int]:
    """`arcs_chapter_scoring`: Blightkin's Power, as any ambition's (ARCS-233..240)."""
    from plugins.blighted_reach.fate_survivalist import vow_gains

    state = ctx.state
    if not state.ambition_boxes.get(BLIGHTKIN):
        return {}
    gains = score_ambition(box_for(state), state, BLIGHTKIN)
    gains = vow_gains(state, BLIGHTKIN, gains) or gains
    for seat, power in gains.items():
        state.players[seat].power += power
    ctx.emit("scored", chapter=state.chapter, ambitions=[BLIGHTKIN], power={str(s): p for s, p in gains.items()})
    return gains


def _live_in_the_garden(box, cbox, state, seat, score=None, ambition="") -> int:
    return fresh_blight_controlled(state, seat)


objectives.COUNT_RULES["controlled_system_with_fresh_blight"] = _live_in_the_garden
objectives.CONDITION_RULES["won_or_undeclared_blightkin"] = won_or_undeclared(BLIGHTKIN)


# -- F2102 Blight Society -------------------------------------------------------------------------
def harmed_blight(state, seat: int) -> None:
    """`blight.BLIGHT_HARMED`: the holder damaged or destroyed Blight: an agent scrapped."""
    if seat != society_holder(state) or state.players[seat].agents <= 0:
        return
    state.players[seat].agents -= 1
    state.scrapped_agents.append(seat)


bl.BLIGHT_HARMED.append(harmed_blight)


def sheltered(state, seat: int) -> list[str]:
    """The systems about to have a Blight Crisis that hold the seat's Loyal ships."""
    return [s for s in bl.blight_crisis_systems(campaign_box(), state) if ships_present(state, seat, s) > 0]


def psionic_slot(state, seat: int) -> int:
    return next((i for i, r in enumerate(state.players[seat].resources) if r == "psionic"), -1)


def spare_question(ctx, number: int, symbol: str) -> bool:
    """`event_flow.BEFORE_BLIGHT_CRISES`: the holder with a Psionic and ships where a Crisis
    is due may pay to prevent them there."""
    state = ctx.state
    seat = society_holder(state)
    if seat < 0 or psionic_slot(state, seat) < 0 or not sheltered(state, seat):
        return False
    options = [Action("spare_blight_crises", {"spend": False}), Action("spare_blight_crises", {"spend": True})]
    ctx.ask(seat, "spare_blight_crises", options, resume=spare_answered, number=number, symbol=symbol)
    return True


event_flow.BEFORE_BLIGHT_CRISES.append(spare_question)


@steps("naturalist_spare_answered")
def spare_answered(ctx, seat, params, number: int, symbol: str):
    state = ctx.state
    if params["spend"]:
        slot = psionic_slot(state, seat)
        state.players[seat].resources[slot] = None
        state.supply["psionic"] = state.supply.get("psionic", 0) + 1
        state.blight_spared = seat
        ctx.emit("blight_crises_spared", seat=seat, systems=sheltered(state, seat), card=BLIGHT_SOCIETY)
    ctx.push_all([(event_flow.crises_begin, {"number": number, "symbol": symbol, "asked": True}),
                  (spare_over, {})])


@steps("naturalist_spare_over")
def spare_over(ctx):
    ctx.state.blight_spared = -1


def spared(state, system: str) -> bool:
    """`blight.CRISIS_SPARED`: paid for these Crises, the holder's Loyal ships shelter their system."""
    seat = getattr(state, "blight_spared", -1)
    return seat >= 0 and system in state.systems and ships_present(state, seat, system) > 0


bl.CRISIS_SPARED.append(spared)


# -- F2103 Spore Guides: Seed ----------------------------------------------------------------------
def court_agents_of(state, seat: int) -> list[str]:
    """Court cards holding the seat's agents, in row order."""
    return [c for c, agents in state.court_agents.items() if seat < len(agents) and agents[seat] > 0]


def agents_in_court(state, seat: int) -> int:
    return sum(agents[seat] for agents in state.court_agents.values() if seat < len(agents))


@op("seed_blight", usable=lambda env, u: is_campaign(env.state))
def seed_blight(env: Env, u: Use, choice=None) -> None:
    """Seed: the number die is rolled; the holder then turns it by returning agents."""
    ctx = env.chance
    if ctx is None:  # a trial of the action (its legality): the die is rolled only for real
        return
    rolled = int(chance_roll(ctx, "seed")("number", list(campaign_box().box.number_die)))
    env.emit("seed_rolled", seat=u.seat, card=u.card, number=rolled)
    ctx.push(seed_ask, seat=u.seat, rolled=rolled)


@steps("naturalist_seed_ask")
def seed_ask(ctx, seat: int, rolled: int):
    most = agents_in_court(ctx.state, seat)
    options = [Action("seed_turn", {"shift": k}) for k in range(-most, most + 1)]
    ctx.ask(seat, "seed_turn", options, resume=seed_turned, rolled=rolled)


@steps("naturalist_seed_turned")
def seed_turned(ctx, seat, params, rolled: int):
    shift = int(params["shift"])
    cluster = turned(list(campaign_box().box.number_die), rolled, shift)
    ctx.emit("seed_turned", seat=seat, rolled=rolled, shift=shift, cluster=cluster)
    ctx.push(seed_return, seat=seat, left=abs(shift), cluster=cluster)


@steps("naturalist_seed_return")
def seed_return(ctx, seat: int, left: int, cluster: int):
    """One returned agent at a time (the holder picks its card), then the Blight placed."""
    if left > 0:
        cards = court_agents_of(ctx.state, seat)
        ctx.ask(seat, "seed_return", [Action("seed_return", {"card": c}) for c in cards],
                resume=seed_returned, left=left, cluster=cluster)
        return
    seed_place(ctx, seat, cluster)


@steps("naturalist_seed_returned")
def seed_returned(ctx, seat, params, left: int, cluster: int):
    state = ctx.state
    card = params["card"]
    state.court_agents[card][seat] -= 1
    agent_returns(state, seat)
    ctx.emit("agent_returned", seat=seat, card=card, why=SPORE_GUIDES)
    ctx.push(seed_return, seat=seat, left=left - 1, cluster=cluster)


def seed_sites(state, cluster: int) -> list[str]:
    return [s for s in cluster_systems(box_for(state), cluster) if s in state.systems and bl.blight(state, s).total == 0]


def seed_place(ctx, seat: int, cluster: int) -> None:
    sites = seed_sites(ctx.state, cluster)
    if not sites:
        ctx.emit("seed_lapsed", seat=seat, cluster=cluster)
    elif len(sites) == 1:
        _seed(ctx, seat, sites[0])
    else:
        ctx.ask(seat, "seed_place", [Action("seed_place", {"system": s}) for s in sites], resume=seed_placed)


@steps("naturalist_seed_placed")
def seed_placed(ctx, seat, params):
    _seed(ctx, seat, params["system"])


def _seed(ctx, seat: int, system: str) -> None:
    placed = bl.place_blight(ctx.state, system, damaged=True)
    ctx.emit("blight_seeded", seat=seat, card=SPORE_GUIDES, system=system, placed=placed)
