import uuid

import pytest

from tests.api.services import Server, postgres_database, redis_available


@pytest.fixture(params=["embedded", "redis"])
def mode(request):
    return request.param


@pytest.fixture
def storage(mode, tmp_path):
    """Environment for a server: embedded (SQLite file, in-process live tables) or
    Redis live tables with a PostgreSQL database."""
    if mode == "embedded":
        yield {"DATABASE_URL": f"sqlite:///{tmp_path / 'conclave.sqlite3'}"}
        return
    redis_url = redis_available()
    db_url, drop = postgres_database()
    yield {"DATABASE_URL": db_url, "REDIS_URL": redis_url, "CONCLAVE_REDIS_PREFIX": f"ct-{uuid.uuid4().hex[:8]}"}
    drop()


@pytest.fixture
def make_server(storage, tmp_path):
    servers = []

    def make(**extra_env):
        server = Server(env={**storage, **extra_env}, log_path=tmp_path / f"server{len(servers)}.log")
        servers.append(server)
        return server.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture
def server(make_server):
    return make_server()
