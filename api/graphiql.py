"""GraphiQL that works offline: strawberry's page, with its assets served by this server.

Strawberry's page loads React, GraphiQL and its explorer plugin from unpkg, so without the
internet it stays on "Loading...". The same files, at the versions that page pins, are in
`static/graphiql/` (folders named as on the CDN: see its README); the page is served with
the CDN's prefix replaced by `ASSETS_PATH`, so its `integrity` hashes still hold.
"""
from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from strawberry.http.ides import get_graphql_ide_html

ASSETS_DIR = Path(__file__).resolve().parent / "static" / "graphiql"
ASSETS_PATH = "/graphiql-assets/"
CDN = "https://unpkg.com/"


def offline_page() -> str:
    """Strawberry's GraphiQL page, loading every asset from `ASSETS_PATH`."""
    return get_graphql_ide_html(graphql_ide="graphiql").replace(CDN, ASSETS_PATH)


def assets_route() -> Mount:
    return Mount(ASSETS_PATH.rstrip("/"), app=StaticFiles(directory=ASSETS_DIR), name="graphiql-assets")
