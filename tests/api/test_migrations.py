"""The Alembic migrations build exactly the schema the SQLModel models declare: a model
change without its migration (or the reverse) fails here, on SQLite and on PostgreSQL."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from api.db import Database
from tests.api.services import database_url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_migrations_build_the_models_schema(tmp_path, backend):
    with database_url(backend, tmp_path) as url:
        db = Database(url)  # migrates to the newest revision
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), SQLModel.metadata)
        db.engine.dispose()
    assert diff == []
