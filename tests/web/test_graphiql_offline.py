"""GraphiQL in Chromium with no internet (issue 13): every request to another host is
refused, and the IDE still renders, with the schema loaded (its docs explorer opens)."""
from __future__ import annotations

from urllib.parse import urlparse


def test_graphiql_renders_with_every_other_host_unreachable(browser, web_server):
    context = browser.new_context()
    outside: list[str] = []

    def only_this_server(route):
        if urlparse(route.request.url).netloc == urlparse(web_server.base).netloc:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    try:
        page = context.new_page()
        page.route("**/*", only_this_server)
        page.goto(f"{web_server.base}/graphql")
        page.wait_for_selector(".graphiql-container", timeout=20_000)
        page.get_by_role("button", name="Show Documentation Explorer").click()
        page.get_by_text("Query", exact=True).first.wait_for(timeout=20_000)  # the root type, from introspection
        assert outside == [], outside
    finally:
        context.close()
