"""Driving the reference web client in Chromium: seats as browser contexts, a WebSocket proxy
that can hold or cut a page's live updates, playing by clicking legal actions, and the check
that a page shows no other seat's private information (compared with the API's views)."""
from __future__ import annotations

import json
import re
import time

import httpx

from core.glossary import strings_in

VIEW = """query($t: String!) { table(id: $t) { version status viewer activeSeats phase { name step round }
  stateJson glossary log { version events } } }"""
STATUS = """query($t: String!) { table(id: $t) { version status activeSeats phase { name step round } } }"""


_http = httpx.Client(timeout=30)  # one connection pool: a new connection per query costs more than the query


def api(server, query: str, token: str | None = None, **variables) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = _http.post(server.url, json={"query": query, "variables": variables}, headers=headers).json()
    assert not body.get("errors"), body
    return body["data"]


class WsProxy:
    """Sits between a page and the server's /graphql WebSocket. `hold` keeps server messages
    from the page (a page that has fallen behind); `release` delivers them in order; `cut`
    closes the connection as a network failure would (the page must reconnect by itself)."""

    def __init__(self, page) -> None:
        self.holding = False
        self.buffer: list = []
        self.routes: list = []
        self.connections = 0
        page.route_web_socket(re.compile(r"/graphql$"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self.connections += 1
        self.routes.append((ws, server))

        def from_server(message) -> None:
            if self.holding:
                self.buffer.append((ws, message))
            else:
                ws.send(message)

        server.on_message(from_server)

    def hold(self) -> None:
        self.holding = True

    def release(self) -> None:
        self.holding = False
        buffered, self.buffer = self.buffer, []
        for ws, message in buffered:
            ws.send(message)

    def cut(self) -> None:
        self.holding, self.buffer = False, []  # what was held back is lost with the connection
        for ws, server in self.routes:
            ws.close(code=4000, reason="network cut by the test")
            server.close()
        self.routes = []


class Seat:
    """One player (or a spectator: seat None): a browser context (its own storage) and a page."""

    def __init__(self, browser, base: str, *, proxy: bool = False, width: int = 1100) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.proxy = WsProxy(self.page) if proxy else None
        self.base = base
        self.seat: int | None = None
        self.table_id: str | None = None

    def close(self) -> None:
        self.context.close()

    # -- reading the page ------------------------------------------------------------------
    def view(self):
        return self.page.locator(".table-view")

    def shown_version(self) -> int:
        return int(self.view().get_attribute("data-version"))

    def wait_version(self, version: int, timeout: float = 15_000) -> None:
        self.page.wait_for_function(
            "v => { const el = document.querySelector('.table-view');"
            " return el && Number(el.dataset.version) >= v && Number(el.dataset.logVersion) >= v }",
            arg=version, timeout=timeout)

    def wait_seated(self, seat: int) -> None:
        self.page.wait_for_selector(f".table-view[data-viewer='{seat}']")
        self.seat = seat

    def token(self) -> str | None:
        if self.seat is None:
            return None  # a spectator
        stored = self.page.evaluate("k => localStorage.getItem(k)", f"conclave.seat.{self.table_id}")
        value = json.loads(stored)
        assert value["seat"] == self.seat
        return value["token"]

    def log_versions(self) -> list[int]:
        return [int(v) for v in self.page.locator("ol.log > li").evaluate_all("els => els.map(e => e.dataset.version)")]

    def text(self) -> str:
        """Everything in the page, collapsed <details> included."""
        return self.page.locator("body").text_content()

    # -- acting ----------------------------------------------------------------------------
    def act_randomly(self, rng, keyboard: bool = False) -> str:
        """Click one of the legal-action controls at random (choosing form values at random).
        Returns a description of what was clicked."""
        controls = self.page.locator("#actions button.act")
        shown = controls.evaluate_all("els => els.map(e => [e.dataset.type, Boolean(e.closest('form'))])")
        assert shown, f"seat {self.seat}: no action controls: {self.page.locator('#actions').text_content()}"
        index = rng.randrange(len(shown))
        button = controls.nth(index)
        kind, in_form = shown[index]
        if in_form:
            # Choose each <select> at random, in order (they cascade: later ones offer only the
            # combinations left), firing `change` as a user's choice does; fill free-text fields.
            button.evaluate("""(button, picks) => {
                const form = button.closest("form");
                for (let i = 0; ; i++) {
                    const selects = form.querySelectorAll("select");
                    if (i >= selects.length) break;
                    selects[i].selectedIndex = Math.floor(picks[i % picks.length] * selects[i].options.length);
                    selects[i].dispatchEvent(new Event("change", { bubbles: true }));
                }
                for (const input of form.querySelectorAll("input[data-free]")) input.value = "for the good of the realm";
            }""", [rng.random() for _ in range(8)])
        if keyboard:
            button.focus()
            self.page.keyboard.press("Enter")
        else:
            button.click()
        return kind


def create_in_lobby(seat: Seat, *, game: str, players: int, seed: int, name: str, modules=(), options=None,
                    screenshot=None) -> tuple[str, list[str]]:
    """Fill the lobby's new-table form and create the table. Returns its id and the join links."""
    page = seat.page
    page.goto(f"{seat.base}/play/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("radio", name=game, exact=True).check()
    page.get_by_label("Players", exact=True).select_option(str(players))
    for module in modules:
        page.get_by_role("checkbox", name=module, exact=True).check()
    for label, value in (options or {}).items():
        field = page.get_by_label(label, exact=True)
        if field.evaluate("e => e.tagName") == "SELECT":
            # by the name people read, or by the choice's own value (its data-value)
            named = field.locator(f"option[data-value={json.dumps(value)}]")
            field.select_option(label=value) if not named.count() else field.select_option(named.first.get_attribute("value"))
        else:
            field.fill(value)
    page.get_by_label("Seed (optional)").fill(str(seed))
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator("#created input.link").evaluate_all("els => els.map(e => e.value)")
    assert len(links) == players, links
    table_id = re.search(r"#/join/([^/]+)/0/[^/]+$", links[0]).group(1)  # the link carries the join code
    if screenshot:
        page.screenshot(path=str(screenshot), full_page=True)
    return table_id, links


def take_seat_from_lobby(seat: Seat, table_id: str, number: int) -> None:
    seat.table_id = table_id
    seat.page.locator(f"#created button.take[data-seat='{number}']").click()
    seat.wait_seated(number)


def join_by_link(seat: Seat, table_id: str, link: str, number: int, name: str) -> None:
    """Open a shared join link in this seat's browser, type a name, take the seat."""
    seat.table_id = table_id
    seat.page.goto(link)
    seat.page.get_by_label("Your name").fill(name)
    seat.page.get_by_role("button", name=f"Take seat {number + 1}").click()
    seat.wait_seated(number)


def wait_until(predicate, timeout: float = 15.0, interval: float = 0.05, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


def step(server, table_id: str, seats: list[Seat], rng, keyboard: bool = False) -> dict:
    """One action: a page whose seat is to act, once it shows the server's newest version
    (through its live updates), clicks one of its legal actions."""
    table = api(server, STATUS, t=table_id)["table"]
    acting = [s for s in seats if s.seat in table["activeSeats"]]
    assert acting, table
    seat = rng.choice(acting)
    seat.wait_version(table["version"])  # (the other pages are checked at every sync)
    kind = seat.act_randomly(rng, keyboard=keyboard)
    seat.wait_version(table["version"] + 1)  # the page applies its own ActOk at once
    for other in seats:
        assert not other.errors, other.errors
    return {"seat": seat.seat, "type": kind, "version": table["version"] + 1}


def sync(server, table_id: str, seats: list[Seat]) -> dict:
    table = api(server, STATUS, t=table_id)["table"]
    for seat in seats:
        seat.wait_version(table["version"])
    return table


def seat_items(state) -> list[dict]:
    """The per-seat records of a state: items of lists whose items all have a "seat"."""
    found = []
    if isinstance(state, list):
        if state and all(isinstance(i, dict) and isinstance(i.get("seat"), int) for i in state):
            return list(state)
        for item in state:
            found += seat_items(item)
    elif isinstance(state, dict):
        for key, value in state.items():
            if key != "prompts":
                found += seat_items(value)
    return found


def _mentions(identifier: str, text: str) -> bool:
    return re.search(rf"(?<![\w:-]){re.escape(identifier)}(?![\w-])", text) is not None


def check_private_information(server, table_id: str, seats: list[Seat]) -> int:
    """Each page shows its own seat's private cards and none of another seat's.
    A card is another seat's secret when it is in that seat's view but neither in this
    seat's view nor in this seat's log. Its id must not be on the page (the client renders
    every card it names with its id), and neither must its name where the name is
    distinctive (several words, not part of any name or text this seat may see: single
    words such as "Research" are also action names and occur in effect texts).
    Returns how many secret names were checked."""
    table = sync(server, table_id, seats)
    views = {s.seat: api(server, VIEW, s.token(), t=table_id)["table"] for s in seats}
    for seat in seats:
        assert views[seat.seat]["viewer"] == seat.seat and views[seat.seat]["version"] == table["version"]
        assert seat.view().get_attribute("data-viewer") == ("" if seat.seat is None else str(seat.seat))
    checked = 0
    for seat in seats:
        mine = views[seat.seat]
        text = seat.text()
        private_text = seat.page.locator("#private").text_content()
        rendered_ids = set(seat.page.locator(".card[data-id]").evaluate_all("els => els.map(e => e.dataset.id)"))
        known = seat.page.evaluate("() => window.conclave.view.glossary")
        own_ids = set(mine["glossary"])
        in_my_log = strings_in([e["events"] for e in mine["log"]])
        assert rendered_ids <= own_ids | in_my_log, rendered_ids - own_ids - in_my_log
        others_ids = set().union(*(set(views[o.seat]["glossary"]) for o in seats if o is not seat))
        # Mine: the ids of my own record that nobody else sees are shown, by name, in my private panel.
        for item in seat_items(mine["stateJson"]):
            if seat.seat is not None and item["seat"] == seat.seat:
                for ident in strings_in(item) & own_ids - others_ids:
                    assert mine["glossary"][ident]["name"] in private_text, (seat.seat, ident)
        # Theirs: never on my page.
        for other in seats:
            if other is seat or other.seat is None:
                continue
            theirs = views[other.seat]["glossary"]
            secret = set(theirs) - own_ids - in_my_log
            may_see = [e for e in mine["glossary"].values()] + [e for i, e in known.items() if i not in secret]
            seen_words = " | ".join(f"{e['name']} | {e.get('text') or ''}" for e in may_see).lower()
            for ident in secret:
                assert ident not in rendered_ids and not _mentions(ident, text), \
                    f"seat {seat.seat}'s page shows seat {other.seat}'s {ident}"
                name = theirs[ident]["name"]
                if len(name.split()) >= 2 and name.lower() not in seen_words:
                    assert name not in text, f"seat {seat.seat}'s page shows seat {other.seat}'s card {name!r} ({ident})"
                    checked += 1
    return checked


def no_horizontal_scroll(page) -> bool:
    """The page is no wider than its window (the 390 px phone check)."""
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def status(server, table_id: str) -> dict:
    return api(server, STATUS, t=table_id)["table"]


def seat_view(server, seat: Seat, table_id: str) -> dict:
    """The table as `seat`'s own token reads it (its redacted view)."""
    return api(server, VIEW, seat.token(), t=table_id)["table"]
