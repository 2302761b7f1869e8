"""The Arcs glossary (issue 17): through the real API each viewer gets names and effect
readings for the Court cards, its own action cards, the Leaders and Lore, the ambitions and
every system of the map, and never a card in another seat's hand (ARCS-281), neither in the
table's glossary, and a log entry names only what its own events showed that viewer."""
from __future__ import annotations

import asyncio
import random

from core.engine import create_table
from core.glossary import strings_in
from plugins.arcs.content import default_box
from plugins.arcs.glossary import glossary
from tests.api.client import ACT, create_and_join, http, run, sessions

READ = """query($t: String!) { table(id: $t) { version legalActions { type params } stateJson glossary
  log { version events action { type params } glossary } } }"""


def test_each_viewer_gets_names_of_what_it_may_see_and_no_rival_hand_ARCS_281(server):
    asyncio.run(_play_and_read(server))


async def _play_and_read(server):
    box = default_box()
    async with http(server.url) as host:
        table_id, tokens = await create_and_join(host, "arcs", 3, seed=5, modules=["leaders-and-lore"])
    rng = random.Random(5)
    async with sessions(server.url, tokens) as seats:
        for _ in range(60):  # the draft, then rounds: cards led, followed, secured, discarded
            for session in seats.values():
                table = (await run(session, READ, t=table_id))["table"]
                if table["legalActions"]:
                    action = rng.choice(table["legalActions"])
                    got = (await run(session, ACT, t=table_id, a=action, v=table["version"]))["act"]
                    assert got["__typename"] == "ActOk", got
                    break
        seen = {seat: (await run(session, READ, t=table_id))["table"] for seat, session in seats.items()}
    async with http(server.url) as anon:
        seen[None] = (await run(anon, READ, t=table_id))["table"]
    hands = {seat: set(seen[seat]["stateJson"]["hand"]) for seat in tokens}
    assert all(hands.values()), "every seat still holds cards: the check below has something to find"
    leaders = {p["leader"] for p in seen[0]["stateJson"]["players"] if p.get("leader")}
    assert leaders, "the Leaders & Lore draft is over: Leaders are in play"
    for viewer, table in seen.items():
        names = table["glossary"]
        state = table["stateJson"]
        rival_cards = set().union(*(h for s, h in hands.items() if s != viewer))
        assert not rival_cards & set(names), (viewer, rival_cards & set(names))
        for entry in table["log"]:  # a log line names only what its own redacted events showed this viewer
            said = strings_in([entry["events"], entry["action"]["params"] if entry["action"] else None])
            assert set(entry["glossary"]) <= said, (viewer, entry["version"])
            if viewer is None:  # a spectator sees an action card only once it is played face up
                face_up = {e["data"].get("card") for e in entry["events"] if e["type"] == "played"}
                cards = {k for k, v in entry["glossary"].items() if v["kind"] == "action_card"}
                assert cards <= face_up, (entry["version"], cards - face_up)
        for system in box.systems:  # the whole map, out-of-play clusters too
            assert names[system]["kind"] == "system"
        for card in [c for c in state["court_row"] if c]:
            assert names[card]["name"] == box.court[card].name and names[card]["text"]
        for leader in leaders:
            assert names[leader]["name"] == box.leaders[leader].name and "starts with" in names[leader]["text"]
        for ambition in box.board.ambitions:
            assert names[ambition]["kind"] == "ambition" and names[ambition]["text"]
        if viewer is not None:
            for card in hands[viewer]:
                entry = names[card]
                assert entry["kind"] == "action_card" and "pips" in entry["text"], entry
    played = {p["card"] for p in seen[0]["stateJson"]["plays"] if p.get("card")}
    assert all(card in seen[None]["glossary"] for card in played)  # a face-up play is public


def test_a_rival_hand_card_is_named_only_where_the_viewer_was_shown_it():
    """A view never names another seat's hand card; a log entry's own events (redacted for
    this viewer, e.g. Farseers' look at a hand, BC17) may."""
    table = create_table("arcs", 3, seed=5)
    state = table.state
    rival_card = state.hands[1][0]
    own_card = state.hands[0][0]
    box = default_box()
    named = glossary(box, state, 0, {"hand": [own_card], "somewhere": [rival_card]})
    assert own_card in named and rival_card not in named
    shown = glossary(box, state, 0, {"hand": [own_card], "__events__": [{"type": "hand_shown",
                                                                        "data": {"cards": [rival_card]}}]})
    assert shown[rival_card]["kind"] == "action_card"
    assert rival_card not in glossary(box, state, None, {"x": [rival_card]})
