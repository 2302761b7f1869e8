import contextlib
import uuid

import pytest

from tests.api.services import Server, postgres_database, redis_available


@contextlib.contextmanager
def storage_env(mode: str, tmp_path):
    """Environment for a server: embedded (SQLite file, in-process live tables) or Redis live
    tables with a fresh PostgreSQL database."""
    if mode == "embedded":
        yield {"DATABASE_URL": f"sqlite:///{tmp_path / 'conclave.sqlite3'}"}
        return
    redis_url = redis_available()
    db_url, drop = postgres_database()
    try:
        yield {"DATABASE_URL": db_url, "REDIS_URL": redis_url, "CONCLAVE_REDIS_PREFIX": f"ct-{uuid.uuid4().hex[:8]}"}
    finally:
        drop()


@contextlib.contextmanager
def server_factory(env: dict, tmp_path):
    servers = []

    def make(**extra_env):
        server = Server(env={**env, **extra_env}, log_path=tmp_path / f"server{len(servers)}.log")
        servers.append(server)
        return server.start()

    try:
        yield make
    finally:
        for s in servers:
            s.stop()


@pytest.fixture(params=["embedded", "redis"])
def mode(request):
    return request.param


@pytest.fixture
def storage(mode, tmp_path):
    with storage_env(mode, tmp_path) as env:
        yield env


@pytest.fixture
def make_server(storage, tmp_path):
    """Servers in both modes (the test runs once per mode)."""
    with server_factory(storage, tmp_path) as make:
        yield make


@pytest.fixture
def server(make_server):
    return make_server()


@pytest.fixture
def make_redis_server(tmp_path):
    """Servers sharing one Redis and one PostgreSQL database."""
    with storage_env("redis", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make


@pytest.fixture
def embedded_server(tmp_path):
    """One server in the embedded default, for tests that do not depend on the live store."""
    with storage_env("embedded", tmp_path) as env, server_factory(env, tmp_path) as make:
        yield make()
