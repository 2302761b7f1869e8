"""Turn clocks and absent seats through the API (issue 21): a clocked table's clock starts
when its last seat is taken; a seat whose time runs out is taken over by a server-side bot
within a second, exactly once, with two server processes on one Redis; the bot's moves say
so in the log; the player takes the seat back with its own token; the host may mark a seat
absent; a seat may not send the server's own table actions."""
from __future__ import annotations

import asyncio
import time

import pytest

from tests.api.client import ACT, create_and_join, http, run, sessions

CLOCKS = """query($t: String!) { table(id: $t) { version activeSeats clocks { seat remainingMs running away }
  legalActions { type } } }"""
LOG = """query($t: String!, $after: Int!) { table(id: $t) { log(afterVersion: $after) { version seat bot events } } }"""
ABSENT = """mutation($t: String!, $s: Int!) { markAbsent(tableId: $t, seat: $s) {
  __typename ... on ActOk { version } ... on ActRejected { code message } } }"""


def kinds(entry) -> list[str]:
    return [e["type"] for e in entry["events"]]


async def wait_for_takeover(session, table_id: str, seat: int, after: int, limit: float = 5.0):
    """Poll the log until the seat is taken over; (seconds waited, log since `after`)."""
    began = time.monotonic()
    while time.monotonic() - began < limit:
        log = (await run(session, LOG, t=table_id, after=after))["table"]["log"]
        if any("taken_over" in kinds(e) and e["seat"] == seat for e in log):
            return time.monotonic() - began, log
        await asyncio.sleep(0.05)
    raise AssertionError(f"Seat {seat + 1} was not taken over within {limit} s")


def test_a_seat_out_of_time_is_played_by_a_bot_exactly_once_across_two_processes(make_redis_server):
    first, second = make_redis_server(), make_redis_server()  # two referees race for every deadline

    async def main():
        async with http(first.url) as host:
            table_id, tokens = await create_and_join(host, "arcs", 3, seed=5,
                                                     options={"clock": "move", "clock_seconds": 1})
        async with sessions(first.url, tokens) as seats, sessions(second.url, tokens) as elsewhere:
            table = (await run(seats[0], CLOCKS, t=table_id))["table"]
            (start,) = (await run(seats[0], LOG, t=table_id, after=0))["table"]["log"]
            assert kinds(start) == ["clock_started"]
            seat = table["activeSeats"][0]
            shown = table["clocks"][seat]
            assert shown["running"] and 0 < shown["remainingMs"] <= 1000 and not shown["away"]
            assert not any(c["running"] for c in table["clocks"] if c["seat"] not in table["activeSeats"])
            # Nobody acts: after its second the seat is taken over, then the bot plays for it.
            waited, log = await wait_for_takeover(elsewhere[1], table_id, seat, table["version"])
            assert waited < 1.0 + 1.0, waited  # its second, then within a second
            await asyncio.sleep(1.5)  # both referees have had many turns since
            log = (await run(seats[1], LOG, t=table_id, after=table["version"]))["table"]["log"]
            taken = [e for e in log if "taken_over" in kinds(e) and e["seat"] == seat]
            assert len(taken) == 1, taken  # exactly once
            assert taken[0]["events"][0]["data"] == {"seat": seat, "by": "bot", "reason": "time"}
            played = [e for e in log if e["bot"]]
            assert played and all(e["seat"] == seat for e in played if e["version"] < taken[0]["version"] + 2)
            versions = [e["version"] for e in log]
            assert versions == list(range(table["version"] + 1, table["version"] + 1 + len(versions)))
            # The player takes the seat back with its own token (on the other process).
            result = (await run(elsewhere[seat], ACT, t=table_id, a={"type": "resume", "params": {}}, v=None))["act"]
            assert result["__typename"] == "ActOk", result
            now = (await run(seats[seat], CLOCKS, t=table_id))["table"]
            assert now["clocks"][seat]["away"] is False
            # A seat may not time itself (or anyone) out, nor mark a seat away.
            for kind in ("timeout", "away", "clock_start"):
                refused = (await run(seats[seat], ACT, t=table_id, a={"type": kind, "params": {}}, v=None))["act"]
                assert refused["__typename"] == "ActRejected" and refused["code"] == "NOT_LEGAL_NOW", refused
    asyncio.run(main())


@pytest.mark.parametrize("bot", [{}, {"bot": "search", "bot_budget_ms": 10}])
def test_the_host_marks_a_seat_absent_and_a_bot_plays_it(server, bot):
    """The table's bot setting picks who plays the absent seat: the random bot, or the search
    bot (which reads only that seat's view)."""
    async def main():
        async with http(server.url) as host:
            created = await create_and_join(host, "new-capital", 2, seed=6, options={"clock": "bank",
                                                                                   "clock_seconds": 600, **bot},
                                            with_host=True)
            table_id, tokens, host_token = created
        async with http(server.url, host_token) as hosting, sessions(server.url, tokens) as seats:
            refused = (await run(seats[0], ABSENT, t=table_id, s=1))["markAbsent"]
            assert refused["__typename"] == "ActRejected" and refused["code"] == "FORBIDDEN"
            marked = (await run(hosting, ABSENT, t=table_id, s=1))["markAbsent"]
            assert marked["__typename"] == "ActOk", marked
            again = (await run(hosting, ABSENT, t=table_id, s=1))["markAbsent"]
            assert again["__typename"] == "ActRejected" and again["code"] == "NOT_LEGAL_NOW"
            began = time.monotonic()
            while time.monotonic() - began < 5:
                log = (await run(seats[0], LOG, t=table_id, after=marked["version"]))["table"]["log"]
                if any(e["bot"] and e["seat"] == 1 for e in log):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("no bot move for the absent seat")
            assert all(e["seat"] == 1 for e in log if e["bot"])
            # The bot's move is not the player's own: it cannot take it back.
            await asyncio.sleep(0.5)
            newest = (await run(seats[1], LOG, t=table_id, after=0))["table"]["log"][-1]
            assert newest["bot"] and newest["seat"] == 1  # (seat 0 never acts here)
            refused = (await run(seats[1], ACT, t=table_id, a={"type": "undo", "params": {}}, v=None))["act"]
            assert refused["__typename"] == "ActRejected" and refused["code"] == "UNDO_NOT_YOURS", refused
    asyncio.run(main())


def test_a_table_without_a_clock_has_none(server):
    async def main():
        async with http(server.url) as host:
            table_id, tokens = await create_and_join(host, "arcs", 2, seed=5)
        async with sessions(server.url, tokens) as seats:
            table = (await run(seats[0], CLOCKS, t=table_id))["table"]
            assert table["clocks"] is None and table["version"] == 0  # no clock_start either
            resumed = (await run(seats[0], ACT, t=table_id, a={"type": "resume", "params": {}}, v=None))["act"]
            assert resumed["__typename"] == "ActRejected" and resumed["code"] == "NOT_LEGAL_NOW"
    asyncio.run(main())


def test_a_clock_keeps_running_over_a_server_restart(server):
    """SIGKILL the server while a seat's clock runs: the restarted server still takes the
    seat over when its time is out (the embedded store keeps no deadlines; start-up sets
    them again)."""
    async def main():
        async with http(server.url) as host:
            table_id, tokens = await create_and_join(host, "arcs", 2, seed=5,
                                                     options={"clock": "move", "clock_seconds": 5})
        server.kill()
        server.start()
        async with sessions(server.url, tokens) as seats:
            seat = (await run(seats[0], CLOCKS, t=table_id))["table"]["activeSeats"][0]
            await wait_for_takeover(seats[0], table_id, seat, 0, limit=12.0)
    asyncio.run(main())


SKIPPED = """query($t: String!) { table(id: $t) { version activeSeats clocks { seat away timed skipped } } }"""


def test_a_councilor_out_of_time_is_skipped_where_the_table_asks(server):
    """A Queen's Dilemma table with `absent_seats: "skip"`: a seat out of time is skipped as
    the rules treat an absent councilor (QD-116), not played by a bot: its taken_over says
    so, no bot move is ever made for it, the others play on, and its player comes back with
    their token."""
    async def main():
        async with http(server.url) as host:
            table_id, tokens = await create_and_join(host, "queens-dilemma", 5, seed=3, options={
                "clock": "move", "clock_seconds": 1, "absent_seats": "skip"})
        async with sessions(server.url, tokens) as seats:
            first = (await run(seats[0], SKIPPED, t=table_id))["table"]
            seat = first["activeSeats"][0]
            waited, log = await wait_for_takeover(seats[0], table_id, seat, first["version"])
            assert waited < 2.0, waited
            taken = next(e for e in log if "taken_over" in kinds(e) and e["seat"] == seat)
            assert taken["events"][0]["data"] == {"seat": seat, "by": "skip", "reason": "time"}
            assert "councilor_left" in kinds(taken)
            shown = (await run(seats[0], SKIPPED, t=table_id))["table"]
            assert shown["clocks"][seat] == {"seat": seat, "away": True, "timed": True, "skipped": True}
            assert seat not in shown["activeSeats"]
            resumed = (await run(seats[seat], ACT, t=table_id, a={"type": "resume", "params": {}}, v=None))["act"]
            assert resumed["__typename"] == "ActOk", resumed
            log = (await run(seats[0], LOG, t=table_id, after=0))["table"]["log"]
            assert not [e for e in log if e["bot"] and e["seat"] == seat]
            back = next(e for e in log if e["version"] == resumed["version"])
            assert kinds(back)[:2] == ["returned", "councilor_back"]
            shown = (await run(seats[0], SKIPPED, t=table_id))["table"]
            assert shown["clocks"][seat]["skipped"] is False
    asyncio.run(main())


def test_the_host_marks_a_councilor_absent_at_a_table_without_a_clock(server):
    """No clock: the host may still mark a seat absent; the seat's entry in `clocks` is not
    timed; at a skipping table the game goes on without it."""
    async def main():
        async with http(server.url) as host:
            table_id, tokens, host_token = await create_and_join(host, "queens-dilemma", 4, seed=3,
                                                                 options={"absent_seats": "skip"}, with_host=True)
        async with http(server.url, host_token) as hosting, sessions(server.url, tokens) as seats:
            before = (await run(seats[0], SKIPPED, t=table_id))["table"]
            assert before["clocks"] is None
            seat = before["activeSeats"][0]
            marked = (await run(hosting, ABSENT, t=table_id, s=seat))["markAbsent"]
            assert marked["__typename"] == "ActOk", marked
            shown = (await run(seats[0], SKIPPED, t=table_id))["table"]
            assert shown["clocks"][seat] == {"seat": seat, "away": True, "timed": False, "skipped": True}
            assert seat not in shown["activeSeats"] and shown["activeSeats"]
    asyncio.run(main())
