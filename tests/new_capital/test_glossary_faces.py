"""The glossary's card faces (plugins/new_capital/faces.py and the modules' glossary hooks):
every public card a viewer's view or log names has a name and an effect text in words, and
no card hidden from that viewer is ever named, in the table's glossary or a log entry's."""
from __future__ import annotations

import pytest

from core.bot import RandomBot
from core.engine import create_table, view, view_events
from core.glossary import strings_in
from plugins.dilemmas.plugin import cards as dilemma_cards
from plugins.guildmasters.plugin import cards as guildmaster_cards
from plugins.new_capital.content import pack_for
from plugins.new_capital.faces import card_face
from plugins.new_capital.views import event_secrets, hidden_from

PACK = pack_for("")
ALL_MODULES = ["guildmasters", "faction-heroes", "dilemmas"]


def glossary(table, viewer, events=None) -> dict:
    v = view(table.rules, table.state, viewer)
    if events is not None:
        v = {**v, "__events__": events}
    out: dict = {}
    for part in table.rules.hook.conclave_glossary(state=table.state, viewer=viewer, view=v):
        out.update(part or {})
    return out


def module_secrets(state, viewer) -> set[str]:
    """Module cards a viewer may not see: the face-down decks, the box of unused Dilemmas and
    the two Guildmasters dealt to another seat."""
    secret: set[str] = set()
    gm = state.module_state.get("guildmasters")
    if gm:
        secret.update(gm["zones"]["deck"])
        if viewer != gm["chooser"]:
            secret.update(gm["zones"]["dealt"])
    dil = state.module_state.get("dilemmas")
    if dil:
        secret.update(dil["zones"]["deck"])
        secret.update(dil["zones"]["box"])
    return secret


def public_cards(state, viewer) -> set[str]:
    """Card ids lying face up for `viewer`: the rows' pools and discards, the Crisis, every
    province, discard and burned pile, revealed cards, and the viewer's own hand."""
    out = {c for row in state.rows.values() for c in row.pool + row.discard}
    out.update([state.crisis] if state.crisis else [])
    out.update(state.crises_done)
    for p in state.players:
        out.update(p.discard + p.burned + p.resolving)
        for col in p.columns:
            out.update(col.structures)
            for slot in col.slots:
                out.update(([slot.leader] if slot.leader else []) + slot.flipped)
        if p.seat == viewer:
            out.update(p.hand + p.draft_offer + p.face_down)
        elif state.revealed:
            out.update(p.face_down)
    return out


def test_every_card_of_the_pack_has_a_face_in_words():
    for kind in ("actions", "structures", "leaders", "crises", "hunger"):
        for card_id in getattr(PACK, kind):
            face = card_face(PACK, kind, card_id)
            assert face["name"] and face["text"] and face["kind"] == kind, (kind, card_id, face)
            assert card_id not in face["text"], face  # words, never ids
    crisis = card_face(PACK, "crises", "C1A")
    assert "Warfare (individual): each player needs 1 power" in crisis["text"]
    assert crisis["political"]["values"] == {"2": 3, "3": 4, "4": 6}
    structure = card_face(PACK, "structures", "DS1")
    assert structure["text"] == "Tier 1 Settlement of The Crown: +1 Influence."
    assert card_face(PACK, "hunger", "H01")["text"].endswith("Support (a board action): 1 control token to your reserve.")
    assert card_face(PACK, "actions", "2:B-BUILD")["name"] == "Build"  # a seat's copy of a basic card


@pytest.mark.parametrize("players,seed,modules", [(3, 4, ALL_MODULES), (2, 7, ALL_MODULES), (4, 9, ["faction-heroes"]),
                                                  (1, 3, ["faction-heroes", "dilemmas"])])
def test_the_glossary_names_public_cards_and_never_a_hidden_one(players, seed, modules):
    table = create_table("new-capital", players, seed=seed, modules=modules)
    bot = RandomBot(seed)
    named_kinds: set[str] = set()
    secret_checked = 0
    steps = 0
    before: dict = {}
    while not table.state.finished and steps < 400:
        events = table.act(*bot.choose(table))
        steps += 1
        state = table.state
        for viewer in [None, *range(players)]:
            hidden = hidden_from(state, viewer) | module_secrets(state, viewer)
            entries = glossary(table, viewer)
            leaked = set(entries) & hidden
            assert not leaked, f"after action {steps}, viewer {viewer}'s glossary names hidden cards {leaked}"
            secret_checked += len(hidden)
            for card in public_cards(state, viewer):
                assert card in entries, f"viewer {viewer}: public card {card} unnamed"
                assert entries[card]["name"] and entries[card]["text"], entries[card]
            named_kinds.update(e["kind"] for e in entries.values())
            # A log entry's glossary (the view plus its redacted events) names nothing secret
            # either. As in test_bot_games: an event may name a card that was public at some
            # moment of the action (a Hunger card taken openly, a Dilemma revealed), so only
            # cards secret before and after it count.
            now = event_secrets(state, viewer) | module_secrets(state, viewer)
            secret = now & before.get(viewer, now)
            if any(e.type == "reveal" for e in events):
                secret -= before.get("face_down", set())
            redacted = view_events(events, viewer)
            logged = set(glossary(table, viewer, redacted)) & strings_in(redacted)
            assert not logged & secret, (steps, viewer, logged & secret)
            before[viewer] = now
        before["face_down"] = {c for p in state.players for c in p.face_down}
    assert secret_checked > 0
    assert {"actions", "structures", "leaders", "crises", "track", "scenario", "board"} <= named_kinds
    if "guildmasters" in modules:
        assert "guildmaster" in named_kinds
    if "dilemmas" in modules:
        assert "dilemma" in named_kinds


def test_the_dealt_guildmasters_are_named_to_their_chooser_only():
    table = create_table("new-capital", 3, seed=4, modules=ALL_MODULES)
    bot = RandomBot(4)
    while not table.state.module_state["guildmasters"]["zones"]["dealt"]:
        table.act(*bot.choose(table))
    state = table.state
    chooser = state.module_state["guildmasters"]["chooser"]
    dealt = state.module_state["guildmasters"]["zones"]["dealt"]
    names = {guildmaster_cards("")[c].name for c in dealt}
    for viewer in [None, *range(3)]:
        entries = glossary(table, viewer)
        shown = {e["name"] for k, e in entries.items() if k in dealt}
        assert shown == (names if viewer == chooser else set()), viewer


def test_a_revealed_dilemma_is_named_with_both_outcomes():
    table = create_table("new-capital", 3, seed=4, modules=ALL_MODULES)
    bot = RandomBot(4)
    while not table.state.module_state["dilemmas"]["zones"]["current"]:
        table.act(*bot.choose(table))
    (card,) = table.state.module_state["dilemmas"]["zones"]["current"]
    entry = glossary(table, None)[card]
    face = dilemma_cards("")[card]
    assert (entry["name"], entry["in_favor"], entry["against"]) == (face.name, face.in_favor.text, face.against.text)
    assert not set(glossary(table, None)) & set(table.state.module_state["dilemmas"]["zones"]["deck"])
