"""FATE04, the Advocate (cards F401-F426): the rules its Fate Set's cards name.

Act I: Guild Investigators (F402) attach the Court discard's top Guild card to an unagented
Court card (a new action paid with a move); Guild Overseers (F403) let their holder use the
actions of Guild cards only while placing in a declared ambition (a restriction the base
rules' abilities consult, `abilities.RESTRICTIONS`), and, once in the Court (Act II), give
their securer any Guild card of the Court deck or discard. The objective (F401) counts the
self-discarding Guild Preludes and the Recover actions while Overseers are held.
Act II: the Liaisons (F405-F409: a resource when Copying to their action, a Prelude that
attaches them to declare), Diplomatic Fiasco's When Secured (F410), Guild Struggle's Crisis
(F411), the Advocate's Demand Edict (F413); Guild Negotiations (F414) is `summits`' own.
Act III: Guild Fair (F416), the Guildmasters (F417-F421), Guilds Withdraw (F422), Guild
Loyalty (F424, `outrage.KEEPS`) and Guild Supremacy (F425, `scoring.COUNT_EXTRAS`).
Resolution F404: the Liaisons of the suits the Advocate leads go to the Court deck.
"""
from __future__ import annotations

from collections import Counter

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs import abilities, outrage, scoring
from plugins.arcs.abilities import Env, Use, op, standing
from core.state import Action
from plugins.arcs.court_ops import _chance, place_ambition_marker
from plugins.arcs.placing import gain
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.favors import take_favor
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

ADVOCATE = "FATE04"
OVERSEERS_RULE = "guild_actions_need_placing"
CARD_ACTIONS = ("prelude", "prelude_discard", "prelude_first_discard", "new_action")  # Guild card "actions"
SELF_DISCARDING = ("prelude_discard", "prelude_first_discard")
PRELUDE_DISCARD, RECOVER = "self_discarding_guild_prelude", "recover_action"  # the Act I objective's advances


def is_campaign(state) -> bool:
    return isinstance(state, BlightedReachState)


def is_guild(card: str) -> bool:
    found = rules_box().court.get(card)
    return found is not None and found.kind == "guild"


def _advance(state: BlightedReachState, per: str, count: int, seat: int) -> dict[int, int]:
    """An objective advance that happened during play (none while the markers are not out)."""
    if count <= 0 or seat >= len(state.objective_markers):
        return {}
    return objectives.advance_on_event(rules_box(), campaign_box(), state, per, count, seat=seat)


# -- Guild Overseers (F403) ----------------------------------------------------------------

standing(OVERSEERS_RULE)


def has_overseers(state: BlightedReachState, seat: int) -> bool:
    box = rules_box()
    return any(a.do == OVERSEERS_RULE for c in state.players[seat].guild if c in box.court
               for a in box.court[c].abilities)


objectives.CONDITION_RULES["has_guild_overseers"] = lambda box, cbox, state, seat, score, ambition: \
    has_overseers(state, seat)


def placing(state: BlightedReachState, seat: int) -> bool:
    """First or second place in a declared ambition: Power if it were scored now (F403)."""
    score = objectives.chapter_score(rules_box(), campaign_box(), state)
    return any(gains.get(seat, 0) > 0 for gains in score.gains.values())


def _overseers_restrict(env: Env, u: Use) -> str:
    """F403: the holder uses the Prelude actions and new actions of Guild cards (Guild
    Investigators' own included) only while placing in a declared ambition. Reading: a
    trigger that is no action (when declaring, when secured...) is not restricted."""
    state = env.state
    if (not is_campaign(state) or u.ability.when not in CARD_ACTIONS
            or u.card not in state.players[u.seat].guild or not has_overseers(state, u.seat)):
        return ""
    if placing(state, u.seat):
        return ""
    return "Guild Overseers: Guild card actions need first or second place in a declared ambition"


abilities.RESTRICTIONS.append(_overseers_restrict)


class GuildPick(msgspec.Struct, forbid_unknown_fields=True):
    card: str


def _searchable(state: BlightedReachState) -> list[str]:
    """The Guild cards of the Court discard pile (top first) and of the Court deck."""
    return [c for c in (*reversed(state.court_discard), *state.court_deck) if is_guild(c)]


@op("take_guild_from_deck_or_discard", params=GuildPick,
    candidates=lambda env, u: [{"card": c} for c in _searchable(env.state)],
    usable=lambda env, u: is_campaign(env.state) and bool(_searchable(env.state)))
def take_guild(env: Env, u: Use, choice: GuildPick) -> None:
    """Guild Overseers when secured: take any 1 Guild card from the Court deck or discard.
    Reading: the securer is shown both piles to choose (the options list them), so the deck
    was searched and is shuffled whichever pile the card came from."""
    state = env.state
    if choice.card not in _searchable(state):
        raise BadParameter(f"{choice.card!r} is no Guild card of the Court deck or discard")
    pile = state.court_discard if choice.card in state.court_discard else state.court_deck
    pile.remove(choice.card)
    state.players[u.seat].guild.append(choice.card)
    chance.shuffle(_chance(env), state.court_deck, "court deck")
    env.emit("guild_taken", seat=u.seat, card=choice.card, why=u.card)


# -- Guild Investigators (F402) ------------------------------------------------------------


def top_discarded_guild(state: BlightedReachState) -> str | None:
    """The topmost Guild card of the Court discard pile (its top is the last discarded)."""
    return next((c for c in reversed(state.court_discard) if is_guild(c)), None)


def unagented_hosts(state: BlightedReachState) -> list[str]:
    """Court cards with no agents and nothing attached yet (BR-314); the Imperial Council
    is a card in the Court too (F423's note)."""
    return [c for c in state.court_row if c and c not in state.attached and not sum(state.court_agents.get(c, []))]


class Host(msgspec.Struct, forbid_unknown_fields=True):
    card: str


def _recover_usable(env: Env, u: Use) -> bool:
    return is_campaign(env.state) and top_discarded_guild(env.state) is not None and bool(unagented_hosts(env.state))


@op("recover_guild_from_discard", params=Host,
    candidates=lambda env, u: [{"card": c} for c in unagented_hosts(env.state)], usable=_recover_usable)
def recover(env: Env, u: Use, choice: Host) -> None:
    """Recover (Move): the discard's topmost Guild card goes above the chosen Court card.
    Reading: the action is taken only where it can attach as printed (it is not a forced
    attach, BR-316). While the Overseers are held, the Act I objective advances 2."""
    state = env.state
    if choice.card not in unagented_hosts(state):
        raise IllegalAction(f"{choice.card!r} is no Court card without agents or an attached card")
    card = top_discarded_guild(state)
    state.court_discard.remove(card)
    state.attached[choice.card] = card
    env.emit("card_attached", seat=u.seat, card=card, host=choice.card, why=u.card)
    moved = _advance(state, RECOVER, 1, u.seat)
    if moved:
        env.emit("objective_advanced", seat=u.seat, why=RECOVER, moved=moved[u.seat])


def ability_used(ctx, seat: int, card: str, when: str) -> None:
    """`arcs_ability_used`: a Guild card's Prelude that discarded itself advances the
    Advocate's Act I objective 3 (while the Overseers are held: its `only_if`)."""
    state = ctx.state
    if not is_campaign(state) or when not in SELF_DISCARDING or not is_guild(card):
        return
    moved = _advance(state, PRELUDE_DISCARD, 1, seat)
    if moved:
        ctx.emit("objective_advanced", seat=seat, why=PRELUDE_DISCARD, moved=moved[seat])


# -- Resolution (F404) --------------------------------------------------------------------


def suits_led(state: BlightedReachState, seat: int) -> set[str]:
    """The Guild suits of which the seat holds more cards than each Rival."""
    box = rules_box()

    def suits(s: int) -> Counter:
        return Counter(box.court[c].suit for c in state.players[s].guild if c in box.court)

    mine = suits(seat)
    rivals = [suits(r) for r in range(len(state.players)) if r != seat]
    return {suit for suit, n in mine.items() if suit and all(n > r[suit] for r in rivals)}


@fates.handler("liaisons_of_leading_suits_to_court")
def liaisons_to_court(ctx, seat: int, card_id: str, effect) -> None:
    """F404 failure: each Liaison whose suit the Advocate leads (more Guild cards of it than
    each Rival) goes into the Court deck; the other Liaisons are scrapped."""
    state = ctx.state
    cbox = campaign_box()
    led = suits_led(state, seat)
    joined = [c for c in effect.cards if cbox.fate_cards[c].suit in led and lift(state, c)]
    scrapped = [c for c in effect.cards if c not in joined and lift(state, c)]
    state.court_deck.extend(joined)
    if joined:
        chance.shuffle(ctx, state.court_deck, "court deck")
    state.scrapped.extend(c for c in scrapped if c not in state.scrapped)
    ctx.emit("liaisons_resolved", seat=seat, to_court=joined, scrapped=scrapped, why=card_id)


# -- Act II: the Liaisons (F405-F409) ------------------------------------------------------


def copied(ctx, seat: int, action: str | None) -> None:
    """`arcs_copied`: a Liaison's holder Copying to its action gains 1 of its resource (BR-312).
    Reading: the gain is always taken (an unwanted token can be let go when placing)."""
    state = ctx.state
    if not is_campaign(state) or action is None:
        return
    for use in abilities.held(state, rules_box(), seat, "copy"):
        if use.ability.do == "gain" and use.ability.action == action:
            got = sum(gain(state, seat, use.ability.resource) for _ in range(max(use.ability.count, 1)))
            ctx.emit("resources_gained", seat=seat, card=use.card, resources={use.ability.resource: got},
                     why="copy")


def _liaison_hosts(env: Env, u: Use) -> list[str]:
    if not env.state.markers_available or u.card not in env.state.players[u.seat].guild:
        return []
    return unagented_hosts(env.state)


@op("attach_to_unagented_card_and_declare", params=Host,
    candidates=lambda env, u: [{"card": c} for c in _liaison_hosts(env, u)],
    usable=lambda env, u: is_campaign(env.state) and bool(_liaison_hosts(env, u)))
def liaison_declares(env: Env, u: Use, choice: Host) -> None:
    """A Liaison's Prelude (BR-313): it leaves its holder to sit above a Court card with no
    agents (BR-314) and its ambition is declared (no zero marker: it names no lead card).
    Reading: as any card that declares (Populist Demands), an Available marker is needed,
    not a round without a declaration."""
    state = env.state
    if choice.card not in _liaison_hosts(env, u):
        raise IllegalAction(f"{choice.card!r} is no Court card without agents or an attached card")
    ambition = u.ability.ambitions[0]
    state.players[u.seat].guild.remove(u.card)
    state.attached[choice.card] = u.card
    marker = place_ambition_marker(env.box, state, ambition)
    env.moment.declared = ambition
    env.emit("card_attached", seat=u.seat, card=u.card, host=choice.card, why=u.card)
    env.emit("ambition_declared", seat=u.seat, ambition=ambition, marker=marker.id, card=u.card)


# -- Guild Struggle (F411) -----------------------------------------------------------------


def _passable(cbox, state: BlightedReachState, seat: int) -> list[str]:
    from plugins.blighted_reach.crises import protected

    return [c for c in state.players[seat].guild if not protected(cbox, c)]


def _struggle_plan(call) -> list[tuple[int, int]]:
    """(giver, receiver) in turn order, each to their left (the next seat clockwise)."""
    from plugins.blighted_reach.crises import turn_order

    n = len(call.state.players)
    return [(s, (s + 1) % n) for s in turn_order(call.state)]


def _struggle_decisions(call) -> list:
    """Reading: "the card they were given" cannot be passed on, so the choices are read as
    the passes go: each seat picks from the cards it held before the Crisis (a seat given a
    card before its own turn keeps that one); protected cards are never given (BR-309)."""
    from plugins.blighted_reach.crises import Decision

    out = []
    for giver, _ in _struggle_plan(call):
        options = [{"card": c} for c in _passable(call.cbox, call.state, giver)]
        if options:
            out.append(Decision(giver, "each_passes_guild_left", call.card, options))
    return out


def _struggle_check(call) -> None:
    for d in _struggle_decisions(call):
        picked = call.answers.get(d.seat, {}).get("card")
        if {"card": picked} not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} must pass one of its own Guild cards, not {picked!r}")


def _struggle_apply(call) -> dict:
    state = call.state
    passed = {}
    for giver, receiver in _struggle_plan(call):
        card = call.answers.get(giver, {}).get("card")
        if card is None or card not in state.players[giver].guild:
            continue
        state.players[giver].guild.remove(card)
        state.players[receiver].guild.append(card)
        passed[giver] = card
    return {"event": "guilds_passed", "card": call.card, "passed": passed}


def _register_crises() -> None:
    from plugins.blighted_reach import crises

    crises.FATE_CRISIS_HANDLERS["each_passes_guild_left"] = crises.CrisisHandler(
        apply=_struggle_apply, decisions=_struggle_decisions, check=_struggle_check)


_register_crises()


# -- Advocate's Demand (F413, an Edict) --------------------------------------------------------


def advocate_seat(state: BlightedReachState) -> int:
    return state.fates.index(ADVOCATE) if ADVOCATE in state.fates else -1


def options_demand(state: BlightedReachState, advocate: int) -> list[dict]:
    """The Rivals' Guild cards whose suit matches none of the Advocate's Guild cards
    (protected ones too: the Demand is no theft, F413's note)."""
    box = rules_box()
    mine = {box.court[c].suit for c in state.players[advocate].guild if c in box.court}
    return [{"rival": r, "card": c} for r in range(len(state.players)) if r != advocate
            for c in state.players[r].guild if c in box.court and box.court[c].suit not in mine]


@fates.handler("advocates_demand")
def advocates_demand(ctx, seat: int, card_id: str, effect) -> None:
    """F413 at the Edicts: scrapped if the Advocate is not in play; otherwise the Advocate
    may name one Rival Guild card (`options_demand`), or none."""
    state = ctx.state
    advocate = advocate_seat(state)
    if advocate < 0:
        for slot in state.booklet:
            if card_id in slot:
                slot.remove(card_id)
        state.booklet = [slot for slot in state.booklet if slot]
        state.scrapped.append(card_id)
        ctx.emit("booklet_scrapped", card=card_id, why="the Advocate is not in play")
        return
    options = options_demand(state, advocate)
    if options:
        choices = [{"rival": -1, "card": ""}, *options]  # naming none is allowed ("may")
        ctx.ask(advocate, "advocates_demand", [Action("advocates_demand", o) for o in choices], resume=demand_named)


@steps("advocates_demand_named")
def demand_named(ctx, seat, params):
    """The named Rival answers: give the card (and take 1 Favor from the Advocate), or give
    the Advocate 1 Favor. Reading (G-3): a Rival with no agent in supply can only give the
    card; an Advocate with no agent left gives no Favor for it."""
    state = ctx.state
    rival, card = params["rival"], params["card"]
    if rival < 0:
        return
    choices = [Action("answer_demand", {"give": "card"})]
    if state.players[rival].agents > 0:
        choices.append(Action("answer_demand", {"give": "favor"}))
    ctx.ask(rival, "answer_demand", choices, resume=demand_answered, advocate=seat, card=card)


@steps("advocates_demand_answered")
def demand_answered(ctx, seat, params, advocate: int, card: str):
    state = ctx.state
    if params["give"] == "favor":
        take_favor(state, advocate, seat)  # the Rival's agent onto the Advocate's Fate card
        ctx.emit("favor_given", seat=seat, advocate=advocate, why="advocates_demand")
        return
    state.players[seat].guild.remove(card)
    state.players[advocate].guild.append(card)
    favor = state.players[advocate].agents > 0
    if favor:
        take_favor(state, seat, advocate)  # the Advocate's agent onto the Rival's Fate card
    ctx.emit("guild_given", seat=seat, advocate=advocate, card=card, favor=favor, why="advocates_demand")


# -- Act III: securing by a card (Guild Fair, F416) -------------------------------------------------


def can_secure(state: BlightedReachState, seat: int, card: str) -> bool:
    """ARCS-162: strictly more agents on the card than each Rival (and at least one)."""
    agents = state.court_agents.get(card, [])
    return bool(agents) and agents[seat] > 0 and all(agents[seat] > n for s, n in enumerate(agents) if s != seat)


def securable_guilds(state: BlightedReachState, seat: int) -> list[str]:
    return [c for c in state.court_row if c and is_guild(c) and can_secure(state, seat, c)]


@steps("guild_fair_secures")
def guild_fair_secures(ctx, seat: int, card: str, taken: list | None = None):
    """Guild Fair (F416) has `seat` secure the leftmost Guild card it can, as a secure action
    does (`court_flow.take`): Rival agents captured, the card's own When Secured (Guild
    Overseers, F403) and its attached card's (BR-315, an Armistice's F216) resolved, the place
    refilled, the after-secure abilities offered. Then the next one, once those are done:
    what it "currently can" secure is read again after each (an Armistice may have moved its
    agents onto another Guild card)."""
    from plugins.arcs import court_flow

    taken = list(taken or [])
    found = securable_guilds(ctx.state, seat)
    if not found:
        ctx.emit("guild_fair_secured", seat=seat, card=card, secured=taken)
        return
    ctx.push(guild_fair_secures, seat=seat, card=card, taken=[*taken, found[0]])
    court_flow.take(ctx, seat, found[0], rivals_to="captives")


def _fair_crisis(call) -> dict:
    """Guild Fair's Crisis: in turn order, each player secures every Guild card they can.
    The secures are the flow's (`_fair_crisis_secures`): a secure resolves When Secured
    effects, which may ask for choices. Here only the order is reported."""
    from plugins.blighted_reach.crises import turn_order

    return {"event": "guild_fair", "card": call.card, "order": turn_order(call.state)}


def _fair_crisis_secures(call) -> list:
    from plugins.blighted_reach.crises import turn_order

    return [(guild_fair_secures, {"seat": s, "card": call.card}) for s in turn_order(call.state)]


def _return_rival_agents_from_guilds(state: BlightedReachState, seat: int) -> dict[str, int]:
    """Every Rival agent on a Guild card in the Court goes home; returns how many each owner got back."""
    from plugins.arcs.outrage import agent_returns

    returned: Counter = Counter()
    for court_card in [c for c in state.court_row if c and is_guild(c)]:
        agents = state.court_agents.get(court_card, [])
        for owner, n in enumerate(agents):
            if owner != seat and n:
                agent_returns(state, owner, n)
                agents[owner] = 0
                returned[str(owner)] += n
    return dict(returned)


@op("guild_fair", usable=lambda env, u: is_campaign(env.state))
def guild_fair(env: Env, u: Use, _: None) -> None:
    """Guild Fair when secured: every Rival agent on a Guild card in the Court goes home,
    then the securer secures every Guild card they can, each as a secure action would
    (`guild_fair_secures`, after this effect). Outside a flow (the trial of the choice)
    only the agents go home."""
    returned = _return_rival_agents_from_guilds(env.state, u.seat)
    env.emit("guild_fair", seat=u.seat, returned=returned)
    if env.chance is not None:
        env.chance.push(guild_fair_secures, seat=u.seat, card=u.card)


# -- Act III: the Guildmasters (F417-F421) -------------------------------------------------------


def _guildmaster_targets(env: Env, u: Use) -> list[dict]:
    """Unprotected Guild cards of the card's suit that Rivals hold and may lose (Sworn
    Guardians guard theirs), while the ambition just declared is the card's."""
    from plugins.arcs.court_ops import _stealable_guilds
    from plugins.blighted_reach.crises import protected

    state = env.state
    if not is_campaign(state) or env.moment.declared not in u.ability.ambitions:
        return []
    box, cbox = rules_box(), campaign_box()
    return [{"rival": r, "card": c} for r in range(len(state.players)) if r != u.seat
            for c in _stealable_guilds(box, state, r)
            if box.court[c].suit == u.ability.resource and not protected(cbox, c)]


class GuildSteal(msgspec.Struct, forbid_unknown_fields=True):
    rival: int
    card: str


def _window_open(env: Env, u: Use) -> bool:
    from plugins.arcs.lore_ops import window

    w = window(env.state, u.seat, u.ability.when)
    return w is not None and f"{u.card}:{u.index}" in w["open"]


@op("steal_guild_of_suit", params=GuildSteal, candidates=_guildmaster_targets,
    usable=lambda env, u: _window_open(env, u) and bool(_guildmaster_targets(env, u)))
def guildmaster_steals(env: Env, u: Use, choice: GuildSteal) -> None:
    """A Guildmasters card: declaring its ambition, its holder may steal a Guild card of its
    suit from a Rival (protected ones cannot be stolen, BR-309)."""
    from plugins.arcs.court_ops import _steal_guild
    from plugins.arcs.lore_ops import window

    if msgspec.to_builtins(choice) not in _guildmaster_targets(env, u):
        raise IllegalAction(f"{u.card} cannot steal {choice.card!r} from {seat_name(choice.rival)}")
    window(env.state, u.seat, u.ability.when)["open"].remove(f"{u.card}:{u.index}")
    kept = _steal_guild(rules_box(), env.state, u.seat, choice.rival, choice.card)
    env.emit("guild_stolen", seat=u.seat, rival=choice.rival, card=choice.card, buried=not kept)


# -- Act III: Guilds Withdraw (F422) ---------------------------------------------------------------


def _buryable(state: BlightedReachState, seat: int) -> list[str]:
    from plugins.blighted_reach.crises import protected

    return [c for c in state.players[seat].guild if not protected(campaign_box(), c)]


def _withdraw_decisions(call) -> list:
    """Each player in turn order picks one of its unprotected Guild cards (BR-309: a
    protected card cannot be removed); one with none buries nothing (G-3)."""
    from plugins.blighted_reach.crises import Decision, turn_order

    return [Decision(s, "each_buries_a_guild", call.card, [{"card": c} for c in _buryable(call.state, s)])
            for s in turn_order(call.state) if _buryable(call.state, s)]


def _withdraw_check(call) -> None:
    for d in _withdraw_decisions(call):
        if call.answers.get(d.seat) not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} must bury one of its own unprotected Guild cards")


def _withdraw_apply(call) -> dict:
    buried = {}
    for d in _withdraw_decisions(call):
        card = call.answers[d.seat]["card"]
        call.state.players[d.seat].guild.remove(card)
        call.state.court_deck.append(card)  # BR-228: the bottom of the Court deck
        buried[d.seat] = card
    return {"event": "guilds_buried", "card": call.card, "buried": buried}


def _register_act_three_crises() -> None:
    from plugins.blighted_reach import crises

    crises.FATE_CRISIS_HANDLERS["everyone_secures_what_they_can"] = crises.CrisisHandler(
        apply=_fair_crisis, then=_fair_crisis_secures)
    crises.FATE_CRISIS_HANDLERS["each_buries_a_guild"] = crises.CrisisHandler(
        apply=_withdraw_apply, decisions=_withdraw_decisions, check=_withdraw_check)


_register_act_three_crises()


@op("rivals_bury_a_guild", usable=lambda env, u: is_campaign(env.state))
def rivals_bury(env: Env, u: Use, _: None) -> None:
    """Guilds Withdraw when secured: each Rival must bury 1 Guild card, their own choice,
    asked after this effect (in turn order from the securer's left)."""
    if env.chance is None:
        return  # a trial of the choice: the Rivals are asked when it is made for real
    n = len(env.state.players)
    for rival in reversed([(u.seat + i) % n for i in range(1, n)]):
        env.chance.push(rival_buries, seat=rival)


@steps("advocate_rival_buries")
def rival_buries(ctx, seat: int):
    options = _buryable(ctx.state, seat)
    if options:
        ctx.ask(seat, "bury_guild", [Action("bury_guild", {"card": c}) for c in options], resume=rival_buried)


@steps("advocate_rival_buried")
def rival_buried(ctx, seat, params):
    ctx.state.players[seat].guild.remove(params["card"])
    ctx.state.court_deck.append(params["card"])
    ctx.emit("guild_buried", seat=seat, card=params["card"], why="guilds_withdraw")


# -- Act III: the setup, Guild Loyalty and Guild Supremacy (F423-F426) ----------------------------


@fates.handler("reminder_by_ambitions")
def supremacy_reminder(ctx, seat: int, card_id: str, effect) -> None:
    """F423: the second Guild Supremacy lies by the ambition boxes as a reminder. Reading: it
    is kept with the Advocate's play area; the rule itself is the booklet's (F425)."""
    state = ctx.state
    for card in effect.cards:
        if lift(state, card):
            state.play_area[seat].append(card)
    ctx.emit("reminder", seat=seat, cards=list(effect.cards), why=card_id)


SUPREMACY = "guild_cards_count_twice"
standing("keep_guild_cards", SUPREMACY)


def supremacy_in_force(state: BlightedReachState) -> bool:
    cbox = campaign_box()
    return any(c in cbox.fate_cards and any(e.handler == SUPREMACY for e in cbox.fate_cards[c].abilities)
               for slot in state.booklet for c in slot)


def _count_guilds_again(box, state, seat: int, ambition: str) -> int:
    """F425 Guild Supremacy: a Guild card counts twice when scoring: each one counted toward
    the ambition (its suit's icon: ICONS, and Weapons for Warlord under War Profiteering)
    is counted once more."""
    from plugins.arcs.scoring import ICONS
    from plugins.blighted_reach.fate_magnate import war_profiteering

    if not is_campaign(state) or not supremacy_in_force(state):
        return 0
    kinds = set(ICONS.get(ambition, ()))
    if ambition == "warlord" and war_profiteering(campaign_box(), state):
        kinds.add("weapon")
    rb = rules_box()
    return sum(rb.court[c].suit in kinds for c in state.players[seat].guild if c in rb.court)


scoring.COUNT_EXTRAS.append(_count_guilds_again)


def keeps_guild_cards(box, state, seat: int, card: str) -> bool:
    """F424 Guild Loyalty: its holder Provoking Outrage discards no Guild card."""
    return is_campaign(state) and any(a.do == "keep_guild_cards" for c in state.players[seat].lore
                                      if c in rules_box().lore for a in rules_box().lore[c].abilities)


outrage.KEEPS.append(keeps_guild_cards)


# -- Diplomatic Fiasco when secured (F410, the reprint of CC13) -----------------------------


@op("rivals_resolve_crisis", usable=lambda env, u: is_campaign(env.state))
def fiasco_for_rivals(env: Env, u: Use, _: None) -> None:
    """Diplomatic Fiasco when secured (BR-230): the securer's Rivals resolve its Crisis, in
    turn order, each choosing which of its unprotected Guild cards go (BR-229); asked after
    this effect."""
    from plugins.blighted_reach.crises import turn_order

    if env.chance is None:
        return  # a trial of the choice: the Rivals are asked when it is made for real
    for rival in reversed([s for s in turn_order(env.state) if s != u.seat]):
        env.chance.push(rival_fiasco, seat=rival)


@steps("advocate_rival_fiasco")
def rival_fiasco(ctx, seat: int):
    from plugins.blighted_reach.crises import options_fiasco

    options = options_fiasco(campaign_box(), ctx.state, seat)
    if options:
        ctx.ask(seat, "fiasco_discard", [Action("fiasco_discard", o) for o in options], resume=rival_fiasco_done)


@steps("advocate_rival_fiasco_done")
def rival_fiasco_done(ctx, seat, params):
    from plugins.blighted_reach.crises import fiasco_discard

    fiasco_discard(campaign_box(), ctx.state, seat, list(params["discard"]))
    ctx.emit("guilds_discarded", seat=seat, cards=list(params["discard"]), why="diplomatic_fiasco")
