"""Real services for the API tests: Redis and PostgreSQL on this machine, and servers run
as real `conclave serve` processes. Locally a missing service skips its tests with a clear
reason; under CI=true it fails them loudly."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI") == "true"


def need(service: str, error: Exception | str) -> None:
    message = f"{service} is not reachable ({error})"
    if IN_CI:
        pytest.fail(f"{message}: CI must run these tests against the real service")
    pytest.skip(message)


def redis_available() -> str:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:
        need("Redis at " + REDIS_URL, exc)
    return REDIS_URL


def postgres_database() -> tuple[str, callable]:
    """A fresh, empty PostgreSQL database and a function that drops it."""
    import psycopg

    name = f"conclave_t_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        need("PostgreSQL at " + PG_ADMIN_URL, exc)
    base = PG_ADMIN_URL.rsplit("/", 1)[0]

    def drop():
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"{base}/{name}", drop


@contextlib.contextmanager
def database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A new database: a SQLite file, or a PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
        return
    url, drop = postgres_database()  # skips locally (fails under CI) without PostgreSQL
    try:
        yield url
    finally:
        drop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """One `conclave serve` process; `kill()` and `start()` again keep its port and storage."""

    env: dict
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    log_path: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/graphql"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/graphql"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CONCLAVE_PLUGINS": "tests.api.endless,tests.core.sealed_bids",
               "CONCLAVE_ADDRESS_RATE_PER_SECOND": "100000", "CONCLAVE_ADDRESS_BURST": "100000",
               "CONCLAVE_RATE_PER_SECOND": "100000", "CONCLAVE_RATE_BURST": "100000",
               "CONCLAVE_ALLOW_CHOSEN_SEEDS": "1",  # the tests deal known games; env may say "0"
               # tests create many tables from 127.0.0.1: tests/api/test_quotas.py runs with the defaults
               "CONCLAVE_CREATES_PER_MINUTE": "1000000", "CONCLAVE_CREATE_BURST": "100000",
               "CONCLAVE_OPEN_TABLES_PER_ADDRESS": "100000", **self.env}
        env.pop("REDIS_URL", None) if "REDIS_URL" not in self.env else None
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; log: {self.log_path}")
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not become ready")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)
