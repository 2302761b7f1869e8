"""The Redeemer (FATE19, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F19nn) and the checklist IDs it proves."""
from __future__ import annotations

from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.scoring import marker_values
from plugins.blighted_reach import event_flow
from tests.blighted_reach.c_fate_tables import (
    act_three_table, clear_row, declare_by_arrangement, free_planet, prompt_of, refused, run_steps, score_now,
    sound, take_from_supply,
)
from tests.blighted_reach.campaign_tables import put_building, put_ships
from tests.blighted_reach.flow_helpers import options, restart_round

REDEEMER = "FATE19"
EDICT = (event_flow.edict, {"card": "F1903", "do": "handler", "handler": "rebuke_of_the_keepers"})
AFTER = (event_flow.summit_offer, {"seat": 0, "via": "event"})


def redeemer_table(players: int = 3, seed: int = 3):
    t = act_three_table({0: REDEEMER}, players, seed)
    assert t.state.fates[0] == REDEEMER and t.state.act == 3
    return t


def relics_of(t, seat: int) -> int:
    return t.state.players[seat].resources.count("relic")


def test_F1901_setup_side_relic_outrage_ire_rebuke_and_relic_fence_on_the_deck_BR_106():
    """Act III setup F: Relic Outrage, Ire of the Keepers gained, Rebuke of the Keepers in the
    booklet, Relic Fence the Court deck's top card; the final objective's marker starts on 14
    with 3 players (BR-106)."""
    t = redeemer_table()
    s = t.state
    assert "relic" in s.players[0].outrage and relics_of(t, 0) == 0
    assert "F1902" in s.players[0].lore and any("F1903" in slot for slot in s.booklet)
    assert s.court_deck[0] == "F1904"
    assert s.objective_markers[0] == 14
    sound(t)


def test_F1901_two_players_the_relics_on_the_ambition_boxes_go_back_BR_106():
    """With 2 players the Relics the Act's setup put on Keeper go back to the supply (seed 5's
    roll placed one); the marker starts on 16."""
    t = redeemer_table(players=2, seed=5)
    s = t.state
    returned = next(e.data for e in t.events if e.type == "ambition_tokens_returned")
    assert returned["resources"] == ["relic"] and "relic" not in s.ambition_tokens.get("keeper", [])
    assert s.objective_markers[0] == 16
    sound(t)


def test_F1901_subdue_the_keepers_advances_three_when_keeper_is_not_declared():
    t = redeemer_table()
    score_now(t)
    assert t.state.objective_markers[0] == 11
    sound(t)


def test_F1901_no_subdue_when_a_rival_wins_keeper():
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 1, "relic")
    declare_by_arrangement(t, "keeper")
    score_now(t)
    assert t.state.objective_markers[0] == 14
    sound(t)


def test_F1901_shatter_the_relics_after_winning_keeper_completes_and_wins_BR_107():
    """The Redeemer wins Keeper: 3 spaces (Subdue the Keepers), then it is asked how many
    Relics to scrap, 2 spaces each; the marker reaching 0 wins the campaign at once, before
    the chapter's other ending checks (BR-107, BR-108)."""
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 0, "relic", 2)
    declare_by_arrangement(t, "keeper")
    s = t.state
    s.objective_markers[0] = 3 + 2 * 2
    score_now(t)
    prompt = prompt_of(t, "shatter_relics")
    assert prompt.seat == 0 and sorted(o.params["relics"] for o in prompt.options) == [0, 1, 2]
    assert t.state.objective_markers[0] == 4
    refused(t, 0, Action("shatter", {"relics": 3}))
    scrapped = len(t.state.scrapped_resources)
    t.act(0, Action("shatter", {"relics": 2}))
    s = t.state
    assert relics_of(t, 0) == 0 and len(s.scrapped_resources) == scrapped + 2
    assert s.objective_markers[0] == 0 and s.finished and s.result["campaign_winner"] == 0


def test_F1901_no_shatter_offer_without_an_ambition_won():
    t = redeemer_table()
    clear_row(t, 0)
    take_from_supply(t, 0, "relic")
    score_now(t)
    assert prompt_of(t, "shatter_relics") is None and relics_of(t, 0) == 1
    sound(t)


def test_F1902_ire_of_the_keepers_forbids_declaring_keeper():
    """A 5 declares Keeper: a Rival leading one is asked, the Redeemer is not (Keeper was
    its only ambition)."""
    t = redeemer_table()
    restart_round(t, [["AGG2"], ["AGG5"], ["AGG3"]], initiative=1)
    t.act(1, Action("lead", {"card": "AGG5"}))
    assert {"ambition": "keeper"} in [o.params for o in prompt_of(t, "declare").options]
    t = redeemer_table()
    restart_round(t, [["AGG5"], ["AGG2"], ["AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG5"}))
    assert prompt_of(t, "declare") is None and not t.state.ambition_boxes["keeper"]
    assert t.state.turn is not None and t.state.turn.seat == 0
    sound(t)


def tax_options(t, seat: int, system: str) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "act" and a.params.get("act") == "tax"
            and a.params.get("system") == system]


def test_F1902_ire_of_the_keepers_no_tax_of_an_uncontrolled_relic_planet_city():
    """The Redeemer's own city on a Relic planet a Rival controls cannot be taxed; with the
    system controlled it can."""
    t = redeemer_table()
    s = t.state
    planet = free_planet(t, "relic")
    put_building(s, 0, planet, "city")
    put_ships(s, 1, planet, fresh=2)
    restart_round(t, [["ADM4"], ["AGG2"], ["AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM4"}))
    if prompt_of(t, "declare"):
        t.act(0, Action("declare", {"ambition": ""}))
    assert tax_options(t, 0, planet) == []
    city = next(i for i, b in enumerate(t.state.systems[planet].buildings) if b.owner == 0)
    refused(t, 0, Action("act", {"act": "tax", "pay": -1, "system": planet, "building": city}))
    s = t.state
    s.systems[planet].ships[1].fresh -= 2  # the Rival's ships home: the Redeemer's city alone there
    s.players[1].ships += 2
    put_ships(s, 0, planet, fresh=1)
    taxes = tax_options(t, 0, planet)
    assert taxes
    t.act(0, taxes[0])
    sound(t)


def test_F1903_rebuke_of_the_keepers_costs_the_redeemer_keepers_first_place():
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 1, "relic")
    declare_by_arrangement(t, "keeper")
    s = t.state
    first = marker_values(box_for(s), s.ambition_boxes["keeper"])[0]
    power = s.players[0].power
    s.prompts = []
    run_steps(t, EDICT, AFTER)
    assert t.state.players[0].power == power - first
    sound(t)


def test_F1903_nothing_lost_while_the_redeemer_wins_keeper():
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 0, "relic")
    declare_by_arrangement(t, "keeper")
    power = t.state.players[0].power
    t.state.prompts = []
    run_steps(t, EDICT, AFTER)
    assert t.state.players[0].power == power


def test_F1903_keeper_undeclared_the_player_with_most_relics_may_declare_it():
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 1, "relic", 2)
    take_from_supply(t, 2, "relic")
    t.state.prompts = []
    run_steps(t, EDICT, AFTER)
    prompt = prompt_of(t, "rebuke_declare")
    assert prompt.seat == 1
    refused(t, 1, Action("declare", {"ambition": "tyrant"}))
    t.act(1, Action("declare", {"ambition": "keeper"}))
    assert len(t.state.ambition_boxes["keeper"]) == 1
    sound(t)


def test_F1903_a_tie_for_most_relics_declares_nothing_and_the_redeemer_never_does():
    t = redeemer_table()
    for seat in (0, 1, 2):
        clear_row(t, seat)
    take_from_supply(t, 1, "relic")
    take_from_supply(t, 2, "relic")
    t.state.prompts = []
    run_steps(t, EDICT, AFTER)
    assert prompt_of(t, "rebuke_declare") is None and not t.state.ambition_boxes["keeper"]
    clear_row(t, 1)
    clear_row(t, 2)
    take_from_supply(t, 0, "relic")  # the Redeemer alone on top: it cannot declare Keeper
    t.state.prompts = []
    run_steps(t, EDICT, AFTER)
    assert prompt_of(t, "rebuke_declare") is None and not t.state.ambition_boxes["keeper"]


def test_F1904_relic_fence_prelude_turns_a_resource_into_a_relic_once_per_turn():
    """Relic Fence (the base card's Prelude): discard 1 resource, gain 1 Relic, once a turn."""
    t = redeemer_table()
    s = t.state
    s.court_deck.remove("F1904")  # drawn into the Court and secured, as the Act would
    s.players[0].guild.append("F1904")
    clear_row(t, 0)
    take_from_supply(t, 0, "fuel")
    restart_round(t, [["ADM4"], ["AGG2"], ["AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM4"}))
    if prompt_of(t, "declare"):
        t.act(0, Action("declare", {"ambition": ""}))
    fences = [a for a in options(t, 0) if a.type == "act" and a.params.get("card") == "F1904"]
    assert fences
    empty = t.state.players[0].resources.index(None)
    refused(t, 0, Action("act", {**fences[0].params, "params": {"slot": empty}}))
    t.act(0, fences[0])
    from tests.blighted_reach.empire_fate_tables import place_tokens

    place_tokens(t)
    s = t.state
    assert relics_of(t, 0) == 1 and "fuel" not in s.players[0].resources
    assert not [a for a in options(t, 0) if a.type == "act" and a.params.get("card") == "F1904"]
    sound(t)


def test_FATE19_bot_campaigns_with_the_redeemer_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the Redeemer
    at Act II's Intermission; invariants after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: REDEEMER})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == REDEEMER


def test_F1902_no_keeper_by_a_cards_declaration_either():
    """Populist Demands' "declare any ambition" (a secured Vox card) offers the Redeemer every
    ambition but Keeper, and refuses Keeper (typed, the table unchanged)."""
    import msgspec
    import pytest

    from core.errors import IllegalAction
    from plugins.arcs import abilities
    from plugins.arcs.abilities import Use
    from plugins.arcs.moments import env_for

    t = redeemer_table()
    s, box = t.state, box_for(t.state)
    s.resolving.append("CC11")  # Populist Demands being secured by the Redeemer
    index, ability = next((i, a) for i, a in enumerate(box.court["CC11"].abilities) if a.do == "declare_any")
    use = Use(0, "CC11", index, ability)
    offered = [c.get("ambition") for c in abilities.candidates(env_for(box, s, seat=0), use)]
    assert "keeper" not in offered and "tyrant" in offered
    before = msgspec.json.encode(s)
    with pytest.raises(IllegalAction):
        abilities.use(env_for(box, s, seat=0), use, {"ambition": "keeper"})
    assert msgspec.json.encode(s) == before
    rival = Use(1, "CC11", index, ability)
    assert "keeper" in [c.get("ambition") for c in abilities.candidates(env_for(box, s, seat=1), rival)]
