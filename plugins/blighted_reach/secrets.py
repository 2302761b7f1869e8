"""What a Blighted Reach viewer may not see (`conclave_secrets`, checked after every bot
action by `core.secrets`): the base game's hands and decks, the lore deck, the Fates other
seats were offered, kept or picked until the rules reveal them (BR-053, A-R7), the Sleeping
Golems' types (`fate_caretaker.golem_view`), the Rumors' faces the viewer
may not peek at (`fate_pirate_rumors.may_see`) and the Conspiracies' faces but for the
Conspirator (`fate_conspirator.hidden_faces`)."""
from __future__ import annotations

from collections import Counter

from plugins.arcs.views import SHOWING_EVENTS, secrets as base_secrets
from plugins.blighted_reach import fate_caretaker, fate_conspirator, fate_pirate_rumors
from plugins.blighted_reach.setup import EVENT
from plugins.blighted_reach.state import BlightedReachState

# The Partisan's spy (F602) hands a card to a Rival and takes one back: both see both cards.
SHOWING_EVENTS.update({"spy_gave": "card", "spy_returned": "card"})


def public_fates(state: BlightedReachState) -> set[str]:
    """Fate ids everyone may know: the Fates of earlier acts (the campaign log) and this
    act's once all have chosen (the offers and picks at an Intermission once all picked)."""
    known = {line.fate for lines in state.act_log for line in lines}
    if state.fates and all(state.fates):
        known |= set(state.fates)
    if state.fate_picks and all(state.fate_picks):
        known |= set(state.fate_picks)
    return known


def hidden_fates(state: BlightedReachState, viewer: int | None) -> set[str]:
    """The other seats' Fate offers, kept Fates and picks, but what is public anyway."""
    mine = viewer if viewer is not None else -1
    out: set[str] = set()
    for seat in range(len(state.players)):
        if seat == mine:
            continue
        out |= set(state.fate_offers[seat]) if seat < len(state.fate_offers) else set()
        out |= {state.fates[seat]} if seat < len(state.fates) and state.fates[seat] else set()
        out |= {state.fate_picks[seat]} if seat < len(state.fate_picks) and state.fate_picks[seat] else set()
    if viewer is not None:
        own = set(state.fate_offers[viewer]) if viewer < len(state.fate_offers) else set()
        own |= {f for f in (state.fates[viewer:viewer + 1] + state.fate_picks[viewer:viewer + 1]) if f}
        out -= own
    return out - public_fates(state)


def hidden_golems(state: BlightedReachState, viewer: int | None) -> set[str]:
    """Golem types no view of this viewer may name: Sleeping ones it does not hold, unless a
    Golem of that type is shown anyway."""
    shown = {g["type"] for g in fate_caretaker.golem_view(state, viewer) if g["type"]}
    return set(state.golems) - shown


def hidden_rumor_faces(state: BlightedReachState, viewer: int | None) -> set[str]:
    """Rumor faces the viewer cannot see anywhere: a face among those it may not peek at
    that no Rumor it may see shows."""
    unseen = {face for planet, face in state.rumors.items() if not fate_pirate_rumors.may_see(state, viewer, planet)}
    seen = {face for planet, face in state.rumors.items() if fate_pirate_rumors.may_see(state, viewer, planet)}
    return unseen - seen


def secrets(state: BlightedReachState, viewer: int | None, events) -> list[str]:
    """The three Event cards are identical (one id, `setup.EVENT`): which seat holds one is
    secret, but their name is not, so they are left out of the ids checked. The Court deck's
    cards are known (they were seen joining it: Resolution cards add Fate Set cards, BR-328;
    Song of Freedom goes back when secured, BR-030), only its order is secret, and an
    order is no id: the field itself is never in a view (`state.visible`)."""
    deck = set(state.court_deck)
    # A card secured from the Court this turn was taken in the open, even if it went into a
    # hand (a Faithful card, F813): the turn's record of it is no leak.
    taken = set(state.turn.gained) if state.turn is not None else set()
    cards = [c for c in base_secrets(state, viewer, events) if c != EVENT and c not in deck | taken]
    return [*cards, *state.lore_deck, *hidden_fates(state, viewer), *hidden_golems(state, viewer),
            *hidden_rumor_faces(state, viewer), *fate_conspirator.hidden_faces(state, viewer)]


def campaign_stats(campaign: dict) -> dict[str, dict[str, int]]:
    """For `simulate`: in how many campaigns each Fate was taken (`fates_taken`) and by how
    many seat-acts (`fate_acts`)."""
    log = campaign.get("log") or {}
    acts = Counter(line["fate"] for player in log.get("players", []) for line in player.get("acts", []) if line.get("fate"))
    return {"fates_taken": {fate: 1 for fate in acts}, "fate_acts": dict(acts)}
