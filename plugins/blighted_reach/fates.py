"""The Fate machinery: a Fate Set card's effects that data can say, and the registry of
named handlers for the rest (`Effect.do == "handler"`), so a Fate is data plus small
functions. Runs a card's effects for one trigger (`setup`, `success`, `failure`) in order.

Where a Fate Set card goes when a player gains it: a Guild card into the Guild row of the
play area, a Lore card beside it (both read by the base rules), any other kind (ability,
title, setup...) into `play_area`, where the campaign's rules read it.
"""
from __future__ import annotations

from typing import Callable

from core import chance
from core.errors import EngineError
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import Effect
from plugins.blighted_reach.state import BlightedReachState

# handler name -> fn(ctx, seat, card_id, effect): the rules data cannot say (a Fate's own).
HANDLERS: dict[str, Callable] = {}


def handler(name: str):
    """Register the function a Fate card's `handler` effect names (once per name)."""
    def register(fn: Callable) -> Callable:
        if name in HANDLERS:
            raise EngineError(f"Fate handler {name!r} is registered twice")
        HANDLERS[name] = fn
        return fn
    return register


# Handlers whose question must be answered (and what it starts done) before the rest of a
# card's side runs (`fate_steps.run_side`): a C Fate's Resettle, its Setup's first step.
WAITS: set[str] = set()


def run_handler(ctx, name: str, seat: int, card_id: str, effect: Effect | None = None) -> None:
    """Run the Fate rule `name` for `card_id` (held by, or acting for, `seat`)."""
    fn = HANDLERS.get(name)
    if fn is None:  # loud: a Fate whose rules are not written yet must not play silently wrong
        raise EngineError(f"{card_id}: the Fate handler {name!r} is not implemented")
    fn(ctx, seat, card_id, effect)


def fate_of(cbox: CampaignBox, card_id: str):
    return next(f for f in cbox.fates.values() if any(c.id == card_id for c in f.cards))


def objective_card(cbox: CampaignBox, fate_id: str, act: int):
    """The Fate's setup/objective card for the act (the first of the act's cards, BR-002)."""
    return next(c for c in cbox.fates[fate_id].cards if c.kind == "setup" and c.act == act)


def where_is(state: BlightedReachState, card: str) -> str:
    """Which place holds a Fate Set card now (for the invariants and the ops below)."""
    for seat, player in enumerate(state.players):
        if card in player.guild:
            return f"guild:{seat}"
        if card in player.lore:
            return f"lore:{seat}"
        if seat < len(state.play_area) and card in state.play_area[seat]:
            return f"play_area:{seat}"
    for name in ("court_row", "court_deck", "court_discard", "scrapped", "resolving", "reminders"):
        if card in getattr(state, name):
            return name
    if any(card in slot for slot in state.booklet):
        return "booklet"
    if card in state.action_deck or card in state.action_discard or any(card in h for h in state.hands):
        return "action_cards"
    return ""


def gain(cbox: CampaignBox, state: BlightedReachState, seat: int, card: str) -> None:
    kind = cbox.fate_cards[card].kind
    if kind == "guild":
        state.players[seat].guild.append(card)
    elif kind == "lore":
        state.players[seat].lore.append(card)
    else:
        state.play_area[seat].append(card)


def run_effects(ctx, cbox: CampaignBox, seat: int, card_id: str, when: str) -> None:
    """Every effect of `card_id` for trigger `when`, in printed order."""
    for effect in cbox.effects_of(card_id):
        if effect.when == when:
            apply_effect(ctx, cbox, seat, card_id, effect)


def apply_effect(ctx, cbox: CampaignBox, seat: int, card_id: str, effect: Effect) -> None:
    state: BlightedReachState = ctx.state
    do = effect.do
    if do == "gain_cards":
        for card in effect.cards:
            gain(cbox, state, seat, card)
    elif do == "add_to_booklet":  # BR-113: announced to everyone
        for card in effect.cards:
            state.booklet.append([card])
        ctx.emit("booklet_added", seat=seat, cards=list(effect.cards))
    elif do in ("add_to_court_deck", "shuffle_into_court_deck"):
        state.court_deck.extend(effect.cards)
        chance.shuffle(ctx, state.court_deck, "court deck")
    elif do == "place_on_court_deck":
        state.court_deck[:0] = list(effect.cards)
    elif do == "shuffle_into_action_deck":
        state.action_deck.extend(effect.cards)
        chance.shuffle(ctx, state.action_deck, "action deck")
    elif do == "scrap_cards":
        state.scrapped.extend(c for c in effect.cards if c not in state.scrapped)
    elif do == "scrap_from_booklet":
        for card in effect.cards:
            for slot in state.booklet:
                if card in slot:
                    slot.remove(card)
            state.scrapped.append(card)
        state.booklet = [slot for slot in state.booklet if slot]
    elif do == "take_first_regent":
        state.first_regent = seat
        ctx.emit("first_regent", seat=seat, why=card_id)
    elif do == "take_first_regent_unless_fate":
        if effect.target not in state.fates:
            state.first_regent = seat
            ctx.emit("first_regent", seat=seat, why=card_id)
    elif do == "handler":
        run_handler(ctx, effect.handler, seat, card_id, effect)
    else:
        raise EngineError(f"{card_id}: effect {do!r} at {effect.when!r} has no implementation here")


@handler("tuck_reminder_under_map")
def tuck_reminder_under_map(ctx, seat: int, card_id: str, effect: Effect | None) -> None:
    """A Setup step's [cards] go under the map by the card play area, only their titles showing
    (the Partisan's Seizing in Act II, the Admiral's second Martial Law in Act III): a reminder
    of a law now in the booklet, with no rules of its own. Taken from wherever it is first."""
    from plugins.blighted_reach.fate_steps import lift  # (fate_steps builds on this module)

    state: BlightedReachState = ctx.state
    tucked = [c for c in (effect.cards if effect is not None else []) if lift(state, c)]
    state.reminders.extend(tucked)
    ctx.emit("reminder_tucked", seat=seat, cards=tucked, why=card_id)
