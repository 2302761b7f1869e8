"""The campaign log sheet (Packing Up): what it keeps, its JSON form, and restoring a table
from it. Each test names the BR checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import BadParameter, IllegalAction
from plugins.blighted_reach import campaign
from plugins.blighted_reach import intermission as im
from plugins.blighted_reach.setup import action_deck
from plugins.blighted_reach.fate_steps import unplayed
from plugins.blighted_reach.state import ActRecord
from tests.blighted_reach.campaign_tables import (
    ADMIRAL, ADVOCATE, BOX, CBOX, FOUNDER, STEWARD, act_one, ctx, end_act, intermission, new_table, sound,
)


def mikah_table():
    """Mikah (blue) plays the Steward; Act I ends with 25 Power (13 after halving) and
    Material and Psionic Outrage."""
    state = end_act(act_one([STEWARD, ADMIRAL, FOUNDER]))
    state.seats[0].name = "Mikah"
    state.colours = ["blue", "red", "yellow"]
    state.objective_markers = [0, 0, 2]
    mikah = state.players[0]
    mikah.power = 25
    mikah.outrage = ["material", "psionic"]
    mikah.agents -= 2  # the agents covering those Outrage slots
    return intermission(state)


def test_BR_355_BR_360_mikah_logs_steward_with_13_power_for_act_one():
    """BR-360 (Mikah): blue, Steward, 13 Power in Act I, Outrage Material and Psionic;
    BR-355: name, colour, Fate, Power and Outrage per act."""
    log = campaign.pack_up(BOX, CBOX, mikah_table())
    mikah = log.players[0]
    assert (mikah.name, mikah.colour, mikah.fate) == ("Mikah", "blue", STEWARD)
    assert mikah.acts == [ActRecord(act=1, fate=STEWARD, result="completed", power=13, outrage=["material", "psionic"])]
    assert (mikah.power, mikah.outrage) == (13, ["material", "psionic"])
    assert log.players[2].acts[0].result == "failed" and log.act == 1 and not log.finished


def test_BR_354_BR_066_the_sheet_round_trips_through_json_and_restores_the_table():
    """BR-354: map, supply and every play area are kept; the sheet survives JSON; BR-066: the
    table restored from it is the previous act's end state, with the act moved on."""
    state = mikah_table()
    log = campaign.pack_up(BOX, CBOX, state)
    stored = msgspec.json.decode(msgspec.json.encode(campaign.to_json(log)))
    again = campaign.from_json(stored)
    assert again == log
    table = new_table(3)
    campaign.restore(table, again)
    sound(table)
    assert table.act == 2
    for name in ("players", "systems", "imperial", "blight", "supply", "imperial_supply", "blight_supply",
                 "free_city_supply", "free_starport_supply", "court_deck", "lore_deck", "booklet", "scrapped",
                 "fates", "titles", "first_regent", "initiative", "play_area", "favors", "colours", "act_log",
                 "free_proxies", "trust"):
        assert getattr(table, name) == getattr(state, name), name
    assert sorted(table.action_deck) == campaign.action_cards(state) == sorted(action_deck(BOX, CBOX, 3))


def test_BR_337_resources_left_on_a_card_are_packed_into_the_supply():
    """No card keeps resources between Acts (BR-337 returns them at the Intermission): one
    still on a card when the table is packed (the Well of Empathy caught it during the
    Intermission: a 60-campaign simulate lost it, 4 players, seed 2044) goes back to the
    supply on the sheet, so the next Act counts every token; the Well keeps nothing once
    the Intermission has cleared the pieces."""
    from core.flow import Ctx
    from core.state import Event
    from plugins.blighted_reach import fate_pacifist

    state = mikah_table()
    state.supply["psionic"] -= 1
    state.card_resources = {"F1403": ["psionic"]}
    log = campaign.pack_up(BOX, CBOX, state)
    assert log.supply["psionic"] == state.supply["psionic"] + 1
    table = new_table(3)
    campaign.restore(table, log)
    sound(table)
    state.card_resources = {}
    state.players[0].lore.append("F1403")
    assert "clear_pieces" in state.intermission_done
    ctx = Ctx(state, None)  # a placement of the Intermission sent a Psionic back for want of room
    ctx.events.append(Event(type="resources_placed", data={"seat": 0, "discarded": {"psionic": 1}}))
    assert fate_pacifist.well_keeps(ctx) == 0 and state.card_resources == {}
    state.intermission_done = []  # during the Act the Well does catch it
    assert fate_pacifist.well_keeps(ctx) == 1 and state.card_resources == {"F1403": ["psionic"]}


def test_BR_358_BR_359_play_areas_fate_sets_and_booklet_are_kept():
    """BR-358: each player's cards in play are kept apart from the rest of their Fate Set;
    BR-359: every card in the rules booklet stays there."""
    state = mikah_table()
    log = campaign.pack_up(BOX, CBOX, state)
    steward = log.players[0]
    assert "F103" in steward.board.guild and "F102" in steward.board.lore
    assert steward.fate_set == unplayed(CBOX, state, STEWARD) and "F103" not in steward.fate_set
    assert {"F109", "F110", "F111"} & set(steward.fate_set) == set()  # scrapped at the Resolution
    assert ["F108"] in log.booklet and ["F703"] in log.booklet and log.booklet == state.booklet


def test_pack_up_waits_for_the_intermission_and_rejects_a_bad_sheet():
    """Packing up happens after the Intermission, not before or during it; a stored sheet
    that is not one, or one for another player count, is refused."""
    state = end_act(act_one([STEWARD, ADMIRAL, FOUNDER]))
    with pytest.raises(IllegalAction):
        campaign.pack_up(BOX, CBOX, state)
    im.resolve_fates(ctx(state), CBOX)
    with pytest.raises(IllegalAction):
        campaign.pack_up(BOX, CBOX, state)  # mid-Intermission
    assert state.intermission_done == ["resolve_fate"]
    with pytest.raises(BadParameter):
        campaign.from_json({"act": "one"})
    log = campaign.pack_up(BOX, CBOX, mikah_table())
    with pytest.raises(BadParameter):
        campaign.restore(new_table(2), log)


def test_other_areas_fields_ride_along_with_their_types(monkeypatch):
    """A field another area declares in CARRIED_FIELDS is packed as builtins and restored
    with its declared type."""
    monkeypatch.setattr(campaign, "CARRIED_FIELDS", ["imperial_clusters", "rolls"])
    state = mikah_table()
    log = campaign.pack_up(BOX, CBOX, state)
    assert log.extra == {"imperial_clusters": state.imperial_clusters, "rolls": state.rolls}
    table = new_table(3)
    campaign.restore(table, campaign.from_json(campaign.to_json(log)))
    assert table.imperial_clusters == state.imperial_clusters and table.rolls == state.rolls


def test_BR_355_a_finished_campaign_packs_with_its_winner():
    """BR-355: the last act's lines and the winner are on the sheet; a finished campaign
    cannot be continued."""
    state = end_act(act_one([STEWARD, ADMIRAL, ADVOCATE]))
    state.act, state.chapter = 3, 4
    state.objective_markers = [-1, -1, -1]
    campaign.end_campaign(CBOX, state, 1)
    log = campaign.pack_up(BOX, CBOX, state)
    assert log.finished and log.winner == 1 and [p.acts[-1].act for p in log.players] == [3, 3, 3]
    with pytest.raises(IllegalAction):
        campaign.restore(new_table(3), log)
