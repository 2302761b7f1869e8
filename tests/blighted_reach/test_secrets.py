"""Blighted Reach's hidden information as `core.secrets` checks it after every bot action
(`simulate` does so for whole campaigns): the Fates offered, kept and picked (BR-053, A-R7),
hands and decks, the lore deck; a leak of any of them is caught."""
from __future__ import annotations

from core.bot import play_game
from core.secrets import HiddenCheck
from core.state import Action, Event
from plugins.blighted_reach import secrets
from tests.blighted_reach.flow_helpers import table


def test_bots_play_act_one_and_no_seat_nor_a_spectator_sees_a_secret_BR_053():
    played = play_game("blighted-reach", 3, 11, check_hidden=True, check_invariants=True)
    assert played.table.state.finished and played.invariant_errors == []


def test_a_kept_fate_named_before_everyone_chose_is_caught_BR_053():
    t = table(3, seed=2)
    check = HiddenCheck(t)
    kept = t.state.fate_offers[0][0]
    t.act(0, Action("choose_fate", {"fate": kept}))
    assert check(t) == []
    t.events = [Event(type="careless", data={"fate": kept})]
    found = check(t)
    assert f"Seat 2 sees {kept!r} in event $[0].data.fate" in found
    assert f"a spectator sees {kept!r} in event $[0].data.fate" in found
    assert not any(p.startswith("Seat 1 sees") for p in found)


def test_another_seats_fate_offer_in_a_view_is_caught_and_public_fates_are_not_secret_BR_053():
    t = table(3, seed=2)
    check = HiddenCheck(t)
    offers = [list(o) for o in t.state.fate_offers]
    real = t.view
    t.view = lambda viewer: {**real(viewer), "everyone_offered": offers}
    found = check(t)
    assert any(p.startswith(f"Seat 1 sees {offers[1][0]!r}") for p in found)
    assert not any(p.startswith(f"Seat 2 sees {offers[1][0]!r}") for p in found)
    for seat in range(3):  # once all have chosen, the Fates are public: nothing to hide
        t.act(seat, Action("choose_fate", {"fate": offers[seat][0]}))
    assert secrets.hidden_fates(t.state, None) == set()


def test_simulate_takes_table_options_checks_secrets_and_counts_the_fates_taken():
    """`conclave simulate --option later_fates=built`: the campaign is played with the option,
    every view checked for secrets, and the Fates taken are counted (issue 20's runs)."""
    import json

    from typer.testing import CliRunner

    from api.cli import app

    result = CliRunner().invoke(app, ["simulate", "--game", "blighted-reach", "--players", "2", "--campaigns", "1",
                                      "--seed", "3", "--option", "later_fates=built", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["completed"] == 1 and summary["errors"] == 0 and summary["hidden_checked"]
    assert sum(summary["fates_taken"].values()) >= 2 and sum(summary["fate_acts"].values()) == 2 * 3
    refused = CliRunner().invoke(app, ["simulate", "--game", "blighted-reach", "--campaigns", "1", "--option", "oops"])
    assert refused.exit_code == 2 and "key=value" in refused.output


def test_a_card_secured_in_the_open_this_turn_is_no_secret_though_it_went_into_a_hand():
    """A Faithful card secured from the Court goes into its securer's hand (F813), yet everyone
    saw it taken: the turn's record of it (`turn.gained`) is no leak; another hand card is."""
    from plugins.arcs.state import Turn
    from tests.blighted_reach.flow_helpers import ready

    t = ready(3, seed=2)
    s = t.state
    faithful, other = "F805", s.hands[1][0]
    s.hands[1].append(faithful)
    s.turn = Turn(seat=1, kind="lead", pips=1, actions=["secure"], lead_actions=[], gained=[faithful])
    hidden = set(secrets.secrets(s, 0, []))
    assert faithful not in hidden and other in hidden
