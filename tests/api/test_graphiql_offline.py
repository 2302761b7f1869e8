"""GraphiQL works offline (issue 13): its page references no external host, and every asset
it references is served by the app itself, byte for byte what the page's `integrity` hash
says (the browser refuses anything else)."""
from __future__ import annotations

import base64
import hashlib
import re
from urllib.parse import urlparse

from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings

REFERENCE = re.compile(r"<(?:script|link)\b[^>]*?(?:src|href)=\"([^\"]+)\"[^>]*>", re.S)


def test_the_graphiql_page_loads_every_asset_from_the_server_itself(tmp_path):
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    with TestClient(app) as client:
        page = client.get("/graphql", headers={"Accept": "text/html"})
        assert page.status_code == 200 and "graphiql" in page.text.lower()
        tags = REFERENCE.findall(page.text)
        assets = [url for url in tags if not url.startswith("data:")]
        assert len(assets) >= 7, tags  # React, ReactDOM, js-cookie, GraphiQL js+css, explorer js+css
        for url in assets:
            assert not urlparse(url).netloc and url.startswith("/graphiql-assets/"), url
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page.text)  # no other host at all
        for tag in re.findall(r"<(?:script|link)\b[^>]*>", page.text, re.S):
            url = re.search(r"(?:src|href)=\"([^\"]+)\"", tag)
            if url is None or url.group(1).startswith("data:"):
                continue
            served = client.get(url.group(1))
            assert served.status_code == 200, url.group(1)
            integrity = re.search(r"integrity=\"sha384-([^\"]+)\"", tag)
            assert integrity, tag
            assert base64.b64encode(hashlib.sha384(served.content).digest()).decode() == integrity.group(1), url.group(1)
        assert client.get("/graphiql-assets/graphiql@3.8.3/LICENSE").status_code == 200
        assert client.get("/graphiql-assets/../app.py").status_code == 404
