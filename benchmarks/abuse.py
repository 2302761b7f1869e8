"""Abuse: a normal player's `act` latency while someone attacks the same server (a script,
not a test).

It starts one real `conclave serve` process (embedded store and a temporary SQLite file, or
`--redis`), creates a victim table (the endless test game, one seat) and `--tables` other
tables, then runs each phase for `--seconds`: first no attack, then each attack of issue 13
from a separate client process, while this process sends the victim's seat a paced `act`
(`--rate`, 20/s) and times it from the moment it was due (a late send counts as latency):

- validation: the tester's 13 KB query of 990 repeated `games { id }`, a new comment each time;
- statejson: 30 aliased `stateJson` over a page of 100 tables (`glossary` likewise);
- log-subscription: graphql-transport-ws subscriptions with 29 aliased `log` fields,
  subscribed again and again;
- create-tables: `createTable` as fast as it goes, over HTTP and over one WebSocket.

For each it prints the act p50/p99/max, what the attack got (refused by code, or served),
and the server's resident memory afterwards; the last line is one JSON object. It exits
non-zero if an act p99 is over 50 ms, or an attack was neither refused nor bounded.

The attacker connects from 127.0.0.2-5 (one address per attack), the victim from 127.0.0.1 (all loopback): every limit
keeps its default - cost, repeated fields, HTTP rates per token and per address (a flood
past 1,000 requests/s is answered 429, a WebSocket refused more than 10 times is closed
with 4429 and its address's next connects refused (403); an address penalized past its
rate has its connections dropped as they open: all counted as refused), table quotas -
except the
creation burst, raised so that set-up can create its tables (the open-tables quota, 10, is
what bounds the flood).

    python benchmarks/abuse.py [--seconds 5] [--tables 300] [--rate 20] [--redis] [--attacks a,b]
    python benchmarks/abuse.py --smoke     # 1 s phases, 20 tables; judges refusals, not timing

Every target address is loopback; every loop is bounded in time; the script stops by itself.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.api.client import CREATE, JOIN  # noqa: E402
from tests.api.services import REDIS_URL, Server  # noqa: E402

TARGET_P99_MS = 50.0
OPEN_TABLES_QUOTA = 10  # the default CONCLAVE_OPEN_TABLES_PER_ADDRESS
# Each attack comes from its own loopback address (127/8): the server sees another client
# than the victim, and one attack's penalty (an address shut out) never hides what the
# next attack would have got.
ATTACKER_ADDRESSES = {"validation": "127.0.0.2", "statejson": "127.0.0.3", "log-subscription": "127.0.0.4",
                      "create-tables": "127.0.0.5"}
ACT = """mutation($t: String!, $a: ActionInput!) { act(tableId: $t, action: $a) {
  __typename ... on ActRejected { code message } } }"""
TICK = {"type": "tick", "params": {"n": 1}}
REPEATED = "{ " + " ".join("games { id }" for _ in range(990)) + " }"
STATE_ALIASES = "{ tables(first: 100) { " + " ".join(f"a{i}: stateJson g{i}: glossary" for i in range(15)) + " } }"
LOG_ALIASES = ('subscription($t: String!) { tableUpdates(tableId: $t) { table { '
               + " ".join(f"l{i}: log {{ version seat events }}" for i in range(29)) + " } } }")
ATTACKS = ["validation", "statejson", "log-subscription", "create-tables"]


def outcome(body: dict) -> str:
    """What one attack request got: an error code, a result type, or "served"."""
    if body.get("errors"):
        return (body["errors"][0].get("extensions") or {}).get("code") or "error"
    data = body.get("data") or {}
    created = data.get("createTable")
    if created is not None:
        return created.get("code") or created["__typename"]
    return "served"


# -- the attacker (its own process: its CPU is not the prober's) -----------------------------
async def http_flood(session, url: str, body_of, until: float, counts: Counter) -> None:
    import aiohttp

    i = 0
    while time.monotonic() < until:
        i += 1
        try:
            async with session.post(url, json=body_of(i)) as r:
                counts[outcome(await r.json(content_type=None)) if r.status == 200 else f"HTTP_{r.status}"] += 1
        except (aiohttp.ClientError, OSError):  # the server dropped the connection (shut out)
            counts["DROPPED"] += 1


async def ws_loop(session, ws_url: str, payload_of, until: float, counts: Counter) -> None:
    """Operations over a graphql-transport-ws connection, one after another; a connection
    the server closes is opened again."""
    import aiohttp

    i = 0
    while time.monotonic() < until:
        try:
            connecting = session.ws_connect(ws_url, protocols=["graphql-transport-ws"])
            socket = await connecting.__aenter__()
        except aiohttp.WSServerHandshakeError as exc:  # refused at the handshake: the address's rate
            counts[f"WS_REFUSED_{exc.status}"] += 1
            continue
        except (aiohttp.ClientError, OSError):  # dropped as soon as connected (shut out)
            counts["DROPPED"] += 1
            continue
        async with socket:
            await socket.send_json({"type": "connection_init", "payload": {}})
            await socket.receive_json()
            while time.monotonic() < until and not socket.closed:
                i += 1
                await socket.send_json({"id": str(i), "type": "subscribe", "payload": payload_of(i)})
                while True:
                    raw = await socket.receive(timeout=10)
                    if raw.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                        counts[f"WS_CLOSED_{socket.close_code}"] += 1
                        break
                    message = json.loads(raw.data)
                    if message.get("id") != str(i):
                        continue
                    if message["type"] == "error":
                        errors = message["payload"]
                        counts[(errors[0].get("extensions") or {}).get("code") or "error"] += 1
                        break
                    if message["type"] == "next":
                        counts[outcome(message["payload"])] += 1
                        await socket.send_json({"id": str(i), "type": "complete"})
                        break
                    if message["type"] == "complete":
                        counts["complete"] += 1
                        break


async def attack(kind: str, url: str, ws_url: str, table_id: str, seconds: float) -> dict:
    import aiohttp

    counts: Counter = Counter()
    until = time.monotonic() + seconds
    create = lambda i: {"query": CREATE, "variables": {"input": {"game": "endless", "players": 2}}}  # noqa: E731
    connector = aiohttp.TCPConnector(local_addr=(ATTACKER_ADDRESSES[kind], 0))  # another client than the victim
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as session:
        if kind == "validation":
            jobs = [http_flood(session, url, lambda i, w=w: {"query": f"# {uuid.uuid4().hex} {w}\n" + REPEATED},
                               until, counts) for w in range(4)]
        elif kind == "statejson":
            jobs = [http_flood(session, url, lambda i: {"query": f"# {i}\n" + STATE_ALIASES}, until, counts)
                    for _ in range(4)]
        elif kind == "log-subscription":
            jobs = [ws_loop(session, ws_url, lambda i: {"query": f"# {i}\n" + LOG_ALIASES,
                                                        "variables": {"t": table_id}}, until, counts)
                    for _ in range(4)]
        else:
            jobs = [http_flood(session, url, create, until, counts) for _ in range(3)]
            jobs.append(ws_loop(session, ws_url, create, until, counts))
        await asyncio.gather(*jobs)
    return dict(counts)


def attacker(kind, url, ws_url, table_id, seconds, results) -> None:
    try:
        results.put(asyncio.run(attack(kind, url, ws_url, table_id, seconds)))
    except Exception as exc:  # noqa: BLE001 - the prober must hear of it, not wait
        results.put({f"attacker failed: {exc!r}": 1})


# -- the prober and the phases ---------------------------------------------------------------
async def post(session, url: str, query: str, variables: dict, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with session.post(url, json={"query": query, "variables": variables}, headers=headers) as r:
        return await r.json(content_type=None)


async def setup(url: str, tables: int) -> tuple[str, str]:
    """The victim table and its seat token, and `tables` more (each seat taken: not open)."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async def one() -> tuple[str, str]:
            made = (await post(session, url, CREATE, {"input": {"game": "endless", "players": 1}}))["data"]["createTable"]
            assert made["__typename"] == "CreateTableOk", made
            tid = made["table"]["id"]
            joined = (await post(session, url, JOIN, {"t": tid, "s": 0, "n": "p", "c": made["joinCode"]}))["data"]["joinTable"]
            assert joined["__typename"] == "JoinOk", joined
            return tid, joined["seatToken"]

        victim = await one()
        for start in range(0, tables, OPEN_TABLES_QUOTA):  # each batch joined before the next: never 10 open
            await asyncio.gather(*(one() for _ in range(min(OPEN_TABLES_QUOTA, tables - start))))
        return victim


async def probe(url: str, table_id: str, token: str, seconds: float, rate: float) -> dict:
    import aiohttp

    latencies, failures = [], Counter()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        await post(session, url, ACT, {"t": table_id, "a": TICK}, token)  # the connection, warm
        started = time.perf_counter()
        n = 0
        while (due := started + n / rate) < started + seconds:
            n += 1
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            body = await post(session, url, ACT, {"t": table_id, "a": TICK}, token)
            latencies.append((time.perf_counter() - due) * 1000)
            result = (body.get("data") or {}).get("act") or {}
            if result.get("__typename") != "ActOk":
                failures[result.get("code") or outcome(body)] += 1
    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)  # noqa: E731
    return {"acts": len(latencies), "act_p50_ms": pick(0.5), "act_p99_ms": pick(0.99),
            "act_max_ms": round(latencies[-1], 2), "act_failures": dict(failures),
            "act_over_50ms": sum(1 for x in latencies if x > TARGET_P99_MS)}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def verdict(kind: str, counts: dict) -> str:
    """"refused" when every attack request was refused with its code; "bounded" when what
    was served stayed within the quota; else "NOT BOUNDED"."""
    if not counts:
        return "NOT BOUNDED (no attack ran)"
    refusals = {"QUERY_TOO_COMPLEX", "HTTP_429", "WS_CLOSED_4429", "WS_REFUSED_403", "DROPPED"}
    if kind == "create-tables":
        # Bounded: no more tables than the quota, and every other request refused: over the
        # quota, or the address already shut out by an earlier phase (a short smoke run).
        created = counts.get("CreateTableOk", 0)
        others = set(counts) - {"CreateTableOk"}
        return "bounded" if created <= OPEN_TABLES_QUOTA and others <= refusals | {"QUOTA_EXCEEDED"} else "NOT BOUNDED"
    return "refused" if set(counts) <= refusals else "NOT BOUNDED"


def run_phase(kind: str | None, server: Server, victim: tuple[str, str], seconds: float, rate: float) -> dict:
    proc = results = None
    if kind is not None:
        ctx = mp.get_context("spawn")
        results = ctx.Queue()
        proc = ctx.Process(target=attacker, args=(kind, server.url, server.ws_url, victim[0], seconds + 0.5, results))
        proc.start()
        time.sleep(0.5)  # the attacker's interpreter started and its flood under way
    measured = asyncio.run(probe(server.url, victim[0], victim[1], seconds, rate))
    row = {"phase": kind or "no attack", **measured, "server_rss_mb": rss_mb(server.proc.pid)}
    if proc is not None:
        counts = results.get(timeout=60)
        proc.join(timeout=30)
        row.update(attack=counts, verdict=verdict(kind, counts))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="which attacks, comma-separated")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.tables = 1.0, 20
    tmp = Path(tempfile.mkdtemp(prefix="conclave-abuse-"))
    defaults = ("CONCLAVE_RATE_PER_SECOND", "CONCLAVE_RATE_BURST", "CONCLAVE_ADDRESS_RATE_PER_SECOND",
                "CONCLAVE_ADDRESS_BURST", "CONCLAVE_CREATES_PER_MINUTE", "CONCLAVE_OPEN_TABLES_PER_ADDRESS")
    env = {"DATABASE_URL": f"sqlite:///{tmp / 'abuse.sqlite3'}", **{name: "" for name in defaults},
           "CONCLAVE_CREATE_BURST": str(args.tables + 50)}
    if args.redis:
        env.update(REDIS_URL=os.environ.get("TEST_REDIS_URL", REDIS_URL), CONCLAVE_REDIS_PREFIX=f"abuse-{uuid.uuid4().hex[:8]}")
    server = Server(env=env, log_path=tmp / "server.log").start()
    rows = []
    try:
        victim = asyncio.run(setup(server.url, args.tables))
        for kind in [None, *(a for a in args.attacks.split(",") if a in ATTACKS)]:
            rows.append(run_phase(kind, server, victim, args.seconds, args.rate))
    finally:
        server.stop()
    print(f"{'phase':<18}{'acts':>6}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'rss MB':>8}  attack")
    for row in rows:
        got = ", ".join(f"{k} {v}" for k, v in sorted(row.get("attack", {}).items())) or "-"
        print(f"{row['phase']:<18}{row['acts']:>6}{row['act_p50_ms']:>9}{row['act_p99_ms']:>9}{row['act_max_ms']:>9}"
              f"{row['server_rss_mb']:>8}  {row.get('verdict', '')} ({got})")
    slow = [r["phase"] for r in rows if r["act_p99_ms"] > TARGET_P99_MS]
    unbounded = [r["phase"] for r in rows if r.get("verdict", "").startswith("NOT")]
    failed = [r["phase"] for r in rows if r["act_failures"]]
    print(json.dumps({"rows": rows, "tables": args.tables, "seconds": args.seconds, "rate": args.rate,
                      "slow": slow, "unbounded": unbounded, "act_failures": failed}))
    if unbounded or failed or (slow and not args.smoke):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
