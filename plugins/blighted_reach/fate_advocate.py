"""FATE04, the Advocate (cards F401-F426): the rules its Fate Set's cards name.

Act I: Guild Investigators (F402) attach the Court discard's top Guild card to an unagented
Court card (a new action paid with a move); Guild Overseers (F403) let their holder use the
actions of Guild cards only while placing in a declared ambition (a restriction the base
rules' abilities consult, `abilities.RESTRICTIONS`), and, once in the Court (Act II), give
their securer any Guild card of the Court deck or discard. The objective (F401) counts the
self-discarding Guild Preludes and the Recover actions while Overseers are held.
Resolution F404: the Liaisons of the suits the Advocate leads go to the Court deck.
"""
from __future__ import annotations

from collections import Counter

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from plugins.arcs import abilities
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.court_ops import _chance
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_steps import lift
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState

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


@op("recover_guild_from_discard", params=Host, candidates=lambda env, u: [{"card": c} for c in unagented_hosts(env.state)],
    usable=_recover_usable)
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
