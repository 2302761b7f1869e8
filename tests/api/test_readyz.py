"""`/readyz` reconnects before it answers (issue 13): when Redis comes back after an outage,
the first `/readyz` says ready (it used to say not ready once, on a dead pooled connection,
when nothing had used Redis during the outage).
The outage is a private `redis-server` this test starts and stops: the shared Redis of the
other tests is left alone."""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import time

import httpx
import pytest
import redis

from tests.api.services import free_port


def start_redis(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if redis.Redis(port=port, socket_connect_timeout=0.2).ping():
                return proc
        except redis.ConnectionError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the private redis-server did not start")


def stop_redis(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def private_redis():
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    port = free_port()
    procs = [start_redis(port)]
    yield port, procs
    for proc in procs:
        if proc.poll() is None:
            stop_redis(proc)


def test_the_first_readyz_after_redis_returns_says_ready(private_redis, tmp_path):
    from tests.api.services import Server

    port, procs = private_redis
    server = Server(env={"REDIS_URL": f"redis://127.0.0.1:{port}/0",
                         "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
                    log_path=tmp_path / "server.log").start()
    async def concurrently(n: int) -> list[int]:
        async with httpx.AsyncClient() as c:
            return [r.status_code for r in await asyncio.gather(*(c.get(f"{server.base}/readyz", timeout=5)
                                                                   for _ in range(n)))]

    try:
        assert asyncio.run(concurrently(6)) == [200] * 6  # several connections idle in the pool
        stop_redis(procs[0])  # a restart between two probes: nothing asked while it was down
        procs.append(start_redis(port))
        back = httpx.get(f"{server.base}/readyz", timeout=5)
        assert back.status_code == 200 and back.json() == {"ready": True, "live_store": "redis"}, back.text
    finally:
        server.stop()
