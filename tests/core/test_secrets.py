"""The hidden-information check (`core.secrets`) run after every bot action: it passes on
the real games and catches a view or an event that names what its viewer may not see."""
from __future__ import annotations

from core.bot import RandomBot, play_game
from core.engine import create_table
from core.secrets import HiddenCheck, strings
from core.state import Event
from plugins.arcs import views as arcs_views


def test_strings_reads_keys_and_values_at_any_depth():
    found = dict((s, p) for p, s in strings({"a": [{"b": "x"}, "y"], "k": 3}))
    assert found == {"a": "$.<key>", "b": "$.a[0].<key>", "x": "$.a[0].b", "y": "$.a[1]", "k": "$.<key>"}


def test_an_arcs_game_shows_no_secret_to_any_seat_or_a_spectator_ARCS_281():
    played = play_game("arcs", 3, 2, check_hidden=True)
    assert played.table.state.finished and played.invariant_errors == []


def test_a_view_that_shows_another_seats_hand_is_caught_ARCS_281(monkeypatch):
    """A redaction bug (every hand shown to everyone) is reported for each other seat."""
    table = create_table("arcs", 3, seed=4)
    check = HiddenCheck(table)
    real = arcs_views.redact

    def careless(state, viewer, view):
        real(state, viewer, view)
        view["all_hands"] = [list(h) for h in state.hands]

    monkeypatch.setattr("plugins.arcs.plugin.redact", careless)
    seat, action = RandomBot(4).choose(table)
    table.act(seat, action)
    found = check(table)
    assert any(p.startswith("Seat 1 sees") and "$.all_hands[1]" in p for p in found)
    assert any(p.startswith("a spectator sees") for p in found)
    assert not any(p.startswith("Seat 2 sees") and "$.all_hands[1]" in p for p in found)  # its own hand


def test_an_event_that_names_a_drawn_card_to_everyone_is_caught_ARCS_111():
    """A card secret before and after the action (it stayed in a Rival's hand) may not be
    named in an event a seat receives; one the viewer held before may (it just played it)."""
    table = create_table("arcs", 3, seed=4)
    check = HiddenCheck(table)
    secret = table.state.hands[1][0]
    table.events = [Event(type="oops", data={"card": secret}, to=None)]
    found = check(table)
    assert f"Seat 1 sees {secret!r} in event $[0].data.card" in found
    assert not any(p.startswith("Seat 2 sees") for p in found)
