"""The Guardian (FATE20, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F20nn) and the checklist IDs it proves."""
from __future__ import annotations

from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.outrage import agent_returns
from plugins.arcs.scoring import score_ambition
from plugins.blighted_reach import fate_guardian
from tests.blighted_reach.c_fate_tables import (
    act_three_table, clear_row, declare_by_arrangement, free_planet, prompt_of, refused, score_now, sound,
    take_from_supply,
)
from tests.blighted_reach.campaign_tables import put_building, put_ships
from tests.blighted_reach.empire_fate_tables import place_tokens
from tests.blighted_reach.flow_helpers import options, restart_round

GUARDIAN = "FATE20"


def guardian_table(players: int = 3, seed: int = 3):
    t = act_three_table({0: GUARDIAN}, players, seed)
    assert t.state.fates[0] == GUARDIAN and t.state.act == 3
    return t


def no_captives(t) -> None:
    """Every Captive back to its owner (an arranged start for Tyrant)."""
    s = t.state
    for holder in s.players:
        for owner in holder.captives:
            agent_returns(s, owner)
        holder.captives = []


def scored_power(events, ambition: str) -> dict:
    return next(e.data["power"] for e in events if e.type == "scored" and ambition in e.data["ambitions"])


def test_F2001_setup_side_outrage_tile_lore_and_law_BR_106():
    """Act III setup F: Fuel and Material Outrage, the Edenguard box by Tycoon, Green Vault
    and Ire of the Tycoons gained, Edenguard Ambition in the booklet; the final objective's
    marker on 18 with 3 players (BR-106)."""
    t = guardian_table()
    s = t.state
    assert sorted(s.players[0].outrage) == ["fuel", "material"]
    assert not {"fuel", "material"} & set(r for r in s.players[0].resources if r)
    assert s.ambition_boxes["edenguard"] == []
    assert {"F2002", "F2003"} <= set(s.players[0].lore) and any("F2004" in slot for slot in s.booklet)
    assert s.objective_markers[0] == 18
    sound(t)


def test_F2001_two_players_material_and_fuel_leave_the_ambition_boxes_BR_106():
    t = guardian_table(players=2, seed=3)
    s = t.state
    returned = next(e.data for e in t.events if e.type == "ambition_tokens_returned")
    assert sorted(returned["resources"]) == ["fuel", "fuel", "material", "material"]
    assert not {"fuel", "material"} & {r for tokens in s.ambition_tokens.values() for r in tokens}
    assert s.objective_markers[0] == 20
    sound(t)


def lead(t, seat: int, card: str):
    """A round where `seat` leads `card` (the others hold one Mobilization card each)."""
    hands = [[f"MOB{3 + i}"] for i in range(len(t.state.players))]
    hands[seat] = [card]
    restart_round(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": card}))


def declared_options(t) -> list[str]:
    prompt = prompt_of(t, "declare")
    return [o.params["ambition"] for o in prompt.options] if prompt else []


def edenguard_leader(t, seat: int) -> None:
    """The seat controls more Material and Fuel planets than each Rival (ships on free ones)."""
    s, box = t.state, box_for(t.state)
    counts = lambda who: fate_guardian.edenguard_count(box, s, who, "edenguard")
    while any(counts(seat) <= counts(r) for r in range(len(s.players)) if r != seat):
        planet = next(p for p in (free_planet(t, "material"), free_planet(t, "fuel")))
        put_ships(s, seat, planet, fresh=2)


def test_F2004_edenguard_declared_instead_of_tycoon_scored_and_its_box_kept():
    """A lead 2 may declare Edenguard instead of Tycoon (never another number's); the most
    Material and Fuel planets wins it with the base places' Power; its marker goes back with
    the others and the tile stays for the next chapter."""
    t = guardian_table()
    lead(t, 1, "AGG2")
    assert {"tycoon", "edenguard"} <= set(declared_options(t))
    t.act(1, Action("declare", {"ambition": "edenguard"}))
    s = t.state
    assert len(s.ambition_boxes["edenguard"]) == 1
    edenguard_leader(t, 1)
    expected = score_ambition(box_for(s), s, "edenguard")
    assert expected[1] > 0
    events = score_now(t)
    assert {int(k): v for k, v in scored_power(events, "edenguard").items()} == expected
    s = t.state
    assert s.chapter == 2 and s.ambition_boxes["edenguard"] == []
    assert len(s.markers_available) == len(box_for(s).board.ambition_markers)
    sound(t)


def test_F2004_a_three_declares_no_edenguard():
    t = guardian_table()
    lead(t, 1, "AGG3")
    assert "edenguard" not in declared_options(t)
    refused(t, 1, Action("declare", {"ambition": "edenguard"}))


def test_F2003_the_guardian_declares_edenguard_never_tycoon():
    t = guardian_table()
    lead(t, 0, "AGG2")
    assert declared_options(t) == ["edenguard", ""]
    refused(t, 0, Action("declare", {"ambition": "tycoon"}))
    t.act(0, Action("declare", {"ambition": "edenguard"}))
    sound(t)


def test_F2003_no_power_for_the_guardian_from_tycoon():
    """The Guardian first in Tycoon gains nothing; the Rival second still gains second place."""
    t = guardian_table()
    for seat in range(3):
        clear_row(t, seat)
    take_from_supply(t, 0, "psionic")  # (a token the Guardian may hold)
    vault = t.state.card_resources.setdefault("F2002", [])
    t.state.supply["material"] -= 2
    vault.extend(["material", "material"])  # Green Vault's frozen tokens count for Tycoon
    take_from_supply(t, 1, "fuel")
    declare_by_arrangement(t, "tycoon")
    events = score_now(t)
    power = {int(k): v for k, v in scored_power(events, "tycoon").items()}
    assert power[0] == 0 and power[1] > 0


def tax_options(t, seat: int, system: str) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "act" and a.params.get("act") == "tax"
            and a.params.get("system") == system]


def guardian_city(t, kind: str = "material", controlled: bool = True) -> str:
    s = t.state
    planet = free_planet(t, kind)
    put_building(s, 0, planet, "city")
    put_ships(s, 0 if controlled else 1, planet, fresh=2)
    return planet


def test_F2003_no_tax_of_the_guardians_uncontrolled_material_city():
    t = guardian_table()
    planet = guardian_city(t, "material", controlled=False)
    lead(t, 0, "ADM4")
    if prompt_of(t, "declare"):
        t.act(0, Action("declare", {"ambition": ""}))
    assert tax_options(t, 0, planet) == []
    city = next(i for i, b in enumerate(t.state.systems[planet].buildings) if b.owner == 0)
    refused(t, 0, Action("act", {"act": "tax", "pay": -1, "system": planet, "building": city}))


def tax_own_city(t, kind: str = "material") -> str:
    planet = guardian_city(t, kind)
    clear_row(t, 0)
    lead(t, 0, "ADM4")
    if prompt_of(t, "declare"):
        t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, tax_options(t, 0, planet)[0])
    return planet


def test_F2002_green_vault_takes_a_taxed_material_into_the_captives():
    """Taxing its own Material city, the Guardian is asked first whether the token goes into
    its Captives (Green Vault): there it is frozen, counts for Tyrant and Tycoon, and goes
    back to the supply when Tyrant is scored."""
    t = guardian_table()
    no_captives(t)
    tax_own_city(t, "material")
    prompt = prompt_of(t, "green_vault")
    assert prompt.seat == 0 and len(t.state.prompts) == 1
    refused(t, 0, Action("green_vault", {"resource": "relic"}))
    t.act(0, Action("green_vault", {"resource": "material"}))
    s = t.state
    assert s.card_resources["F2002"] == ["material"] and "material" not in s.players[0].resources
    box = box_for(s)
    from plugins.arcs.scoring import ambition_count

    assert ambition_count(box, s, s.players[0], "tyrant") == 1
    assert ambition_count(box, s, s.players[0], "tycoon") == 1
    sound(t)
    supply = s.supply["material"]
    declare_by_arrangement(t, "tyrant")
    marker = s.objective_markers[0]
    score_now(t)
    s = t.state
    assert "F2002" not in s.card_resources and s.supply["material"] == supply + 1
    # Give Back to the Land: Tyrant won, 1 vaulted token; Guard the Reach's Splendor:
    # Edenguard undeclared, 1 Material planet controlled.
    assert s.objective_markers[0] == marker - 2
    sound(t)


def test_F2002_declining_green_vault_places_the_token_as_usual():
    t = guardian_table()
    tax_own_city(t, "fuel")
    t.act(0, Action("green_vault", {"resource": ""}))
    place_tokens(t)
    s = t.state
    assert "fuel" in s.players[0].resources and "F2002" not in s.card_resources
    assert prompt_of(t, "green_vault") is None
    sound(t)


def test_FATE20_bot_campaigns_with_the_guardian_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the Guardian
    at Act II's Intermission; invariants after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: GUARDIAN})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == GUARDIAN


def test_F2002_green_vault_takes_a_demanded_material_from_the_trust():
    """As First Regent enforcing Escalation, the Guardian takes a Rival Regent's Material for
    the Imperial Trust and may put it into its Captives instead."""
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.c_fate_tables import run_steps

    t = guardian_table()
    s = t.state
    assert s.booklet[0][0] == "AID05"  # the Policy of Escalation is the Govern stack's top card
    s.first_regent, s.titles[0], s.titles[1] = 0, "regent", "regent"
    clear_row(t, 1)
    take_from_supply(t, 1, "material")
    trust = list(s.trust)
    s.prompts = []
    run_steps(t, (event_flow.demand, {"payer": 1}), (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    assert prompt_of(t, "collect_demand") is None  # the one thing seat 1 can pay: taken at once
    prompt = prompt_of(t, "green_vault")
    assert prompt.seat == 0 and t.state.trust == [*trust, "material"]
    refused(t, 0, Action("green_vault", {"resource": "fuel"}))
    t.act(0, Action("green_vault", {"resource": "material"}))
    s = t.state
    assert s.trust == trust and s.card_resources["F2002"] == ["material"]
    sound(t)
