"""Alembic environment: the models' metadata, the URL from the caller's config."""
from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlmodel import SQLModel

import api.db  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def run() -> None:
    url = config.get_main_option("sqlalchemy.url")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    connectable = engine_from_config({"sqlalchemy.url": url}, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
