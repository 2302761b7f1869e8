"""The Believer (FATE08, cards F801-F831): the nine Faithful action cards and the laws of
their Faith.

The Faithful cards (F804-F812, numbered "1" to "9") start in a public stack, the "9" on
top (`BlightedReachState.faithful_stack`, top first). From there they are attached to Court
cards (Spreading the Faith), secured into hands and played like action cards, each on one
of its two sides: Zeal (move, influence, battle, tax) or Wisdom (build, repair, secure).
"""
from __future__ import annotations

import msgspec

from core.errors import IllegalAction
from core.hookspecs import hookimpl
from plugins.arcs.abilities import op, standing
from plugins.blighted_reach import fates
from plugins.blighted_reach.objectives import COUNT_RULES
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
