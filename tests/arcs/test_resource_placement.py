"""Where gained, stolen, given and covered resource tokens go, through the engine
(ARCS-209, ARCS-210, ARCS-212, ARCS-250): the owner picks, through `arcs.place_resources`,
whenever more than one row is legal; every row the rules refuse is refused, typed, and
changes nothing."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from core.flow import Ctx, StepTable, run
from core.state import Action, encode_msgpack
from plugins.arcs import placing
from plugins.arcs.chapter import return_city
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs.lore_ops import slot_raid_cost
from plugins.arcs.placing_flow import DECISION, settling
from plugins.arcs.rounds import round_start
from plugins.arcs.state import Trophy
from tests.arcs import test_actions
from tests.arcs.flow_helpers import act, answer, follow, placements, play_round, prompt_of, put, restart_round
from tests.arcs.test_abilities_in_play import own
from tests.arcs.test_rules_b_battle import rolls
from tests.arcs.test_rules_b_pieces import city
from tests.arcs.test_rules_b_turn import bare, lead, slots

BOX = default_box()
N = None


def placement(t, seat: int):
    found = [p for p in t.state.prompts if p.seat == seat and p.decision == DECISION]
    return found[0] if found else None


def place(t, seat: int, row: list, number: int | None = None):
    number = placement(t, seat).args["number"] if number is None else number
    return t.act(seat, Action("place_resources", {"number": number, "slots": row}))


def refused(t, seat: int, params: dict, error=ActionRejected) -> None:
    before = encode_msgpack(t.state)
    with pytest.raises(error):
        t.act(seat, Action("place_resources", params))
    assert encode_msgpack(t.state) == before


def rows(t, seat: int) -> list:
    return [a.params["slots"] for a in placements(t, seat)]


def sound(t) -> None:
    assert problems(BOX, t.state) == []


def test_a_gained_token_goes_to_the_empty_open_slot_its_owner_picks_ARCS_209_210_212():
    """ARCS-209: a taxed Relic with slots 1 and 3 empty (slot 2 holds a Fuel): the owner
    picks slot 1 (raid cost 3) or slot 3 (raid cost 1, ARCS-212). ARCS-210: with a slot free
    nothing held moves; refused, typed and changing nothing: moving the Fuel, dropping the
    new token, a token nobody gained, a covered slot, a stale placement, a malformed row,
    another seat's answer."""
    t = bare()
    city(t, "2.3", 0)  # city slot 1 empty: resource slots 1-3 open (ARCS-211)
    slots(t, 0, [N, "fuel"])
    lead(t, "ADM4")
    act(t, 0, "tax", system="2.3", building=0)
    p = placement(t, 0)
    assert p is not None and [q.seat for q in t.state.prompts] == [0] and t.state.placing[0].tokens == ["relic"]
    assert rows(t, 0) == [["relic", "fuel", N, N, N, N], [N, "fuel", "relic", N, N, N]]
    assert [slot_raid_cost(BOX, t.state, 0, i) for i in (0, 2)] == [3, 1]  # the choice matters (ARCS-212)
    number = p.args["number"]
    sound(t)
    refused(t, 0, {"number": number, "slots": ["fuel", N, "relic", N, N, N]}, IllegalAction)   # the Fuel moved
    refused(t, 0, {"number": number, "slots": ["relic", N, "fuel", N, N, N]}, IllegalAction)
    refused(t, 0, {"number": number, "slots": [N, "fuel", N, N, N, N]}, IllegalAction)         # the Relic dropped
    refused(t, 0, {"number": number, "slots": ["psionic", "fuel", "relic", N, N, N]}, IllegalAction)  # invented
    refused(t, 0, {"number": number, "slots": ["relic", "relic", "fuel", N, N, N]}, IllegalAction)
    refused(t, 0, {"number": number, "slots": [N, "fuel", N, "relic", N, N]}, IllegalAction)   # slot 4 is covered
    refused(t, 0, {"number": number + 1, "slots": [N, "fuel", "relic", N, N, N]}, IllegalAction)  # stale
    refused(t, 0, {"number": number, "slots": [N, "fuel", "relic"]}, BadParameter)             # not the whole row
    refused(t, 0, {"number": number, "slots": [N, "fuel", "gold", N, N, N]}, BadParameter)
    refused(t, 0, {"number": number, "slots": [N, "fuel", "relic", N, N, N], "x": 1}, BadParameter)
    refused(t, 1, {"number": number, "slots": [N, "fuel", "relic", N, N, N]}, NotYourTurn)
    place(t, 0, [N, "fuel", "relic", N, N, N])
    s = t.state
    assert s.players[0].resources == [N, "fuel", "relic", N, N, N] and s.placing == []
    assert prompt_of(t, 0).kind == "arcs.act"
    refused(t, 0, {"number": number, "slots": ["relic", "fuel", N, N, N, N]}, IllegalAction)  # stale: it is over
    sound(t)


@pytest.mark.parametrize("slot, stealable", [(0, False), (2, True)])
def test_where_the_owner_put_it_decides_what_a_raid_can_take_ARCS_209_212(monkeypatch, slot, stealable):
    """ARCS-212: seat 1 taxes a Relic and puts it in slot 1 (raid cost 3) or slot 3 (raid
    cost 1); seat 0's raid then rolls 2 keys: only the Relic in slot 3 can be stolen."""
    rolls(monkeypatch, [("raid", 0)])  # KEY x2 + INT
    t = bare()
    city(t, "2.3", 1)
    slots(t, 1, [N, "fuel"])
    put(t, "2.3", 0, fresh=1)
    restart_round(t, [["AGG3"], ["ADM4"], ["MOB2"]], initiative=1)
    answer(t, 1, "lead", card="ADM4")
    if prompt_of(t, 1).kind == "declare":
        answer(t, 1, "declare", ambition="")
    act(t, 1, "tax", system="2.3", building=0)
    row = [N, "fuel", N, N, N, N]
    row[slot] = "relic"
    place(t, 1, row)
    act(t, 1, "done")
    follow(t, 2, "MOB2", "copy")
    act(t, 2, "done")
    follow(t, 0, "AGG3", "pivot")
    act(t, 0, "battle", system="2.3", defender=1, raid=1)
    p = prompt_of(t, 0)
    assert p.kind == "raid" and t.state.battle.key == 2
    assert ({"slot": slot} in [a.params for a in p.options]) is stealable
    assert {"slot": 1} in [a.params for a in p.options]  # the Fuel in slot 2 costs 1 either way


def test_with_every_open_slot_full_any_arrangement_keeps_as_many_as_fit_ARCS_209():
    """ARCS-209: slots 1-3 hold Fuel, Fuel, Material and a Relic is taxed: every arrangement
    of three of the four tokens is legal (the new one dropped, or an old one, moved or not),
    12 rows; the dropped token goes to the supply. Keeping two, or a covered slot, is refused."""
    t = bare()
    city(t, "2.3", 0)
    slots(t, 0, ["fuel", "fuel", "material"])
    lead(t, "ADM4")
    fuel, relic = t.state.supply["fuel"], t.state.supply["relic"]
    act(t, 0, "tax", system="2.3", building=0)
    listed = rows(t, 0)
    assert len(listed) == 12 == len({tuple(r) for r in listed})
    assert listed[0] == ["fuel", "fuel", "material", N, N, N]  # first: the new token dropped, nothing moved
    for expected in (["relic", "fuel", "material", N, N, N], ["fuel", "fuel", "relic", N, N, N],
                     ["material", "relic", "fuel", N, N, N]):
        assert expected in listed
    number = placement(t, 0).args["number"]
    refused(t, 0, {"number": number, "slots": ["relic", N, "fuel", N, N, N]}, IllegalAction)  # drops two
    refused(t, 0, {"number": number, "slots": ["relic", "fuel", "material", "fuel", N, N]}, IllegalAction)
    refused(t, 0, {"number": number, "slots": ["relic", "relic", "fuel", N, N, N]}, IllegalAction)
    place(t, 0, ["material", "relic", "fuel", N, N, N])
    s = t.state
    assert s.players[0].resources[:3] == ["material", "relic", "fuel"]
    assert s.supply["fuel"] == fuel + 1 and s.supply["relic"] == relic - 1
    assert prompt_of(t, 0).kind == "arcs.act"
    sound(t)


def test_a_placement_with_one_legal_row_is_not_asked_ARCS_209():
    """One empty open slot: the token goes there at once. Full of Relics and a Relic taxed:
    every row is the same, so nothing is asked and the supply is back where it was."""
    t = bare()
    city(t, "2.3", 0)
    slots(t, 0, ["fuel", N, "material"])
    lead(t, "ADM4")
    act(t, 0, "tax", system="2.3", building=0)
    assert placement(t, 0) is None and prompt_of(t, 0).kind == "arcs.act"
    assert t.state.players[0].resources[:3] == ["fuel", "relic", "material"]
    t = bare()
    city(t, "2.3", 0)
    slots(t, 0, ["relic", "relic", "relic"])
    lead(t, "ADM4")
    relic = t.state.supply["relic"]
    act(t, 0, "tax", system="2.3", building=0)
    assert placement(t, 0) is None and prompt_of(t, 0).kind == "arcs.act"
    assert t.state.players[0].resources[:3] == ["relic"] * 3 and t.state.supply["relic"] == relic
    sound(t)


def test_a_rival_given_a_token_by_a_trade_places_it_before_play_goes_on_ARCS_209():
    """Elder Broker's Trade (BC23): seat 0 takes seat 1's Relic and gives a Fuel. Each places
    what it received: seat 0 first, then seat 1 (not its turn), and only then does seat 0's
    turn go on; nobody else can act meanwhile."""
    t = bare()
    own(t, 0, "BC23")
    city(t, "2.3", 1)  # seat 1: slots 1-3 open
    put(t, "2.3", 0, fresh=2)  # seat 0 controls 2.3
    slots(t, 0, ["fuel"])
    slots(t, 1, ["relic"])
    lead(t, "ADM4")
    (trade,) = [a for a in t.legal(0) if a.params.get("card") == "BC23" and a.params.get("index") == 0]
    t.act(0, trade)
    s = t.state
    assert [(p.seat, p.decision) for p in s.prompts] == [(0, DECISION)]
    assert s.players[0].resources[:2] == [N, N] and s.players[1].resources[:3] == [N, N, N]
    assert [(w.seat, w.tokens) for w in s.placing] == [(0, ["relic"]), (1, ["fuel"])]
    sound(t)
    place(t, 0, [N, "relic", N, N, N, N])
    assert [(p.seat, p.decision) for p in t.state.prompts] == [(1, DECISION)]
    with pytest.raises(NotYourTurn):
        act(t, 0, "done")
    assert rows(t, 1) == [["fuel", N, N, N, N, N], [N, "fuel", N, N, N, N], [N, N, "fuel", N, N, N]]
    place(t, 1, [N, N, "fuel", N, N, N])
    s = t.state
    assert s.players[1].resources[:3] == [N, N, "fuel"] and s.placing == []
    assert prompt_of(t, 0).kind == "arcs.act" and prompt_of(t, 1) is None
    sound(t)


def test_a_city_returned_at_chapter_end_lets_its_owner_rearrange_and_discard_ARCS_250_210():
    """ARCS-249/250: Warlord scored, seat 0's Trophy city goes back to seat 1's city slot 3,
    covering resource slots 5 and 6; seat 1 (five tokens, four open slots) rearranges freely
    and drops one, here an old Material rather than the covered Psionic (ARCS-210). Using a
    covered slot, dropping two, or inventing a token is refused. Then chapter 2 is dealt."""
    t = bare()
    s = t.state
    owner = s.players[1]
    city(t, "2.3", 1)
    city(t, "3.1", 1)
    owner.cities_on_board[2] = False  # the third city is seat 0's Trophy
    s.players[0].trophies = [Trophy(owner=1, kind="city")]
    slots(t, 1, ["fuel", "relic", "material", "weapon", "psionic"])  # every slot open (ARCS-211)
    marker = s.markers_available.pop(0)
    s.ambition_boxes["warlord"] = [marker]
    sound(t)
    restart_round(t, [["CON3"], ["MOB5"], ["ADM3"]], initiative=0)
    play_round(t, "CON3", [("MOB5", "pivot"), ("ADM3", "copy")])
    s = t.state
    owner = s.players[1]
    assert owner.cities_on_board == [False, False, True, True, True]
    assert [(p.seat, p.decision) for p in s.prompts] == [(1, DECISION)]
    assert s.placing[0].rearrange and s.placing[0].tokens == ["psionic"]
    assert owner.resources == ["fuel", "relic", "material", "weapon", N, N]
    sound(t)
    listed = rows(t, 1)
    assert listed[0] == ["fuel", "relic", "material", "weapon", N, N]  # first: nothing moved, Psionic dropped
    assert ["psionic", "weapon", "fuel", "relic", N, N] in listed
    number = placement(t, 1).args["number"]
    refused(t, 1, {"number": number, "slots": ["fuel", "relic", "material", "weapon", "psionic", N]}, IllegalAction)
    refused(t, 1, {"number": number, "slots": ["fuel", "relic", "material", N, N, N]}, IllegalAction)
    refused(t, 1, {"number": number, "slots": ["fuel", "relic", "material", "relic", N, N]}, IllegalAction)
    material = s.supply["material"]
    place(t, 1, ["psionic", "weapon", "fuel", "relic", N, N])
    s = t.state
    assert s.players[1].resources == ["psionic", "weapon", "fuel", "relic", N, N]
    assert s.supply["material"] == material + 1
    assert s.chapter == 2 and prompt_of(t, 0).kind == "lead"
    sound(t)


def test_a_returning_city_opens_a_free_rearrangement_even_with_room_ARCS_250_210():
    """ARCS-210/250 (pure rules): a city back in city slot 2 covers slot 4; its Relic and the
    Fuel in slot 1 may go anywhere in slots 1-3 (6 rows), nothing is dropped while both fit.
    A covered empty slot still opens the rearrangement (the Fuel may move)."""
    state = test_actions.bare()
    p = state.players[0]
    p.cities_on_board = [False, False, True, True, True]
    p.resources = ["fuel", N, N, "relic", N, N]
    state.supply["fuel"] -= 1
    state.supply["relic"] -= 1
    return_city(BOX, state, 0)
    (record,) = state.placing
    assert record.rearrange and record.tokens == ["relic"] and p.resources == ["fuel", N, N, N, N, N]
    found = list(placing.outcomes(BOX, state, record))
    assert len(found) == 6 and [N, "relic", "fuel", N, N, N] in found
    placing.check(BOX, state, record, [N, "relic", "fuel", N, N, N])
    with pytest.raises(IllegalAction):
        placing.check(BOX, state, record, [N, N, "fuel", N, N, N])  # both fit: none dropped
    assert placing.apply(state, record, [N, "relic", "fuel", N, N, N]) == {}
    assert p.resources == [N, "relic", "fuel", N, N, N] and state.placing == []
    p.cities_on_board = [False, True, False, True, True]  # city slot 2 on the board, slot 3 empty
    p.resources = ["fuel", N, N, N, N, N]
    state.supply["relic"] += 1
    return_city(BOX, state, 0)  # into city slot 3: covers slots 5 and 6, both empty
    (record,) = state.placing
    assert record.rearrange and record.tokens == []
    assert len(list(placing.outcomes(BOX, state, record))) == 3  # the Fuel in slot 1, 2 or 3


probe = StepTable("placing_probe")


@probe("gain_then_ask")
def _gain_then_ask(ctx):
    placing.gain(ctx.state, 0, "relic")
    ctx.prompt(1, "probe", [Action("probe")], resume=_probed)


@probe("probed")
def _probed(ctx, seat, params):
    ctx.push(round_start)


def test_a_prompt_opened_by_the_step_that_gained_waits_for_the_placement_ARCS_209():
    """A step that gains a token and then asks another seat something: the placement comes
    first; the other prompt is held back (nobody can answer it) and reopens afterwards."""
    t = bare()
    city(t, "2.3", 0)
    slots(t, 0, [N, "fuel"])
    handlers = t.rules.handlers
    added = {name: settling(fn) for name, fn in probe.items()}
    handlers.update(added)
    try:
        s = t.state
        s.prompts, s.stack = [], []
        ctx = Ctx(s, t.rules)
        ctx.push(_gain_then_ask)
        run(ctx)
        assert [(p.seat, p.decision) for p in s.prompts] == [(0, DECISION)]
        assert [p.kind for p in s.held_prompts] == ["probe"]
        with pytest.raises(NotYourTurn):
            t.act(1, Action("probe"))
        place(t, 0, ["relic", "fuel", N, N, N, N])
        s = t.state
        assert [(p.seat, p.kind) for p in s.prompts] == [(1, "probe")] and s.held_prompts == []
        t.act(1, Action("probe"))
        assert prompt_of(t, 0).kind in ("lead", "declare")
    finally:
        for name in added:
            handlers.pop(name, None)
