"""Each log entry and each live update carries the glossary of the ids its (redacted) events
name, so a client writes every log line with card names even for cards that have left every
view since (a burned or discarded card); and like the table's glossary it names nothing the
viewer may not know: only ids that are in that viewer's own events."""
from __future__ import annotations

import asyncio
import random

from core.glossary import strings_in
from tests.api.client import ACT, create_and_join, http, run, sessions

LOG = """query($t: String!) { table(id: $t) { version activeSeats legalActions { type params } glossary
  log { version seat events action { type params } glossary } } }"""


def test_log_entries_name_their_own_cards_and_only_those(server):
    async def main():
        async with http(server.url) as host:
            table_id, tokens = await create_and_join(host, "new-capital", 2, seed=11)
        rng = random.Random(11)
        async with sessions(server.url, tokens) as seats:
            for _ in range(40):  # the draft, then development: cards are played, burned and discarded
                for seat, session in seats.items():
                    table = (await run(session, LOG, t=table_id))["table"]
                    if table["legalActions"]:
                        action = rng.choice(table["legalActions"])
                        result = (await run(session, ACT, t=table_id, a=action, v=table["version"]))["act"]
                        assert result["__typename"] == "ActOk", result
                        break
            gone = 0
            for seat, session in seats.items():
                table = (await run(session, LOG, t=table_id))["table"]
                for entry in table["log"]:
                    named = strings_in([entry["events"], entry["action"]["params"] if entry["action"] else None])
                    assert set(entry["glossary"]) <= named, set(entry["glossary"]) - named  # nothing beyond its own ids
                    for ident, card in entry["glossary"].items():
                        assert card["name"] and card["name"] != ident
                        gone += ident not in table["glossary"]
            assert gone > 0, "no log entry named a card that has left the current view: the test proves nothing"
        async with http(server.url) as spectator:
            table = (await run(spectator, LOG, t=table_id))["table"]
            for entry in table["log"]:
                assert set(entry["glossary"]) <= strings_in(entry["events"])  # a spectator's: public ids only
    asyncio.run(main())
