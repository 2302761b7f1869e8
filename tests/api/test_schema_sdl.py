"""The exported SDL (schema.graphql) is what the server serves: regenerate it with
`./dev schema --out schema.graphql` when this fails."""
from pathlib import Path

from typer.testing import CliRunner

from api.cli import app
from api.sdl import sdl

ROOT = Path(__file__).resolve().parents[2]


def test_schema_graphql_is_not_stale():
    assert (ROOT / "schema.graphql").read_text() == sdl(), "schema.graphql is stale: run ./dev schema --out schema.graphql"


def test_conclave_schema_prints_the_sdl_with_the_names_clients_rely_on():
    out = CliRunner().invoke(app, ["schema"]).output
    for name in ("games:", "table(id:", "tables(", "campaign(id:", "createTable(input:", "joinTable(",
                 "act(tableId:", "tableUpdates(tableId:", "union ActResult = ActOk | ActRejected",
                 "legalActions:", "stateJson:", "union GameState", "type NewCapitalState"):
        assert name in out, name
