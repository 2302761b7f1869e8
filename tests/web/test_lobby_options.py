"""The lobby offers every option as choices from the game's own option metadata (issue 17):
named choices, one Character per seat, a checkbox per seat for absences; never raw JSON, and
no rule ids anywhere in the lobby's text."""
from __future__ import annotations

import re

from tests.web.driver import Seat, api

RULE_ID = re.compile(r"\b(?:QNC|QD|ARCS|BR)-\d+")
OPTIONS = """query($t: String!) { table(id: $t) { options: stateJson } }"""
GAMES = "{ games { id options { name choices labels shape items itemLabels description } } }"


def test_every_choice_has_a_name_and_no_option_text_names_a_rule(web_server):
    for game in api(web_server, GAMES)["games"]:
        for o in game["options"]:
            assert o["shape"] in ("", "per-seat", "seats"), o
            assert not o["labels"] or len(o["labels"]) == len(o["choices"]), o
            assert len(o["itemLabels"]) == len(o["items"]), o
            assert o["choices"] or o["shape"], f"{game['id']}.{o['name']} would be typed as free text"
            texts = [o["description"], *o["labels"], *o["itemLabels"]]
            assert not any(RULE_ID.search(t) for t in texts), (game["id"], o["name"], texts)


def test_the_lobby_sets_characters_per_seat_and_absent_seats_without_json(browser, web_server, artifacts):
    host = Seat(browser, web_server.base)
    try:
        page = host.page
        page.goto(f"{web_server.base}/play/")
        page.get_by_role("radio", name="The Queen's Dilemma", exact=True).check()
        page.get_by_label("Players", exact=True).select_option("4")
        options = page.locator("fieldset.options")
        assert options.locator("input[type=text], textarea").count() == 0  # nothing to type JSON into
        text = page.locator("main").inner_text()
        assert not RULE_ID.search(text), RULE_ID.findall(text)
        for seat, name in enumerate(["Syd, The Feral", "Xanthe, The Crimson Shield", "Elinor, The Herald of the Past",
                                     "Lyrie, The Visionary Patron"]):
            page.get_by_label(f"Characters: Seat {seat + 1}", exact=True).select_option(label=name)
        page.locator("fieldset[data-option='absent']").get_by_label("Seat 4", exact=True).check()
        page.screenshot(path=str(artifacts / "lobby-options.png"), full_page=True)
        page.get_by_label("Your name").fill("Syd")
        page.get_by_label("Seed (optional)").fill("6")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_selector("#created:not([hidden])")
        link = page.locator("#created input.link").first.input_value()
        table_id = re.search(r"#/join/([^/]+)/0/", link).group(1)
        state = api(web_server, OPTIONS, t=table_id)["table"]["options"]
        assert state["options"]["characters"] == ["Syd", "Xanthe", "Elinor", "Lyrie"]
        assert state["options"]["absent"] == [3]
        assert not host.errors, host.errors
    finally:
        host.close()
