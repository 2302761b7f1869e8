"""Where the cards of the Fate Sets are, and the card moves that objective cards' Setup sides
and Resolution cards give as data (`content.CARD_OPS` and the First Regent tile ops).

A Fate Set's cards wait in `state.fate_sets[seat]` until a step moves them: into the play
area, the Court deck, the rules booklet, the action deck, or out of the campaign
(`state.scrapped`). The objective and Resolution cards themselves are not kept there: which
one is current follows from the Fate and the act (`objective_card`, `resolution_card`).

A step the data cannot say (`do: handler`) runs the function a registry holds under the
handler's name; a step with no rule raises `RuleMissing` before anything changes, so a Fate
whose rules are still to come stops the table loudly instead of being skipped.

Act I (player steps B-D and F), once every seat has chosen (`setup.choose_fate`): the flow
calls `take_fate_sets`, then `apply_setup_side` for each seat in turn order, then
`objectives.start_objectives`, then `setup.give_first_regent`.
"""
from __future__ import annotations

from typing import Callable, Iterable

from core.errors import EngineError
from core.rng import Rng
from plugins.arcs.content import Box
from plugins.arcs.outrage import agent_returns
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import Effect, Fate, FateCard
from plugins.blighted_reach.state import BlightedReachState

COUNCIL_IDS = ("AID01A", "AID01B")   # the Imperial Council, either side up

# A Fate-specific step: (arcs box, campaign box, state, the Fate's seat, the effect, rng).
Handler = Callable[[Box, CampaignBox, BlightedReachState, int, Effect, Rng], None]

# Setup-side steps named `do: handler` in fates.json, by handler name. The Fates' own rules
# register here; none is built in, so a Setup side naming one raises `RuleMissing`.
SETUP_HANDLERS: dict[str, Handler] = {}


class RuleMissing(EngineError):
    """A rule the data names is not in this engine yet (a Fate's handler, count or goal, or a
    fact the content does not record). Raised before the step changes anything."""

    code = "RULE_MISSING"


# -- the cards of a Fate ------------------------------------------------------------------


def fate_card_of(cbox: CampaignBox, fate: str, act: int, kind: str) -> FateCard | None:
    cards = [c for c in cbox.fates[fate].cards if c.kind == kind and c.act == act]
    return cards[0] if cards else None


def objective_card(cbox: CampaignBox, fate: str, act: int) -> FateCard | None:
    """The Fate's objective card for this act (its Setup side, then its Objective side)."""
    return fate_card_of(cbox, fate, act, "setup")


def resolution_card(cbox: CampaignBox, fate: str, act: int) -> FateCard | None:
    """The Resolution card resolved at the Intermission after this act."""
    return fate_card_of(cbox, fate, act, "resolution")


def loose_cards(fate: Fate) -> list[str]:
    """The Fate Set's cards that steps move around: all but its objective and Resolution cards."""
    return [c.id for c in fate.cards if c.kind not in ("setup", "resolution")]


def size_lists(state: BlightedReachState) -> None:
    """Give every per-seat list of the campaign's between-acts block one entry per seat."""
    n = len(state.seats)
    for name, empty in (("fate_sets", list), ("fate_cards", list), ("act_log", list),
                        ("objective_markers", lambda: -1), ("fate_results", str),
                        ("fate_picks", str), ("colours", str)):
        values = getattr(state, name)
        while len(values) < n:
            values.append(empty())


def take_fate_set(cbox: CampaignBox, state: BlightedReachState, seat: int) -> None:
    """The seat takes its Fate's Set from the box (after the Fates are revealed)."""
    size_lists(state)
    state.fate_sets[seat] = loose_cards(cbox.fates[state.fates[seat]])


def take_fate_sets(cbox: CampaignBox, state: BlightedReachState) -> None:
    """Act I player step B, after the reveal: everyone takes their Fate Set."""
    for seat in range(len(state.seats)):
        take_fate_set(cbox, state, seat)


# -- where a card is ----------------------------------------------------------------------


def take_out(state: BlightedReachState, card: str) -> str:
    """Lift `card` from wherever it is and say where that was. A scrapped card stays scrapped
    ("scrapped" is returned and nothing moves). A card on a Court row slot leaves the slot
    empty and its agents go home. A card no place holds is an engine bug."""
    if card in state.scrapped:
        return "scrapped"
    if card in state.fate_action_cards:
        state.fate_action_cards.remove(card)
    for seat in range(len(state.players)):
        holders = {
            "fate_set": state.fate_sets[seat] if seat < len(state.fate_sets) else [],
            "fate_cards": state.fate_cards[seat] if seat < len(state.fate_cards) else [],
            "guild": state.players[seat].guild,
            "lore": state.players[seat].lore,
            "hand": state.hands[seat] if seat < len(state.hands) else [],
        }
        for where, cards in holders.items():
            if card in cards:
                cards.remove(card)
                return f"{where}:{seat}"
    if card in state.court_row:
        state.court_row[state.court_row.index(card)] = ""
        for owner, n in enumerate(state.court_agents.pop(card, [])):
            agent_returns(state, owner, n)
        return "court_row"
    for where in ("court_deck", "court_discard", "resolving", "lore_deck", "action_deck", "action_discard",
                  "action_discard_up"):
        cards = getattr(state, where)
        if card in cards:
            cards.remove(card)
            return where
    for slot in state.booklet:
        if card in slot:
            slot.remove(card)
            state.booklet[:] = [s for s in state.booklet if s]
            return "booklet"
    raise EngineError(f"card {card} is in no place the campaign knows")


def in_booklet(state: BlightedReachState, card: str) -> bool:
    return any(card in slot for slot in state.booklet)


# -- the generic card moves (content.CARD_OPS and the First Regent ops) -------------------


def _movable(state: BlightedReachState, cards: Iterable[str]) -> list[str]:
    """The cards lifted from their places; scrapped ones never come back."""
    return [c for c in cards if take_out(state, c) != "scrapped"]


def gain_cards(cbox: CampaignBox, state: BlightedReachState, seat: int, cards: list[str]) -> None:
    """Into the seat's play area: Guild cards with its Guild cards, lore with its lore, other
    Fate cards (titles, abilities) in `fate_cards`."""
    size_lists(state)
    for card in _movable(state, cards):
        kind = card_kind(cbox, card)
        if kind == "guild":
            state.players[seat].guild.append(card)
        elif kind == "lore":
            state.players[seat].lore.append(card)
        else:
            state.fate_cards[seat].append(card)


def card_kind(cbox: CampaignBox, card: str) -> str:
    if card in cbox.court:
        return cbox.court[card].kind
    return cbox.fate_cards[card].kind


def add_to_court_deck(state: BlightedReachState, cards: list[str]) -> None:
    # Reading: the Court deck is shuffled before it is next dealt (Act II & III setup B), so
    # cards added at the Intermission simply go under it.
    state.court_deck.extend(_movable(state, cards))


def shuffle_into_court_deck(state: BlightedReachState, cards: list[str], rng: Rng) -> None:
    for card in _movable(state, cards):
        state.court_deck.insert(rng.below(len(state.court_deck) + 1), card)


def place_on_court_deck(state: BlightedReachState, cards: list[str]) -> None:
    """The first card named ends on top (index 0 is the top, as Act I setup deals)."""
    state.court_deck[:0] = _movable(state, cards)


def add_to_booklet(state: BlightedReachState, cards: list[str]) -> None:
    # Reading: each card takes a slot of its own at the end of the booklet; slots only hold
    # cards (the booklet's sides are a matter of space, not of rules).
    for card in _movable(state, cards):
        state.booklet.append([card])


def scrap_cards(state: BlightedReachState, cards: list[str]) -> None:
    """Out of the campaign, from wherever each card is."""
    state.scrapped.extend(_movable(state, cards))


def scrap_from_booklet(state: BlightedReachState, cards: list[str]) -> None:
    """Only cards that are in the booklet; one that is not has nothing to scrap (G-3)."""
    scrap_cards(state, [c for c in cards if in_booklet(state, c)])


def keep_for_next_resolution(state: BlightedReachState, seat: int, cards: list[str]) -> None:
    """The cards wait in the seat's Fate Set until its next Resolution card names them."""
    size_lists(state)
    state.fate_sets[seat].extend(_movable(state, cards))


def shuffle_into_action_deck(state: BlightedReachState, cards: list[str], rng: Rng) -> None:
    """A Fate's action card joins the action deck for the rest of the campaign."""
    for card in _movable(state, cards):
        state.fate_action_cards.append(card)
        state.action_deck.insert(rng.below(len(state.action_deck) + 1), card)


def take_first_regent(state: BlightedReachState, seat: int) -> None:
    state.first_regent = seat


def take_first_regent_unless_fate(state: BlightedReachState, seat: int, fate: str) -> None:
    if fate not in state.fates:
        state.first_regent = seat


DATA_OPS: dict[str, Handler] = {
    "gain_cards": lambda box, cbox, state, seat, e, rng: gain_cards(cbox, state, seat, e.cards),
    "add_to_court_deck": lambda box, cbox, state, seat, e, rng: add_to_court_deck(state, e.cards),
    "shuffle_into_court_deck": lambda box, cbox, state, seat, e, rng: shuffle_into_court_deck(state, e.cards, rng),
    "place_on_court_deck": lambda box, cbox, state, seat, e, rng: place_on_court_deck(state, e.cards),
    "add_to_booklet": lambda box, cbox, state, seat, e, rng: add_to_booklet(state, e.cards),
    "scrap_cards": lambda box, cbox, state, seat, e, rng: scrap_cards(state, e.cards),
    "scrap_from_booklet": lambda box, cbox, state, seat, e, rng: scrap_from_booklet(state, e.cards),
    "keep_for_next_resolution": lambda box, cbox, state, seat, e, rng: keep_for_next_resolution(state, seat, e.cards),
    "shuffle_into_action_deck": lambda box, cbox, state, seat, e, rng: shuffle_into_action_deck(state, e.cards, rng),
    "take_first_regent": lambda box, cbox, state, seat, e, rng: take_first_regent(state, seat),
    "take_first_regent_unless_fate":
        lambda box, cbox, state, seat, e, rng: take_first_regent_unless_fate(state, seat, e.target),
}


def check_effects(effects: list[Effect], handlers: dict[str, Handler], where: str) -> None:
    """Every step has a rule: a data op, or a registered handler."""
    for effect in effects:
        if effect.do == "handler":
            if effect.handler not in handlers:
                raise RuleMissing(f"{where}: handler {effect.handler!r} is not registered")
        elif effect.do not in DATA_OPS:
            raise RuleMissing(f"{where}: op {effect.do!r} has no rule here")


def run_effects(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, effects: list[Effect],
                handlers: dict[str, Handler], rng: Rng) -> None:
    """The steps in the order printed; checked first, so a missing rule changes nothing."""
    check_effects(effects, handlers, f"seat {seat}")
    for effect in effects:
        rule = handlers[effect.handler] if effect.do == "handler" else DATA_OPS[effect.do]
        rule(box, cbox, state, seat, effect, rng)


# -- an objective card's Setup side (Act I player step C, Act II & III setup F) -----------


def setup_effects(cbox: CampaignBox, state: BlightedReachState, seat: int) -> list[Effect]:
    """The Setup side of the seat's objective card for the current act, checked complete."""
    fate = cbox.fates[state.fates[seat]]
    card = objective_card(cbox, fate.id, state.act)
    if card is None:
        raise RuleMissing(f"{fate.name} has no objective card for Act {state.act}")
    if not fate.effects_complete:
        raise RuleMissing(f"{fate.name}'s card effects are not in fates.json yet ({card.id})")
    effects = [e for e in card.abilities if e.when == "setup"]
    check_effects(effects, SETUP_HANDLERS, card.id)
    return effects


def check_setup_side(cbox: CampaignBox, state: BlightedReachState, seat: int) -> None:
    setup_effects(cbox, state, seat)


def apply_setup_side(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, rng: Rng) -> None:
    """The seat performs its objective card's Setup side; the card then shows its Objective."""
    effects = setup_effects(cbox, state, seat)
    run_effects(box, cbox, state, seat, effects, SETUP_HANDLERS, rng)
