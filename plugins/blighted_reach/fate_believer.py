"""The Believer (FATE08, cards F801-F831): the nine Faithful action cards and the laws of
their Faith.

The Faithful cards (F804-F812, numbered "1" to "9") start in a public stack, the "9" on
top (`BlightedReachState.faithful_stack`, top first). From there they are attached to Court
cards (Spreading the Faith), secured into hands and played like action cards, each on one
of its two sides: Zeal (move, influence, battle, tax) or Wisdom (build, repair, secure).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs.abilities import op, standing
from plugins.blighted_reach import fates
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.objectives import CONDITION_RULES, COUNT_RULES, GOAL_RULES
from plugins.blighted_reach.tables import steps
from plugins.blighted_reach.state import BlightedReachState

BELIEVER = "FATE08"
FAITHFUL = ("F804", "F805", "F806", "F807", "F808", "F809", "F810", "F811", "F812")  # "1" .. "9"


def number(card: str) -> int:
    """A Faithful card's number: F804 is the "1", F812 the "9"."""
    return FAITHFUL.index(card) + 1


def is_faithful(card: str) -> bool:
    return card in FAITHFUL


# -- Act I setup (F801) --------------------------------------------------------------------------
@fates.handler("stack_faithful_cards_nine_on_top")
def stack_faithful_cards(ctx, seat: int, card_id: str, effect) -> None:
    """F801: the nine Faithful cards in number order, the "1" at the bottom and the "9" on
    top (the effect names them; the stack is public)."""
    state: BlightedReachState = ctx.state
    cards = list(effect.cards) if effect is not None and effect.cards else list(FAITHFUL)
    state.faithful_stack = sorted(cards, key=number, reverse=True)
    ctx.emit("faithful_stacked", seat=seat, card=card_id, stack=list(state.faithful_stack))


# -- invariants ----------------------------------------------------------------------------------
def places_of(state: BlightedReachState, card: str) -> list[str]:
    """Every place holding `card` (one, for a sound table; none before the Believer's setup)."""
    from plugins.arcs.plays import hand_id

    found = [name for name in ("faithful_stack", "court_deck", "court_discard", "resolving", "scrapped",
                               "action_deck", "action_discard", "action_discard_up", "facedown")
             for c in getattr(state, name) if hand_id(c) == card]
    found += ["court_row" for c in state.court_row if c == card]
    found += ["attached" for c in state.attached.values() if c == card]
    found += [f"hand:{s}" for s, hand in enumerate(state.hands) for c in hand if c == card]
    found += ["played" for p in state.plays if p.card and hand_id(p.card) == card]
    return found


def faithful_problems(state: BlightedReachState) -> list[str]:
    """Once any Faithful card is in play, all nine are, each in exactly one place."""
    where = {card: places_of(state, card) for card in FAITHFUL}
    if not any(where.values()):
        return []
    return [f"the Faithful card {card} is in {len(found)} places ({', '.join(found) or 'none'})"
            for card, found in where.items() if len(found) != 1]


# -- the Faithful cards as action cards (F813) ---------------------------------------------------
ZEAL, WISDOM = "zeal", "wisdom"
SIDE_ACTIONS = {ZEAL: ["move", "influence", "battle", "tax"], WISDOM: ["build", "repair", "secure"]}
# Reading: the card library gives the Faithful cards no pips or ambitions (they carry no
# text). Their pips follow the base Administration suit's curve by number, the "8" and
# "9" with 1 pip like the "7"; the "2"-"6" declare the ambition their number declares on a
# base card, the "7" any, the "1", "8" and "9" none (Pluralistic Faith lets a Faithful lead
# declare any ambition in Act I).
PIPS = {1: 4, 2: 4, 3: 3, 4: 3, 5: 3, 6: 2, 7: 1, 8: 1, 9: 1}
EMPTY_STACK_ADVANCE = 10  # F801B: an empty stack counts as 10 pips


def side_id(card: str, side: str) -> str:
    from plugins.arcs.plays import SIDE

    return f"{card}{SIDE}{side}"


def side_of(played: str) -> str:
    """"zeal"/"wisdom" for a played Faithful side, "" for any other card."""
    from plugins.arcs.plays import SIDE, hand_id

    return played.split(SIDE, 1)[1] if is_faithful(hand_id(played)) and SIDE in played else ""


def with_faithful_sides(actions):
    """The base action data with each Faithful card's two sides as action cards of the suits
    Zeal and Wisdom (the campaign's rules box), and the numbers 8 and 9 declaring nothing."""
    import msgspec

    from plugins.arcs.content import ActionCard

    sides = [ActionCard(id=side_id(card, side), suit=side, number=number(card), pips=PIPS[number(card)],
                        seven_seizes=False)  # F813: a Faithful "7" Surpasses without seizing
             for card in FAITHFUL for side in (ZEAL, WISDOM)]
    return msgspec.structs.replace(
        actions, suits={**actions.suits, **SIDE_ACTIONS},
        ambition_by_number={**actions.ambition_by_number, "8": None, "9": None},
        cards=[*actions.cards, *sides])


# -- which side, which ambitions (F813, F814, F822, F823, F828, F830) -----------------------------
PLURALISTIC_FAITH = "F814"
DOCTRINAL_LAWS = ("F823", "F828", "F830")  # Doctrinal Faith, Repressed Faith, Dominant Faith
REPRESSED_FAITH, DOMINANT_FAITH = "F828", "F830"


def doctrine_binds(state: BlightedReachState) -> bool:
    """A law in the booklet makes Faithful cards follow the Doctrine (Act II on)."""
    return bool(state.doctrine) and any(in_booklet(state, law) for law in DOCTRINAL_LAWS)


def sides_allowed(state: BlightedReachState) -> list[str]:
    """F813: either side; once a Doctrinal law is in the booklet, the Doctrine's only (F823)."""
    return [state.doctrine] if doctrine_binds(state) else [ZEAL, WISDOM]


def declarable(state: BlightedReachState, seat: int, lead: str, printed: list[str]) -> list[str] | None:
    """What a lead card may declare under the Believer's laws (None: as printed).
    F814: a Faithful lead may declare any ambition. F823/F830: with a Faithful card played,
    not an ambition whose Ideal differs from the Doctrine; F828: nor one with no Ideal;
    F830: with a non-Faithful card, not an ambition with an Ideal."""
    from plugins.arcs.content import box_for

    faithful = bool(side_of(lead))
    ambitions = list(printed)
    if faithful and in_booklet(state, PLURALISTIC_FAITH):
        ambitions = list(box_for(state).board.ambitions)
    if doctrine_binds(state):
        if faithful:
            ambitions = [a for a in ambitions if state.ideals.get(a, state.doctrine) == state.doctrine]
            if in_booklet(state, REPRESSED_FAITH):
                ambitions = [a for a in ambitions if a in state.ideals]
        elif in_booklet(state, DOMINANT_FAITH):
            ambitions = [a for a in ambitions if a not in state.ideals]
    return ambitions if ambitions != list(printed) else None


def in_booklet(state: BlightedReachState, card: str) -> bool:
    return any(card in slot for slot in state.booklet)


@hookimpl
def arcs_played_as(state, seat, card):
    if getattr(state, "game", "") != "blighted-reach" or not is_faithful(card):
        return None
    return [side_id(card, side) for side in sides_allowed(state)]


@hookimpl
def arcs_declarable(state, seat, card, ambitions):
    if getattr(state, "game", "") != "blighted-reach":
        return None
    return declarable(state, seat, card, ambitions)


# -- the chapter's deal keeps the act's own action cards -------------------------------------------
@hookimpl
def arcs_chapter_deal(ctx):
    """ARCS-255 with the campaign's action cards: every action card of the chapter (in the
    deck and discard piles once the hands are discarded) is shuffled and dealt, so the
    Faithful cards and Events that joined stay and the cards Spreading the Faith scrapped
    stay out. The cards are put in the box's order first, so a deck no Fate changed deals
    exactly as the base rules would."""
    state = ctx.state
    if state.game != "blighted-reach":
        return None
    from plugins.arcs.chapter import deal_chapter_from
    from plugins.arcs.content import box_for
    from plugins.arcs.discard import reset_for_deal

    box = box_for(state)
    cards = [*state.action_deck, *state.action_discard, *state.action_discard_up]
    order = {c: i for i, c in reversed(list(enumerate(box.action_deck(len(state.players)))))}
    cards.sort(key=lambda c: (order.get(c, len(order)), c))
    reset_for_deal(state)
    deal_chapter_from(box, state, cards)
    return True


@hookimpl
def arcs_declared(ctx, seat, ambition):
    """F822/F823: a lead Faithful card's declaration puts an Ideal showing the Doctrine in
    an ambition box that has none (while Ideal markers are left to place)."""
    state = ctx.state
    if getattr(state, "game", "") != "blighted-reach" or not doctrine_binds(state) or not side_of(state.lead):
        return
    if ambition in state.ideals or state.ideal_supply <= 0:
        return
    state.ideals[ambition] = state.doctrine
    state.ideal_supply -= 1
    ctx.emit("ideal_placed", seat=seat, ambition=ambition, ideal=state.doctrine)


# -- Faithful Disciples (F802) ---------------------------------------------------------------------
DISCIPLES = "F802"


def winning(state: BlightedReachState, seat: int, ambition: str) -> bool:
    """The seat would win `ambition` (sole first place) if it were scored now."""
    from plugins.arcs.content import default_box as arcs_box
    from plugins.blighted_reach.content import default_box as campaign_box
    from plugins.blighted_reach.objectives import sole_first, standings

    return sole_first(standings(arcs_box(), campaign_box(), state, ambition)) == seat


def buys(box, state: BlightedReachState, seat: int, kind: str, card: str) -> tuple[int, list[str]]:
    """A Faithful side buys as any action card (F813); F802: leading it and declaring an
    ambition its holder is winning gains one more action pip for that turn.
    Reading: the pip is added to the turn the declaration opens (the declaration is made
    before the lead's turn starts), and "winning" is judged as the turn starts."""
    from plugins.arcs.plays import actions_bought

    count, actions = actions_bought(box, kind, state.lead, card)
    if (kind == "lead" and DISCIPLES in state.players[seat].guild and state.ambition_declared
            and winning(state, seat, state.ambition_declared)):
        count += 1
    return count, actions


# -- Spreading the Faith: Teach (F803) --------------------------------------------------------------
class TeachChoice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    card: str  # the Guild card in the Court the top Faithful card is attached to


def city_types(box, state: BlightedReachState, seat: int) -> set[str]:
    """The planet types where the seat has a Loyal city."""
    return {box.systems[s].type for s, here in state.systems.items()
            if box.systems.get(s) is not None and any(b.owner == seat and b.kind == "city" for b in here.buildings)}


def teach_targets(box, state: BlightedReachState, seat: int) -> list[str]:
    """Guild cards in the Court with nothing attached whose suit is a planet type where the
    seat has a Loyal city (none while the stack is empty)."""
    if not state.faithful_stack:
        return []
    types = city_types(box, state, seat)
    return [c for c in state.court_row if c and c in box.court and box.court[c].kind == "guild"
            and box.court[c].suit in types and c not in state.attached]


def bottom_non_event(state: BlightedReachState) -> str:
    """The bottom action card of the discard that is not an Event (Events are passed over)."""
    from plugins.blighted_reach.setup import is_event_card

    for pile in (state.action_discard, state.action_discard_up):
        for card in reversed(pile):
            if not is_event_card(card):
                return card
    return ""


@op("teach", params=TeachChoice,
    candidates=lambda env, u: [{"card": c} for c in teach_targets(env.box, env.state, u.seat)],
    usable=lambda env, u: bool(teach_targets(env.box, env.state, u.seat)))
def do_teach(env, u, choice: TeachChoice) -> None:
    """F803 Teach (Influence): the top Faithful card is attached to a Guild card in the Court
    whose suit matches a planet where the teacher has a Loyal city; then the bottom
    non-Event card of the action discard is scrapped (none there: nothing more)."""
    state = env.state
    if choice.card not in teach_targets(env.box, state, u.seat):
        raise IllegalAction(f"{choice.card!r} is not a Guild card in the Court of a suit where you have a "
                            "Loyal city, with nothing attached (or the Faithful stack is empty)")
    faithful = state.faithful_stack.pop(0)
    state.attached[choice.card] = faithful
    scrapped = bottom_non_event(state)
    if scrapped:
        for pile in (state.action_discard, state.action_discard_up):
            if scrapped in pile:
                del pile[len(pile) - 1 - pile[::-1].index(scrapped)]
                break
        state.scrapped.append(scrapped)
    env.emit("faith_taught", seat=u.seat, card=faithful, host=choice.card, scrapped=scrapped)


# -- the objective (F801B) --------------------------------------------------------------------------
def stack_top_pips(state: BlightedReachState) -> int:
    """F801B: the action pips of the stack's top card; an empty stack counts 10."""
    if not state.faithful_stack:
        return EMPTY_STACK_ADVANCE
    return PIPS[number(state.faithful_stack[0])]


COUNT_RULES["faithful_stack_top_pips"] = lambda box, cbox, state, seat, score, ambition: stack_top_pips(state)

# Standing rules: read where they apply (F802 in `buys`, the laws by the hooks above).
standing("extra_pip_with_faithful_card", "faithful_cards", "lead_faithful_declares_any")


# -- Act I Resolution (F815) ---------------------------------------------------------------------------
@fates.handler("faithful_stack_to_court")
def faithful_stack_to_court(ctx, seat: int, card_id: str, effect) -> None:
    """F815 (either side): the Faithful cards still in their stack join the Court deck (as
    any card added to it, shuffled in); those in hands, piles or the Court stay there."""
    from core import chance

    state: BlightedReachState = ctx.state
    moved, state.faithful_stack = list(state.faithful_stack), []
    state.court_deck.extend(moved)
    chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("faithful_to_court", seat=seat, card=card_id, cards=moved)


# -- Act II setup (F820) --------------------------------------------------------------------------------
IDEAL_MARKERS = 5  # F820: the five double-sided Ideal markers
DOCTRINE_CARD = "F822"
YOUNG_LIGHTS = ("F816", "F818", "F825")  # The Young Light, The Prodigal One, The Prophet (one rule)


@fates.handler("collect_ideal_markers")
def collect_ideals(ctx, seat: int, card_id: str, effect) -> None:
    """F820: the five Ideal markers come into play, none on an ambition yet."""
    state: BlightedReachState = ctx.state
    state.ideals, state.ideal_supply = {}, IDEAL_MARKERS
    ctx.emit("ideals_collected", seat=seat, count=IDEAL_MARKERS)


@fates.handler("doctrine_by_initiative")
def doctrine_by_initiative(ctx, seat: int, card_id: str, effect) -> None:
    """F820: the Doctrine card shows Zeal if the Believer has the initiative, else Wisdom."""
    state: BlightedReachState = ctx.state
    state.doctrine = ZEAL if state.initiative == seat else WISDOM
    ctx.emit("doctrine", seat=seat, side=state.doctrine)


# -- Set Doctrine (F821) and Set Lay Doctrine (F827), Edicts ---------------------------------------------
def young_light_holder(state: BlightedReachState) -> int:
    """The seat holding The Young Light or The Prophet (F816/F825), -1 for nobody."""
    for seat, p in enumerate(state.players):
        if any(c in p.guild for c in ("F816", "F825")):
            return seat
    return -1


def doctrine_options() -> list[Action]:
    return [Action("set_doctrine", {"side": side}) for side in (ZEAL, WISDOM)]


@fates.handler("set_doctrine")
def set_doctrine(ctx, seat: int, card_id: str, effect) -> None:
    """F821: the holder of The Young Light or The Prophet may set the Doctrine either way."""
    holder = young_light_holder(ctx.state)
    if holder >= 0 and ctx.state.doctrine:
        ctx.prompt(holder, "set_doctrine", doctrine_options(), resume=doctrine_set, card=card_id)


def lay_doctrine_setter(state: BlightedReachState) -> tuple[int, dict[int, int]]:
    """F827: every player reveals its Faithful cards; the one revealing the highest number
    (a unique card, so no tie) sets the Doctrine. Returns it (-1 for none) and what each revealed."""
    shown = {seat: max((number(c) for c in hand if is_faithful(c)), default=0) for seat, hand in enumerate(state.hands)}
    best = max(shown.values(), default=0)
    return (next(s for s, n in shown.items() if n == best) if best else -1), shown


@fates.handler("set_lay_doctrine")
def set_lay_doctrine(ctx, seat: int, card_id: str, effect) -> None:
    state = ctx.state
    setter, _ = lay_doctrine_setter(state)
    ctx.emit("faithful_revealed", card=card_id,
             hands={str(s): [c for c in h if is_faithful(c)] for s, h in enumerate(state.hands)})
    if setter >= 0 and state.doctrine:
        ctx.prompt(setter, "set_doctrine", doctrine_options(), resume=doctrine_set, card=card_id)


@steps("believer_doctrine_set")
def doctrine_set(ctx, seat, params, card: str):
    side = params["side"]
    if side not in (ZEAL, WISDOM):
        raise BadParameter(f"the Doctrine is {ZEAL} or {WISDOM}, not {side!r}")
    ctx.state.doctrine = side
    ctx.emit("doctrine", seat=seat, side=side, card=card)


# -- The Young Light, The Prodigal One, The Prophet (F816, F818, F825) ------------------------------------
class BesideFaithful(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    discard: str  # a non-Event action card from the hand, discarded
    card: str     # the played Faithful card (face up or down) it goes beside


def played_faithful(state: BlightedReachState) -> list[str]:
    """Faithful cards played this round, face up or face down, not already taken by a card."""
    from plugins.arcs.plays import hand_id

    taken = {u.action_card for u in state.unions}
    here = [hand_id(p.card) for p in state.plays if p.card] + [hand_id(c) for c in state.facedown]
    return [c for c in dict.fromkeys(here) if is_faithful(c) and c not in taken]


def discardable(state: BlightedReachState, seat: int) -> list[str]:
    from plugins.blighted_reach.setup import is_event_card

    return [c for c in dict.fromkeys(state.hands[seat]) if not is_event_card(c)]


@op("return_with_played_faithful_card", params=BesideFaithful,
    candidates=lambda env, u: [{"discard": d, "card": c} for d in discardable(env.state, u.seat)
                               for c in played_faithful(env.state)],
    usable=lambda env, u: bool(discardable(env.state, u.seat) and played_faithful(env.state)))
def do_young_light(env, u, choice: BesideFaithful) -> None:
    """F816 (and its reprints F818, F825), Prelude: a non-Event card from the hand is
    discarded and this card set beside a Faithful card played this round; at the round's end
    its holder draws that Faithful card and takes this card back (`settle_unions`)."""
    from plugins.arcs.state import AttachedUnion

    state = env.state
    if choice.discard not in discardable(state, u.seat):
        raise IllegalAction(f"{choice.discard!r} is not a non-Event action card in your hand")
    if choice.card not in played_faithful(state):
        raise IllegalAction(f"{choice.card!r} is not a Faithful card played this round")
    state.hands[u.seat].remove(choice.discard)
    state.action_discard.insert(0, choice.discard)
    state.players[u.seat].guild.remove(u.card)
    state.unions.append(AttachedUnion(card=u.card, action_card=choice.card, seat=u.seat, returns=True))
    env.emit("card_beside", seat=u.seat, card=u.card, action_card=choice.card, discarded=choice.discard)


# -- Plot to Kidnap (F817) --------------------------------------------------------------------------------
PLOT = "F817"


def _plot_apply(call) -> dict:
    """F817's Crisis: The Young Light or The Prophet, wherever a player holds it, is attached
    here (nothing attached already); then each player discards its highest Faithful card."""
    state = call.state
    taken = ""
    holder = young_light_holder(state)
    if holder >= 0 and PLOT in state.court_row and PLOT not in state.attached:
        taken = next(c for c in ("F816", "F825") if c in state.players[holder].guild)
        state.players[holder].guild.remove(taken)
        state.attached[PLOT] = taken
    discarded = {}
    for seat, hand in enumerate(state.hands):
        faithful = [c for c in hand if is_faithful(c)]
        if faithful:
            top = max(faithful, key=number)
            hand.remove(top)
            state.action_discard.insert(0, top)
            discarded[str(seat)] = top
    return {"event": "plot_to_kidnap", "card": call.card, "attached": taken, "discarded": discarded}


@op("draw_highest_faithful_from_discard")
def do_draw_highest_faithful(env, u, choice) -> None:
    """F817 secured: the highest Faithful card in the action discard is drawn into the hand,
    then the discard is shuffled."""
    from core import chance as dice

    state = env.state
    pile = next((p for p in (state.action_discard, state.action_discard_up) if any(is_faithful(c) for c in p)), None)
    drawn = ""
    if pile is not None:
        drawn = max((c for c in pile if is_faithful(c)), key=number)
        pile.remove(drawn)
        state.hands[u.seat].append(drawn)
    roller = env.chance if env.chance is not None else _table_chance(env)
    dice.shuffle(roller, state.action_discard, "action discard")
    env.emit("faithful_drawn", seat=u.seat, to_seat=u.seat, card=u.card, drawn=bool(drawn))


def _table_chance(env):
    from types import SimpleNamespace

    from core.rng import Rng

    return SimpleNamespace(rng=Rng(env.state), emit=env.emit)


FATE_CRISIS_HANDLERS["plot_to_kidnap"] = CrisisHandler(apply=_plot_apply)


# -- the Act II objective (F820B) ----------------------------------------------------------------------------
COUNT_RULES["ideal_power_gained"] = (
    lambda box, cbox, state, seat, score, ambition: score.gains[ambition].get(seat, 0) if score else 0)
CONDITION_RULES["ambition_has_ideal"] = lambda box, cbox, state, seat, score, ambition: ambition in state.ideals


# -- Act II Resolution (F824) ----------------------------------------------------------------------------------
def record_ideals(state: BlightedReachState) -> None:
    """F824: the Ideals on the ambition boxes go on the log sheet (restored in Act III)."""
    state.ideals_recorded = dict(state.ideals)


@fates.handler("young_light_becomes_prophet")
def young_light_becomes_prophet(ctx, seat: int, card_id: str, effect) -> None:
    """F824 completed: the Ideals recorded; The Young Light, if the Believer has it, is
    scrapped for The Prophet; otherwise The Prophet is scrapped."""
    from plugins.blighted_reach.fate_steps import lift

    state: BlightedReachState = ctx.state
    record_ideals(state)
    if "F816" in state.players[seat].guild:
        lift(state, "F816")
        state.scrapped.append("F816")
        lift(state, "F825")
        state.players[seat].guild.append("F825")
    elif lift(state, "F825"):
        state.scrapped.append("F825")
    ctx.emit("prophet", seat=seat, gained="F825" in state.players[seat].guild)


@fates.handler("scrap_loose_ideals")
def scrap_loose_ideals(ctx, seat: int, card_id: str, effect) -> None:
    """F824 failed: the Ideals recorded; the Ideal markers not on ambitions are scrapped."""
    state: BlightedReachState = ctx.state
    record_ideals(state)
    lost, state.ideal_supply = state.ideal_supply, 0
    ctx.emit("ideals_scrapped", seat=seat, count=lost)


# -- Act III setup (F829) ------------------------------------------------------------------------------------
def majority_ideal(ideals: dict[str, str]) -> str:
    """The side with more Ideal markers; a tie (none included) is Wisdom."""
    zeal = sum(1 for side in ideals.values() if side == ZEAL)
    return ZEAL if zeal > len(ideals) - zeal else WISDOM


@fates.handler("doctrine_to_majority_ideal")
def doctrine_to_majority(ctx, seat: int, card_id: str, effect) -> None:
    """F829: the Doctrine turns to the Ideal with more markers on ambition boxes (as the log
    sheet recorded them: they go back on the boxes in this setup), Wisdom on a tie."""
    state: BlightedReachState = ctx.state
    state.doctrine = majority_ideal(state.ideals_recorded or state.ideals)
    ctx.emit("doctrine", seat=seat, side=state.doctrine)


@fates.handler("restore_recorded_ideals")
def restore_ideals(ctx, seat: int, card_id: str, effect) -> None:
    """F829: the Ideal markers go back on the ambition boxes as recorded after Act II."""
    state: BlightedReachState = ctx.state
    state.ideals = dict(state.ideals_recorded)
    ctx.emit("ideals_restored", seat=seat, ideals=dict(state.ideals))


# -- Act III laws and goals (F829B, F831) ---------------------------------------------------------------------
def markers_on_ideals(state: BlightedReachState) -> int:
    """F829B: ambition markers on ambitions with an Ideal (markers, not ambitions)."""
    return sum(len(state.ambition_boxes.get(a, [])) for a in state.ideals)


GOAL_RULES["two_markers_on_ideals"] = lambda box, cbox, state, seat: markers_on_ideals(state) >= 2
GOAL_RULES["three_markers_on_ideals"] = lambda box, cbox, state, seat: markers_on_ideals(state) >= 3

BREAKING = "F831"


def breakable_ideals(state: BlightedReachState) -> list[str]:
    """F831: Ideals on ambitions not declared."""
    return [a for a in state.ideals if not state.ambition_boxes.get(a)]


def believer_seat(state: BlightedReachState) -> int:
    return state.fates.index(BELIEVER) if BELIEVER in state.fates else -1


@hookimpl
def arcs_city_destroyed(ctx, attacker, owner, system):
    """F831: a Rival of the Believer destroying one of the Believer's Loyal cities may take
    one Ideal off an undeclared ambition."""
    state = ctx.state
    if getattr(state, "game", "") != "blighted-reach" or not in_booklet(state, BREAKING):
        return
    if owner != believer_seat(state) or attacker == owner or attacker < 0 or not breakable_ideals(state):
        return
    ctx.push(break_faith_offer, seat=attacker)  # after the city's Ransack, if any


@steps("believer_break_faith_offer")
def break_faith_offer(ctx, seat: int):
    ideals = breakable_ideals(ctx.state)
    if ideals:
        ctx.prompt(seat, "break_faith", [Action("break_faith", {"ambition": a}) for a in ["", *ideals]],
                   resume=faith_broken)


@steps("believer_faith_broken")
def faith_broken(ctx, seat, params):
    ambition = params.get("ambition", "")
    if not ambition:
        return
    state = ctx.state
    if ambition not in breakable_ideals(state):
        raise IllegalAction(f"{ambition!r} is not an undeclared ambition with an Ideal")
    del state.ideals[ambition]
    ctx.emit("ideal_removed", seat=seat, ambition=ambition, why=BREAKING)


standing("doctrine", "doctrinal_faith", "repressed_faith", "dominant_faith", "breaking_the_faith")
