"""The Redis live store: many server processes share it.

Keys of one table carry the table id as a hash tag (`prefix:{id}:…`) so Redis Cluster
keeps them on one slot. A commit is one Lua script: compare the version, write the
snapshot, append to the log stream (entry id = version), publish the entry.
"""
from __future__ import annotations

import hashlib
import json
import logging

import msgspec
import redis.asyncio as redis

from api.live.base import Listeners, LiveStore, SeatClaimed, SeatRefused, Snapshot
from api.live.redis_commands import CommandConnection
from api.live.redis_pubsub import Subscriber

log = logging.getLogger("conclave.redis")

COMMIT = """
local current = redis.call('GET', KEYS[1])
if (current or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[2], ARGV[3])
  redis.call('SET', KEYS[5], ARGV[2])
end
redis.call('XADD', KEYS[3], ARGV[2] .. '-1', 'e', ARGV[4])
if ARGV[6] == '1' then redis.call('SET', KEYS[4], '1') end
redis.call('PUBLISH', ARGV[5], ARGV[4])
return 1
"""


COMMIT_SHA = hashlib.sha1(COMMIT.encode()).hexdigest()

# Take a seat: KEYS seats, invitations; ARGV seat, record, invitation hash ('' = the table's
# join code, which takes only a seat nobody reserved). Returns 1, or why not: 0 taken,
# -1 reserved, -2 not invited with that code.
CLAIM = """
local invited = redis.call('HGET', KEYS[2], ARGV[1])
if ARGV[3] == '' then
  if invited then return -1 end
elseif invited ~= ARGV[3] then return -2 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
if invited then redis.call('HDEL', KEYS[2], ARGV[1]) end
return 1
"""
_REFUSED = {0: SeatRefused.TAKEN, -1: SeatRefused.RESERVED, -2: SeatRefused.NOT_INVITED}

# Reserve a free seat: KEYS seats, invitations, meta; ARGV seat, invitation hash. The
# invitations expire with a table nobody has joined yet (its meta's time to live).
RESERVE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[3])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""


def _seats(raw: dict) -> dict[int, dict]:
    """A table's `seats` hash as stored (seat -> JSON record)."""
    return {int(k): json.loads(v) for k, v in raw.items()}


class RedisStore(LiveStore):
    name = "redis"
    # A state's bytes are most of a commit's work in the server (encoding a table's whole
    # state, cold in the CPU caches by its next action: ~75 us of ~900 per action in
    # benchmarks/api_load.py) and of its size in Redis; a reader replays at most 7 entries.
    snapshot_every = 8

    def __init__(self, url: str, prefix: str = "conclave", on_error=None, client_name: str = "conclave-store",
                 unjoined_ttl: int | None = None) -> None:
        # A pool that opens connections as concurrent requests need them (Redis accepts
        # 10,000 clients): redis-py's blocking pool waited in a task per command, about 9 us
        # of CPU each (benchmarks/api_load.py commits once per action). Its connections are
        # named (CLIENT SETNAME, once per connection) so CLIENT LIST tells them apart.
        pool = redis.ConnectionPool.from_url(url, max_connections=4096, client_name=client_name)
        self.r = redis.Redis(connection_pool=pool, decode_responses=False)
        self.prefix = prefix
        self.unjoined_ttl = unjoined_ttl  # a new table's keys expire unless a seat is taken first
        self._commands = CommandConnection(url)  # commits: pipelined, one per action
        self.listeners = Listeners()
        self.on_error = on_error or (lambda exc: None)
        self._subscriber = Subscriber(url, self._published, self.on_error)
        self._channel_prefix = f"{prefix}:{{"

    # -- keys -------------------------------------------------------------------
    def k(self, table_id: str, part: str) -> str:
        return f"{self.prefix}:{{{table_id}}}:{part}"

    def channel(self, table_id: str) -> str:
        return self.k(table_id, "updates")

    async def _read(self, read, *args):
        """A read, once more after a lost connection. A Redis restart or CLIENT KILL leaves
        every idle pooled connection dead, and redis-py finds out only when a command fails on
        one, so the idle ones are dropped first and the second try opens a fresh connection.
        Only reads: a write whose reply was lost may have run, and must not run twice."""
        try:
            return await read(*args)
        except redis.ConnectionError as exc:
            self.on_error(exc)
            await self.r.connection_pool.disconnect(inuse_connections=False)
            return await read(*args)

    # -- tables -----------------------------------------------------------------
    async def create(self, table_id, meta, state):
        ttl = self.unjoined_ttl  # the first seat taken makes them persistent (claim_seat)
        async with self.r.pipeline(transaction=True) as p:
            p.set(self.k(table_id, "meta"), json.dumps(meta), ex=ttl)
            p.set(self.k(table_id, "version"), 0, ex=ttl)
            p.set(self.k(table_id, "state"), state, ex=ttl)
            p.set(self.k(table_id, "stateversion"), 0, ex=ttl)
            p.sadd(f"{self.prefix}:tables", table_id)
            p.zadd(f"{self.prefix}:tableorder", {table_id: 0})  # all scores 0: a page is a range by id
            if meta.get("host_token_hash"):
                p.set(f"{self.prefix}:token:{meta['host_token_hash']}", f"{table_id}|", ex=ttl)
            await p.execute()

    async def load(self, table_id):
        return await self._read(self._load, table_id)

    async def _load(self, table_id):
        meta_raw, version, state, finished, state_version = await self.r.mget(
            self.k(table_id, "meta"), self.k(table_id, "version"), self.k(table_id, "state"), self.k(table_id, "finished"),
            self.k(table_id, "stateversion"))
        if meta_raw is None or state is None:
            return None
        seats = _seats(await self.r.hgetall(self.k(table_id, "seats")))
        meta = dict(json.loads(meta_raw), seats=seats)
        version = int(version or 0)
        return Snapshot(meta=meta, version=version, state=state, finished=finished == b"1",
                        state_version=version if state_version is None else int(state_version))

    async def version(self, table_id):
        raw = await self._read(self.r.get, self.k(table_id, "version"))
        return None if raw is None else int(raw)

    async def commit(self, table_id, expected_version, state, entry, finished):
        try:
            ok = await self._commands.eval_script(
                COMMIT_SHA, COMMIT,
                keys=[self.k(table_id, "version"), self.k(table_id, "state"), self.k(table_id, "log"),
                      self.k(table_id, "finished"), self.k(table_id, "stateversion")],
                args=[str(expected_version), str(expected_version + 1), state, msgspec.json.encode(entry),
                      self.channel(table_id), "1" if finished else "0"],
            )
        except redis.RedisError as exc:
            self.on_error(exc)
            raise
        return ok == 1

    async def entries(self, table_id, after_version):
        rows = await self._read(self.r.xrange, self.k(table_id, "log"), f"{after_version + 1}-0", "+")
        return [msgspec.json.decode(fields[b"e"]) for _id, fields in rows]

    async def claim_seat(self, table_id, seat, record, invitation=None):
        # one round trip where a join made five (take, index, read the table back): index the
        # token, take the seat (a script on the table's keys: the seat only if its reservation
        # allows), read the seats and the version; the token key is not the table's (Redis
        # Cluster: another slot), so this is a pipeline around the script. EVAL, not EVALSHA:
        # redis-py checks a pipeline's registered scripts with a round trip of its own.
        token_key = f"{self.prefix}:token:{record['token_hash']}"
        expiring = self.unjoined_ttl is not None
        async with self.r.pipeline(transaction=False) as p:
            p.set(token_key, f"{table_id}|{seat}")
            p.eval(CLAIM, 2, self.k(table_id, "seats"), self.k(table_id, "invitations"), str(seat),
                   json.dumps(record), invitation or "")
            p.hgetall(self.k(table_id, "seats"))
            p.get(self.k(table_id, "version"))
            if expiring:  # a seat taken: the table's keys no longer expire (a no-op after the first)
                p.persist(self.k(table_id, "meta"))
                for part in ("version", "state", "stateversion", "invitations"):
                    p.persist(self.k(table_id, part))
            _, claimed, seats, version, *persisted = await p.execute()
        if claimed != 1:
            await self.r.delete(token_key)
            return _REFUSED[claimed]
        if expiring and persisted[0]:  # this claim made the table persistent: its host token too
            await self._persist_host(table_id)
        return SeatClaimed(version=int(version or 0), seats=_seats(seats))

    async def reserve_seat(self, table_id, seat, invitation):
        return await self.r.eval(RESERVE, 3, self.k(table_id, "seats"), self.k(table_id, "invitations"),
                                 self.k(table_id, "meta"), str(seat), invitation) == 1

    async def _persist_host(self, table_id: str) -> None:
        meta_raw = await self.r.get(self.k(table_id, "meta"))
        host = json.loads(meta_raw).get("host_token_hash") if meta_raw is not None else None
        if host:
            await self.r.persist(f"{self.prefix}:token:{host}")

    async def seats(self, table_id):
        return _seats(await self._read(self.r.hgetall, self.k(table_id, "seats")))

    async def token_owner(self, token_hash):
        raw = await self._read(self.r.get, f"{self.prefix}:token:{token_hash}")
        if raw is None:
            return None
        table_id, _, seat = raw.decode().partition("|")
        return table_id, (int(seat) if seat else None)

    async def table_ids(self):
        """Live tables; ids whose keys have expired are pruned from the index on the way."""
        return await self._read(self._table_ids)

    async def _table_ids(self):
        ids = sorted(m.decode() for m in await self.r.smembers(f"{self.prefix}:tables"))
        alive, gone = await self._alive(ids)
        if gone:
            await self.r.srem(f"{self.prefix}:tables", *gone)
        return alive

    async def _alive(self, ids: list[str]) -> tuple[list[str], list[str]]:
        """(ids whose table still exists, ids whose keys have expired), in one round trip."""
        if not ids:
            return [], []
        async with self.r.pipeline(transaction=False) as p:
            for tid in ids:
                p.exists(self.k(tid, "meta"))
            found = await p.execute()
        return [t for t, ok in zip(ids, found) if ok], [t for t, ok in zip(ids, found) if not ok]

    async def page_ids(self, after, limit):
        """One page of the id-ordered index (built from the id set once, for tables created
        before it existed); ids whose keys have expired are pruned on the way."""
        order = f"{self.prefix}:tableorder"
        if not await self.r.exists(order):
            members = await self.r.smembers(f"{self.prefix}:tables")
            if members:
                await self.r.zadd(order, {m: 0 for m in members})
        start = "-" if after is None else f"({after}"
        while True:
            ids = [m.decode() for m in await self.r.zrangebylex(order, start, "+", start=0, num=limit)]
            if not ids:
                return []
            alive, gone = await self._alive(ids)
            if not gone:
                return ids
            await self.r.zrem(order, *gone)
            await self.r.srem(f"{self.prefix}:tables", *gone)
            if alive:
                return alive
            start = f"({ids[-1]}"

    async def expire(self, table_id, seconds):
        """A finished, archived table and its tokens' index entries expire together."""
        meta_raw = await self.r.get(self.k(table_id, "meta"))
        seats = await self.seats(table_id)
        hashes = [rec["token_hash"] for rec in seats.values()]
        if meta_raw is not None and json.loads(meta_raw).get("host_token_hash"):
            hashes.append(json.loads(meta_raw)["host_token_hash"])
        async with self.r.pipeline(transaction=False) as p:
            for part in ("meta", "version", "state", "stateversion", "finished", "log", "seats", "invitations"):
                p.expire(self.k(table_id, part), seconds)
            for h in hashes:
                p.expire(f"{self.prefix}:token:{h}", seconds)
            await p.execute()

    async def set_due(self, table_id, at_ms):
        key = f"{self.prefix}:due"
        if at_ms is None:
            await self.r.zrem(key, table_id)
        else:
            await self.r.zadd(key, {table_id: at_ms})

    async def claim_due(self, now_ms, limit):
        key = f"{self.prefix}:due"
        found = await self.r.zrangebyscore(key, "-inf", now_ms, start=0, num=limit)
        if not found:
            return []
        async with self.r.pipeline(transaction=False) as p:
            for table_id in found:
                p.zrem(key, table_id)
            removed = await p.execute()
        # ZREM answers 1 to one caller only: the table is that process's this turn
        return [t.decode() if isinstance(t, bytes) else t for t, gone in zip(found, removed) if gone]

    async def ping(self):
        """Redis answers (after a lost connection, on a fresh one: /readyz reconnects)."""
        return bool(await self._read(self.r.ping))

    # -- notifications -----------------------------------------------------------
    async def subscribe(self, table_id, listener=None):
        q = self.listeners.add(table_id, listener)
        channel = self.channel(table_id)
        if channel not in self._subscriber.channels:
            try:
                await self._subscriber.subscribe(channel)
            except Exception:
                self.listeners.remove(table_id, q)
                raise
        return q

    async def unsubscribe(self, table_id, queue):
        if self.listeners.remove(table_id, queue):
            self._subscriber.unsubscribe(self.channel(table_id))

    def _published(self, channel: bytes, data: bytes) -> None:
        """A published entry: to this process's listeners of its table."""
        table_id = channel.decode()[len(self._channel_prefix):].split("}", 1)[0]
        self.listeners.notify(table_id, msgspec.json.decode(data))

    async def close(self):
        await self._subscriber.close()
        await self._commands.close()
        await self.r.aclose()
