"""An objective card's Setup side (Act II & III setup F) and a Resolution card's side
(Intermission A) run through the Fate machinery (`fates.py`: its data ops and its `HANDLERS`
registry), with two things a Resolution needs that setup does not:

- a card the step moves is first lifted from wherever it is now: Dealmakers or Guild
  Overseers from their holder's Guild cards, a Golem Beacon from its holder's lore, a card
  from the Court (its place refilled as any card leaving the Court), the booklet or a
  pile. A Fate Set card in no place is still in its Fate Set; a scrapped card never moves
  again (a step naming it does nothing with it);
- every step's rule is checked before the first one runs (`missing_rules`), so a Fate
  whose handlers are not written yet is refused before anything changes.

The rest of a Fate Set is what no place holds (`unplayed`): the sets are not kept apart.
"""
from __future__ import annotations

import msgspec

from core.errors import EngineError
from plugins.blighted_reach import fates
from plugins.blighted_reach.content import CARD_OPS, Effect
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.crises import remove_from_court
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

# The ops `fates.apply_effect` runs, and the one it leaves to this module.
FATES_OPS = {"gain_cards", "add_to_booklet", "add_to_court_deck", "shuffle_into_court_deck", "place_on_court_deck",
             "shuffle_into_action_deck", "scrap_cards", "scrap_from_booklet", "take_first_regent",
             "take_first_regent_unless_fate", "handler"}
KEEP = "keep_for_next_resolution"


class RuleMissing(EngineError):
    """A rule the data names is not in this engine yet (a Fate's handler, count or goal, or a
    fact fates.json does not record). Raised before the step changes anything."""

    code = "RULE_MISSING"


# -- which card, which steps ------------------------------------------------------------


def fate_card(cbox: CampaignBox, fate: str, act: int, kind: str):
    """The Fate's card of that kind ("setup": its objective card, "resolution") for the act."""
    return next((c for c in cbox.fates[fate].cards if c.kind == kind and c.act == act), None)


def loose_cards(cbox: CampaignBox, fate: str) -> list[str]:
    """The Fate Set's cards that steps move around: all but its objective and Resolution cards."""
    return [c.id for c in cbox.fates[fate].cards if c.kind not in ("setup", "resolution")]


def unplayed(cbox: CampaignBox, state: BlightedReachState, fate: str) -> list[str]:
    """The rest of the Fate Set: its cards no place holds and nobody scrapped."""
    return [c for c in loose_cards(cbox, fate) if place_of(state, c) == ""]


def side_effects(cbox: CampaignBox, card_id: str, when: str) -> list[Effect]:
    return [e for e in cbox.fate_cards[card_id].abilities if e.when == when]


def missing_rules(cbox: CampaignBox, fate: str, card_id: str, when: str) -> list[str]:
    """What the card's side needs that this engine lacks: its effects (a Fate whose cards are
    only facts so far), a handler nobody registered, an op with no rule."""
    if not cbox.fates[fate].effects_complete:
        return [f"{card_id}: the effects of {cbox.fates[fate].name} are not in fates.json yet"]
    out = []
    for e in side_effects(cbox, card_id, when):
        if e.do == "handler" and e.handler not in fates.HANDLERS:
            out.append(f"{card_id}: the Fate handler {e.handler!r} is not registered")
        elif e.do not in FATES_OPS and e.do != KEEP:
            out.append(f"{card_id}: op {e.do!r} has no rule here")
    return out


def check_side(cbox: CampaignBox, fate: str, card_id: str, when: str) -> None:
    missing = missing_rules(cbox, fate, card_id, when)
    if missing:
        raise RuleMissing("; ".join(missing))


# -- where a card is --------------------------------------------------------------------


def place_of(state: BlightedReachState, card: str) -> str:
    """`fates.where_is`, with the places it does not look at: attached to a Court card,
    beside a played card as a Union, face up on the split discard, a Monopoly in the
    general supply (F312: nobody's, yet in play)."""
    where = fates.where_is(state, card)
    if where:
        return where
    if card in state.monopoly_supply:
        return "monopoly_supply"
    if card in state.attached.values():
        return "attached"
    if any(u.card == card for u in state.unions):
        return "union"
    if card in state.action_discard_up:
        return "action_cards"
    if card in state.pilgrim_tucked:  # under the Pathfinder's Pilgrims (F907)
        return "pilgrim_tucked"
    if card in state.hammer_tucked:  # under the Planet Breaker's Hammer Fragments (F1101)
        return "hammer_tucked"
    if card in state.worlds_supply:  # Breaking Worlds in the general supply (F1110)
        return "worlds_supply"
    return ""


def lift(state: BlightedReachState, card: str) -> bool:
    """Take the card out of its place for a step to put it elsewhere. False for a scrapped
    card (it stays scrapped)."""
    where = place_of(state, card)
    if where == "scrapped":
        return False
    if where in ("court_row", "attached"):
        remove_from_court(state, card, "discard")  # agents home, the Court refilled or slid down
        state.court_discard.remove(card)
        return True
    seat = int(where.split(":")[1]) if ":" in where else -1
    piles = {
        "guild": lambda: state.players[seat].guild, "lore": lambda: state.players[seat].lore,
        "play_area": lambda: state.play_area[seat],
    }
    kind = where.split(":")[0]
    if kind in piles:
        piles[kind]().remove(card)
    elif where in ("court_deck", "court_discard", "resolving", "reminders", "monopoly_supply", "pilgrim_tucked",
                   "hammer_tucked", "worlds_supply"):
        getattr(state, where).remove(card)
    elif where == "booklet":
        for slot in state.booklet:
            if card in slot:
                slot.remove(card)
        state.booklet = [slot for slot in state.booklet if slot]
    elif where == "action_cards":
        for pile in (state.action_deck, state.action_discard, state.action_discard_up, *state.hands):
            if card in pile:
                pile.remove(card)
                break
    elif where == "union":
        state.unions = [u for u in state.unions if u.card != card]
    return True


# -- running a side ---------------------------------------------------------------------


def run_side(ctx, cbox: CampaignBox, seat: int, fate: str, card_id: str, when: str) -> None:
    """Every step of the card's side (`setup`, `success` or `failure`) in printed order, for
    the seat holding the Fate. `ctx` is the flow's context (its state, events and RNG), as
    `fates.run_effects` takes it; the Fates' handlers receive it too."""
    check_side(cbox, fate, card_id, when)
    _run_steps_from(ctx, cbox, seat, card_id, when, 0)


def _run_steps_from(ctx, cbox: CampaignBox, seat: int, card_id: str, when: str, start: int) -> None:
    """The side's steps from `start` on. A handler named in `fates.WAITS` that asked a
    question (Resettle) holds the rest back until its answer and what follows it are done:
    the rest is a step under its prompt's resume."""
    state: BlightedReachState = ctx.state
    effects = side_effects(cbox, card_id, when)
    for i in range(start, len(effects)):
        effect = effects[i]
        if effect.do in CARD_OPS:
            cards = list(effect.cards)
            if effect.do == "scrap_from_booklet":
                cards = [c for c in cards if place_of(state, c) == "booklet"]
            moved = [c for c in cards if lift(state, c)]
            if effect.do == KEEP:  # lifted back into the Fate Set: they wait there
                continue
            effect = msgspec.structs.replace(effect, cards=moved)
        asked = len(state.prompts)
        fates.apply_effect(ctx, cbox, seat, card_id, effect)
        if effect.do == "handler" and effect.handler in fates.WAITS and len(ctx.state.prompts) > asked:
            ctx.push(side_rest, seat=seat, card_id=card_id, when=when, start=i + 1)
            return


@steps("fate_side_rest")
def side_rest(ctx, seat: int, card_id: str, when: str, start: int):
    from plugins.blighted_reach.content import default_box

    _run_steps_from(ctx, default_box(), seat, card_id, when, start)
