"""The Queen's Dilemma: the 12 setup steps of every game and the round's reading step,
played through the engine (Table.act) on campaigns built with the harness.

A game is driven by `drive`: every vote is a pass (Gather Power), so the Moderator decides
each Dilemma (the side given in `sides`, Aye otherwise); forced payments are paid in kind,
Pass Bonuses and Agendas declined, other prompts take their first option. Every event of
every action is kept in `log`, so the order of the setup steps can be read back.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import msgspec
import pytest

from core.engine import view_events
from core.rng import Rng
from core.state import Action
from plugins.queens_dilemma import scoring
from plugins.queens_dilemma.content import RESOURCES, default_box
from plugins.queens_dilemma.scoring import Balanced, IdeologyBoard, IdeologyCard
from tests.queens_dilemma.harness import campaign, choices, played_campaign_game, start

BOX = default_box()
QUICK = ["D2A2"]  # one Dilemma with no Envelope, Mystery or sand timer on either side: a one-round game


# -- helpers ----------------------------------------------------------------------------------
def default_answer(table, p, sides: dict) -> Action:
    opts = choices(table, p)
    if p.kind == "vote":
        return next(o for o in opts if o.type == "pass" and o.params.get("action") == "gather")
    if p.kind == "break_tie":
        side = sides.get(table.state.dilemma, "aye")
        return next(o for o in opts if o.params["side"] == side)
    if p.kind == "pass_bonus":
        return next(o for o in opts if o.type == "no_bonus")
    if p.kind == "agenda":
        return next(o for o in opts if o.type == "agendas_done")
    if p.kind == "forced_payment":  # in kind first, then Gold, Infamy last
        return max(opts, key=lambda o: (o.params["resource"], o.params["gold"]))
    return opts[0]


def drive(table, done, log: list, sides: dict | None = None, pick=None, prompts: list | None = None,
          max_actions: int = 3000) -> None:
    """Answer blocking prompts until `done(table)` or the end of the game; `pick(table, prompt)`
    may choose an answer (None: the default one); `prompts` collects (seat, kind) of every
    prompt ever open."""
    sides = sides or {}
    for _ in range(max_actions):
        if prompts is not None:
            prompts.extend((p.seat, p.kind) for p in table.state.prompts)
        if table.state.finished or done(table):
            return
        p = next(p for p in table.state.prompts if p.blocking)
        action = (pick(table, p) if pick else None) or default_answer(table, p, sides)
        log.extend(table.act(p.seat, action))
    raise AssertionError("the condition never came")


def voting_started(table) -> bool:
    return any(p.kind == "vote" for p in table.state.prompts)


def kinds(*names):
    return lambda table: any(p.kind in names for p in table.state.prompts if p.blocking)


def saved(table) -> dict:
    """The campaign as the table leaves it (what the store saves)."""
    return msgspec.to_builtins(table.state.campaign)


def index(log, type_, pred=lambda d: True, last=False) -> int:
    found = [i for i, e in enumerate(log) if e.type == type_ and pred(e.data)]
    assert found, f"no {type_} event"
    return found[-1] if last else found[0]


def chronicle_records(*specs) -> list[dict]:
    return [{"code": code, "herald": herald, "marks": marks} for code, herald, marks in specs]


def predicted_draw(table, n: int) -> list[int]:
    """The order the table's seeded shuffle puts n Chronicle cards in, from its current RNG."""
    order = list(range(n))
    Rng(SimpleNamespace(rng=table.state.rng)).shuffle(order)
    return order


def until_chronicle_draw(table) -> None:
    """Answer the setup prompts that stand before step 8 (a tied Ideology draw) and stop at
    the last one, the Solad owner's production choice, which step 8 follows at once."""
    while True:
        blocking = [p for p in table.state.prompts if p.blocking]
        assert blocking and all(p.kind in ("ideology", "produce") for p in blocking)
        if len(blocking) == 1 and blocking[0].kind == "produce":
            return
        p = next(p for p in blocking if p.kind == "ideology")
        table.act(p.seat, p.options[0])


# -- Game Setup -------------------------------------------------------------------------------
def setup_checkpoints(log) -> list[int]:
    """Where each setup step shows in the log, in rulebook order."""
    return [
        index(log, "game_setup"),                                               # 1-5
        index(log, "ideology_drawn"), index(log, "ideology_drawn", last=True),  # 6
        index(log, "income"), index(log, "income", last=True),                  # 7
        index(log, "chronicles"),                                               # 8
        index(log, "gain", lambda d: d["source"].startswith("herald"), last=True),
        index(log, "drafted"), index(log, "drafted", last=True),                # 9
        index(log, "stories"),                                                  # 10
        index(log, "gain", lambda d: d["source"] == "event E2"),                # 11
        index(log, "deck"),                                                     # 12
        index(log, "dilemma"),                                                  # then the first round
    ]


def test_every_game_runs_the_twelve_setup_steps_in_order():
    """QD-076: the same 12 steps, in order, before game 1 and again before game 2.
    QD-078: the Power Pool holds exactly 3 when each game starts (game 1 ended with it emptied).
    QD-082: each game starts with every Slider centred and no Hegemony token, though game 1
    moved them. QD-079: game 2 marks the next Timeline space."""
    camp = campaign(4)
    camp["chronicle_deck"] = chronicle_records(("C003", 0, 0))
    camp["events"] = [{"id": "E2"}]
    for game in (1, 2):
        table = start(camp, seed=game)
        log = list(table.events)
        drive(table, voting_started, log)
        points = setup_checkpoints(log)
        assert points == sorted(points), f"game {game}: setup steps out of order"
        assert log[index(log, "game_setup")].data["game"] == game == table.state.game_number
        assert table.state.power_pool == 3
        assert set(table.state.board.sliders.values()) == {0} and set(table.state.board.tokens.values()) == {0}
        drive(table, lambda t: False, log)
        assert table.state.finished
        assert any(table.state.board.sliders.values()) and any(table.state.board.tokens.values())
        assert table.state.campaign.games_played == game and table.state.power_pool == 0
        camp = saved(table)


def test_only_gold_food_army_and_materials_are_resources():
    """QD-077: the Treasury's Resources are exactly Gold, Food, Army and Materials; a deal's
    payment can only give those; a "lose Power" effect is no Resource loss: the Power goes
    to the Pool with no forced-payment choice (no Gold or Infamy in its place)."""
    assert RESOURCES == ("gold", "food", "army", "materials")
    camp = campaign(4, leader=0, moderator=3)
    camp["deck"] = ["D1B1"]  # Nay: the Moderator gains 1 Power, the Leader loses 1 Power

    def leader_votes_nay(table, p):
        if p.kind == "vote" and p.seat == 0:
            return Action("vote", {"side": "nay", "power": 1})
        return None

    table = start(camp, seed=2)
    log = list(table.events)
    drive(table, voting_started, log)
    for p in table.state.councilors:
        assert sorted(p.resources) == sorted(RESOURCES)
    offers = [o for p in table.state.prompts if p.kind == "payment" for o in choices(table, p)]
    assert offers and {o.params["resource"] for o in offers} <= set(RESOURCES)
    prompts: list = []
    drive(table, lambda t: "outcome" in [e.type for e in log], log, pick=leader_votes_nay, prompts=prompts)
    infamy_before = table.state.councilors[0].infamy
    drive(table, lambda t: False, log, prompts=prompts)
    losses = [e.data for e in log if e.type == "lose" and e.data["source"] == "D1B1"]
    assert losses == [{"seat": 0, "what": "power", "n": 1, "source": "D1B1"}]
    assert (0, "forced_payment") not in prompts
    assert not [e for e in log if e.type == "forced_payment"]
    assert table.state.councilors[0].infamy == infamy_before


def test_the_timeline_gives_each_game_its_colour_bag_and_taxed_resource():
    """QD-079: game N is the Nth Timeline space (games_played + 1). QD-080: each space has a
    colour (red/blue), a Bag value and a taxed Resource that is never Gold, and the game uses
    them: the Bag is what an Investment costs, the taxed Resource is what the taxes take.
    QD-081: the game-1 space's Bag is 3."""
    assert [t.game for t in BOX.timeline] == list(range(1, len(BOX.timeline) + 1))
    for t in BOX.timeline:
        assert t.colour in ("red", "blue") and t.bag > 0 and t.taxed in ("army", "food", "materials")
    assert BOX.timeline[0].bag == 3

    def pay_investments(table, p):
        if p.kind == "invest":
            return next(o for o in p.options if o.params["pay"])
        return None

    for played, bag in ((0, 3), (3, 4)):
        camp = campaign(4)
        camp["games_played"] = played
        camp["deck"] = list(QUICK)
        for d in camp["diaries"]:
            d["resources"] = {r: 9 for r in RESOURCES}
        table = start(camp, seed=5)
        log = list(table.events)
        space = BOX.timeline[played]
        assert log[index(log, "game_setup")].data["timeline"] == msgspec.to_builtins(space)
        assert table.state.game_number == played + 1
        drive(table, kinds("invest"), log)
        paid = 0
        while kinds("invest")(table):
            p = next(p for p in table.state.prompts if p.kind == "invest")
            kind = BOX.investments[table.state.councilors[p.seat].investment].resource
            before = table.state.councilors[p.seat].resources[kind]
            log.extend(table.act(p.seat, pay_investments(table, p)))
            assert before - table.state.councilors[p.seat].resources[kind] == bag
            paid += 1
        assert paid == 4
        drive(table, lambda t: False, log)
        taxes = [e.data for e in log if e.type == "tax"]
        assert len(taxes) == 4 and {t["resource"] for t in taxes} == {space.taxed}


def test_ideology_tracks_have_a_centre_and_three_silver_spaces():
    """QD-083 (ruling QD-R1): a track is the centre and 4 spaces each side; the silver spaces
    are the centre and its two neighbours: a Balanced pair's bonus is scored there only, and
    a push stops at the end of the track."""
    board = BOX.board
    assert (board.track_half, board.silver) == (scoring.HALF, scoring.SILVER) == (4, 1)
    card = IdeologyCard(id="t", character="Aesyas", number=2, balanced=[Balanced(["force", "diplomacy"])])
    silver = []
    for pos in range(-board.track_half, board.track_half + 1):
        b = IdeologyBoard()
        b.sliders["force"] = pos
        b.tokens.update({"force": 1, "diplomacy": 1})
        if scoring.ideology_score(card, b)["hegemony"] == 1 + 2:
            silver.append(pos)
    assert silver == [-1, 0, 1]
    b = IdeologyBoard()
    assert scoring.push(b, "diplomacy", 20) == 4 and scoring.push(b, "force", 20) == 8
    assert b.sliders["force"] == -4


def test_legacy_components_stay_locked_until_an_effect_unlocks_them_by_code():
    """QD-084: a new campaign has no Chronicle in play (the Legacy tray's 28 are locked), no
    Keyword sticker, Envelope 02 unopened; D012 (Aye) unlocks Chronicle C005 by code, D001
    (Nay) Keyword K01 and Envelope 02: only then are they out of the tray, and C005 comes into
    play in the next game, not this one."""
    camp = campaign(4)
    camp["deck"] = ["D012", "D001"]
    sides = {"D012": "aye", "D001": "nay"}
    table = start(camp, seed=3)
    log = list(table.events)
    drive(table, voting_started, log)
    c = table.state.campaign
    assert table.state.chronicles == [] and c.chronicle_deck == [] and len(BOX.chronicles) > 20
    assert not any(d.keywords for d in c.diaries) and "02" not in c.opened
    assert not {"C005", "K01"} & set(c.unlocked)
    drive(table, lambda t: {"D012", "D001"} <= {d for d, _ in t.state.round_counter}, log, sides)
    c = table.state.campaign
    assert [r.code for r in c.chronicle_deck] == ["C005"] and "C005" in c.unlocked
    assert "C005" not in [ch.code for ch in table.state.chronicles]
    keyword = next(e.data for e in log if e.type == "keyword")
    assert keyword["code"] == "K01" and "K01" in c.diaries[keyword["seat"]].keywords
    assert "02" in c.opened and set(BOX.envelopes["02"].dilemmas) <= set(c.deck) | set(c.trashed) | {
        d for d, _ in table.state.round_counter} | {table.state.dilemma}
    drive(table, lambda t: False, log, sides)
    nxt = saved(table)
    nxt["deck"] = list(QUICK)
    table2 = start(nxt, seed=3)
    drive(table2, voting_started, [])
    assert [ch.code for ch in table2.state.chronicles] == ["C005"]


def swap_seats(camp: dict, a: int, b: int) -> dict:
    """Two players change seats between games: their Diaries swap, and what the campaign
    records by seat (the tokens, the Heralds of Branded Chronicles) follows them."""
    where = {a: b, b: a}
    d = camp["diaries"]
    d[a], d[b] = d[b], d[a]
    d[a]["seat"], d[b]["seat"] = a, b
    camp["leader"] = where.get(camp["leader"], camp["leader"])
    camp["moderator"] = where.get(camp["moderator"], camp["moderator"])
    for r in camp["chronicle_deck"]:
        if r["herald"] is not None:
            r["herald"] = where.get(r["herald"], r["herald"])
    return camp


def test_leader_and_moderator_tokens_stay_with_their_holders_between_games():
    """QD-085: game 2 starts with the Leader and Moderator tokens where game 1 left them
    (game 1 moved the Leader token from seat 0 to the Moderator, seat 3); seats may change
    between games: with the Diaries of seats 0 and 3 swapped (the tokens and Heralds
    following their holder), game 2 deals seat 0 what Xanthe got in seat 3 (her Ideology
    cards, her Treasury and income) and seat 0 leads."""
    camp = campaign(4, leader=0, moderator=3)
    table = start(camp, seed=4)
    log = list(table.events)
    drive(table, lambda t: False, log)
    end = (table.state.leader, table.state.moderator)
    assert end != (0, 3)
    nxt = saved(table)
    t2 = start(nxt, seed=4)
    assert (t2.state.leader, t2.state.moderator) == end
    game_setup = next(e.data for e in t2.events if e.type == "game_setup")
    assert (game_setup["leader"], game_setup["moderator"]) == end

    assert end == (3, 3)
    drive(t2, voting_started, [])
    t3 = start(swap_seats(saved(table), 0, 3), seed=4)
    drive(t3, voting_started, [])
    assert t3.state.councilors[0].ideology_card.startswith("Xanthe")
    assert t3.state.councilors[3].ideology_card.startswith("Aesyas")
    first_vote = next(p for p in t3.state.prompts if p.kind == "vote")
    assert first_vote.seat == 0 and (t3.state.leader, t3.state.moderator) == (0, 0)
    assert t3.state.councilors[0].resources == t2.state.councilors[3].resources
    assert t3.state.councilors[3].resources == t2.state.councilors[0].resources


def test_voting_tiles_start_each_game_on_their_aye_nay_side():
    """QD-086: at the first vote of a game (game 1, and game 2 after a game of passes),
    every Voting tile shows Aye/Nay: no side, no Power, no Pass Action."""
    camp = campaign(4)
    for game in (1, 2):
        table = start(camp, seed=6)
        drive(table, voting_started, [])
        for viewer in (None, 0, 2):
            tiles = table.view(viewer)["vote"]["tiles"]
            assert tiles == [{"side": "", "power": 0, "pass_action": ""}] * 4
        log: list = []
        drive(table, lambda t: False, log)
        assert {t["side"] for v in table.state.votes for t in v["tiles"]} == {"pass"}
        camp = saved(table)


def test_a_player_sees_the_goals_of_their_own_agendas_only():
    """QD-087: during setup each seat's view holds its own Agenda cards (codes whose goals
    it may read); the other Diaries show only how many Agendas they hold."""
    table = start(campaign(4), seed=7)
    drive(table, kinds("investment"), [])
    assert table.state.phase == "setup"
    for viewer in range(4):
        diaries = table.view(viewer)["campaign"]["diaries"]
        for d in diaries:
            held = table.state.campaign.diaries[d["seat"]].agendas
            if d["seat"] == viewer:
                assert [a["code"] for a in d["agendas"]] == [a.code for a in held]
                assert all(BOX.agendas[a.code].goal for a in held)
            else:
                assert d["agendas"] == len(held) == 1
    assert all(d["agendas"] == 1 for d in table.view(None)["campaign"]["diaries"])


def tied_draw_table():
    """The first seed whose setup stops for a tied Ideology draw (two cards numbered 1)."""
    for seed in range(200):
        table = start(campaign(4), seed=seed)
        if any(p.kind == "ideology" for p in table.state.prompts):
            return table
    raise AssertionError("no tied draw in 200 seeds")


def test_the_kept_ideology_card_is_secret_until_ideology_scoring_and_decides_the_score():
    """QD-090: the tied draw's two cards, the choice and the kept card are seen by their
    owner only (others see that a card is kept, not which); at the end every kept card is
    revealed and scored against the final board."""
    table = tied_draw_table()
    p = next(p for p in table.state.prompts if p.kind == "ideology")
    seat, other = p.seat, (p.seat + 1) % 4
    drawn = [o.params["card"] for o in p.options]
    assert [BOX.ideology_cards[c].number for c in drawn] == [1, 1]
    assert table.view(seat)["councilors"][seat]["drawn_ideology"] == drawn
    assert table.view(other)["councilors"][seat]["drawn_ideology"] == 2
    assert "prompts" in table.view(other) and all("options" not in q for q in table.view(other)["prompts"]
                                                   if q["seat"] == seat)
    events = table.act(seat, p.options[1])
    kept = next(e for e in events if e.type == "ideology_drawn" and e.data["seat"] == seat)
    assert kept.data["card"] == drawn[1]
    assert [e["data"] for e in view_events(events, other) if e["type"] == "ideology_drawn"
            and e["data"]["seat"] == seat] == [{"seat": seat}]
    log = list(events)
    drive(table, voting_started, log)
    for viewer in range(4):
        for c in table.view(viewer)["councilors"]:
            expected = table.state.councilors[c["seat"]].ideology_card if c["seat"] == viewer else True
            assert c["ideology_card"] == expected
    assert table.state.councilors[seat].ideology_card == drawn[1]
    drive(table, lambda t: False, log)
    scored = {e.data["seat"]: e.data for e in log if e.type == "ideology_scored"}
    for c in table.state.councilors:
        card = BOX.ideology_cards[c.ideology_card]
        got = scoring.ideology_score(card, table.state.board)
        assert scored[c.seat]["card"] == c.ideology_card
        assert (scored[c.seat]["hegemony"], scored[c.seat]["independence"]) == (got["hegemony"], got["independence"])
    assert [c["ideology_card"] for c in table.view(other)["councilors"]] == [
        c.ideology_card for c in table.state.councilors]


def income_campaign(games_played: int) -> dict:
    """Seat 0: red Allwed (1 Gold) and Blodyn (2 Food) with Buildings B03 (red, 2 Food) and
    B02 (blue, 1 Army), red Vassal Dualak; seat 1: blue Natar (Army) and Olwyn (Food) with
    B07 (red, 2 Army), blue Vassal Wylio; seat 2: blue Coden (2 Materials) and Tiryll
    (Gold), red Vassal Gamam; seat 3: red Crann (2 Army) and Solad (Gold or Food), blue
    Vassal Tork."""
    camp = campaign(4)
    layout = [(["Allwed", "Blodyn"], ["Dualak"], {"B03": "Allwed", "B02": "Blodyn"}),
              (["Natar", "Olwyn"], ["Wylio"], {"B07": "Natar"}),
              (["Coden", "Tiryll"], ["Gamam"], {}),
              (["Crann", "Solad"], ["Tork"], {})]
    for d, (mains, vassals, buildings) in zip(camp["diaries"], layout):
        d["regions"], d["vassals"], d["buildings"] = mains, vassals, buildings
    camp["diaries"][2]["resources"] = {"gold": 2, "food": 0, "army": 5, "materials": 1}
    camp["games_played"] = games_played
    return camp


def test_income_starting_power_one_of_each_resource_and_productive_buildings():
    """QD-091: 7 Starting Power each game. QD-092: 1 Gold, 1 Food, 1 Army and 1 Materials each
    (seat 2 owns nothing red in the red game 1: that is all it gets). QD-093: then every
    Building of the Timeline's colour produces, the Regions' base Buildings included (a
    two-Resource Building asks its owner). QD-094: the other colour produces nothing (game 2
    is blue: the red Buildings rest, the blue ones produce)."""
    expected = {
        1: [{"gold": 2, "food": 5, "army": 1, "materials": 1},   # Allwed + Blodyn + B03
            {"gold": 1, "food": 1, "army": 3, "materials": 1},   # B07 only
            {"gold": 3, "food": 1, "army": 6, "materials": 2},   # nothing
            {"gold": 1, "food": 2, "army": 3, "materials": 1}],  # Crann + Solad (Food chosen)
        2: [{"gold": 1, "food": 1, "army": 2, "materials": 1},   # B02 only
            {"gold": 1, "food": 2, "army": 2, "materials": 1},   # Natar + Olwyn, not Vassal Wylio
            {"gold": 4, "food": 1, "army": 6, "materials": 4},   # Coden + Tiryll
            {"gold": 1, "food": 1, "army": 1, "materials": 1}],  # nothing (Vassal Tork is covered)
    }

    def solad_food(table, p):
        if p.kind == "produce":
            return next(o for o in p.options if o.params["resource"] == "food")
        return None

    for game, treasuries in expected.items():
        table = start(income_campaign(game - 1), seed=8)
        asked = [(p.seat, sorted(o.params["resource"] for o in p.options))
                 for p in table.state.prompts if p.kind == "produce"]
        assert asked == ([(3, ["food", "gold"])] if game == 1 else [])
        log = list(table.events)
        drive(table, voting_started, log, pick=solad_food)
        assert [c.resources for c in table.state.councilors] == treasuries
        assert [e.data["power"] for e in log if e.type == "income"] == [7, 7, 7, 7]
        assert [c.power for c in table.state.councilors] == [7, 7, 7, 7]


def test_without_an_unlocked_chronicle_deck_step_8_is_skipped():
    """QD-095: no unlocked Chronicle deck: no card drawn, none in play."""
    table = start(campaign(4), seed=9)
    log = list(table.events)
    drive(table, voting_started, log)
    assert table.state.chronicles == [] and not [e for e in log if e.type == "chronicles"]


NON_INSTANT_HERALDED = ["C003", "C004", "C006", "C007", "C010", "C011", "C014"]  # each gives its Herald something


def place_expectation(records: list[dict], order: list[int]) -> tuple[list[str], list[str]]:
    """(placed in draw order, returned unread) for the first 10 drawn in `order`."""
    placed, returned, brown = [], [], 0
    for i in order[:10]:
        code = records[i]["code"]
        if "instant" in BOX.chronicles[code].bands:
            placed.append(code)
        elif brown < 5:
            placed.append(code)
            brown += 1
        else:
            returned.append(code)
    return placed, returned


def test_up_to_ten_chronicles_are_drawn_and_the_rest_stay_in_the_unlocked_deck():
    """QD-096: the unlocked deck is shuffled (the draw order changes with the seed) and 10
    cards are drawn: with 11 cards, the 11th is never placed even when it is an Instant
    (which no slot limit would refuse); every card, drawn or not, stays in the unlocked deck.
    With fewer than 10 cards all are drawn."""
    records = chronicle_records(("C001", 1, 0), ("CAOD1", None, 0), *[(c, 0, 0) for c in NON_INSTANT_HERALDED],
                                ("C012", 0, 0), ("C013", 0, 0))
    assert len(records) == 11
    orders, instant_left_out = set(), 0
    for seed in range(30):
        camp = campaign(4)
        camp["chronicle_deck"] = records
        table = start(camp, seed=seed)
        until_chronicle_draw(table)
        order = predicted_draw(table, len(records))
        placed, _ = place_expectation(records, order)
        eleventh = records[order[10]]["code"]
        p = next(p for p in table.state.prompts if p.kind == "produce")
        table.act(p.seat, p.options[0])
        in_play = [ch.code for ch in table.state.chronicles]
        assert in_play == placed and eleventh not in in_play
        instant_left_out += "instant" in BOX.chronicles[eleventh].bands
        orders.add(tuple(in_play))
        assert sorted(r.code for r in table.state.campaign.chronicle_deck) == sorted(r["code"] for r in records)
    assert instant_left_out and len(orders) > 6

    camp = campaign(4)
    camp["chronicle_deck"] = chronicle_records(("C001", 1, 0), ("C003", 0, 0), ("CAOD1", None, 0))
    table = start(camp, seed=1)
    drive(table, voting_started, [])
    assert sorted(ch.code for ch in table.state.chronicles) == ["C001", "C003", "CAOD1"]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_chronicles_are_placed_one_at_a_time_and_a_sixth_brown_card_goes_back_unread(seed):
    """QD-097: the drawn cards are placed in draw order. QD-098: Instants go to the Instant
    slot, beside the brown ones and outside their limit (7 cards in play). QD-099: the other
    cards fill the 5 brown slots in draw order. QD-100: the 6th and 7th non-Instant cards go
    back to the unlocked deck unread: no Herald effect, no Duration mark, not in play.
    QD-102: every placed card, Instants included, gets one Duration mark."""
    records = chronicle_records(("C001", 1, 0), ("CAOD1", None, 0), *[(c, 0, 0) for c in NON_INSTANT_HERALDED])
    camp = campaign(4)
    camp["chronicle_deck"] = records
    table = start(camp, seed=seed)
    until_chronicle_draw(table)
    placed, returned = place_expectation(records, predicted_draw(table, len(records)))
    before = table.state.councilors[0]
    before = (before.hegemony, before.independence)
    p = next(p for p in table.state.prompts if p.kind == "produce")
    log = list(table.act(p.seat, p.options[0]))
    drive(table, voting_started, log)
    assert [ch.code for ch in table.state.chronicles] == placed
    assert [ch.instant for ch in table.state.chronicles] == ["instant" in BOX.chronicles[c].bands for c in placed]
    assert sum(ch.instant for ch in table.state.chronicles) == 2 and len(placed) == 7 and len(returned) == 2
    assert log[index(log, "chronicles")].data["placed"] == placed
    heralded = [e.data["source"].split()[1] for e in log if e.type == "gain" and e.data["source"].startswith("herald")]
    assert sorted(heralded) == sorted(c for c in placed if c in NON_INSTANT_HERALDED + ["C001"])
    after = table.state.councilors[0]
    gained = {"C007": (0, 1), "C010": (1, 0)}
    assert (after.hegemony - before[0], after.independence - before[1]) == tuple(
        sum(gained[c][i] for c in placed if c in gained) for i in (0, 1))
    marks = {r.code: r.marks for r in table.state.campaign.chronicle_deck}
    assert {c: marks[c] for c in placed} == {c: 1 for c in placed}
    assert {c: marks[c] for c in returned} == {c: 0 for c in returned}


def test_placed_cards_are_read_their_heralds_rewarded_and_instants_resolved():
    """QD-101: once all are placed, each card is read: its Herald effect goes to its Herald
    (a Branded seat, or the pre-printed Character Syd), and Instant cards apply their main
    effect at once (C001: everyone gains 1 Food; C021: Syd gains 1 Power, and its second
    box waits for a trigger not met at the start); a non-Instant card's own effect (C003's
    Pass Action, 2 Power) is not applied."""
    camp = campaign(4)  # Aesyas, Jilian, Syd, Xanthe
    camp["chronicle_deck"] = chronicle_records(("C001", 1, 0), ("C021", None, 0), ("C003", 0, 0))
    table = start(camp, seed=10)
    until_chronicle_draw(table)
    before = [(c.power, dict(c.resources)) for c in table.state.councilors]
    p = next(p for p in table.state.prompts if p.kind == "produce")
    assert p.seat == 2
    log = list(table.act(2, next(o for o in p.options if o.params["resource"] == "food")))
    drive(table, voting_started, log)
    expected = {0: {"food": 1, "power": 1},
                1: {"food": 2},
                2: {"food": 2, "gold": 1, "power": 1},
                3: {"food": 1}}
    for seat, (power, res) in enumerate(before):
        c = table.state.councilors[seat]
        diff = {r: c.resources[r] - res[r] for r in RESOURCES if c.resources[r] != res[r]}
        if c.power != power:
            diff["power"] = c.power - power
        assert diff == expected[seat], seat
    placed_at = index(log, "chronicles")
    assert all(i > placed_at for i, e in enumerate(log) if e.type in ("gain", "box", "box_skipped"))
    assert [e.data["source"] for e in log if e.type == "box_skipped"] == ["C021"]


def test_a_full_duration_track_means_a_last_game_and_cards_without_a_track_are_never_marked():
    """QD-102: each placed card gets one mark. QD-103: C001 (2 spaces, 1 marked before) and
    C007 (1 space) fill their tracks: they are in play this game and Trashed at its end;
    C003 (3 spaces) stays in the unlocked deck. QD-104: C020 and C023 have no Duration Track:
    never marked, never Trashed."""
    camp = campaign(4)
    camp["deck"] = list(QUICK)
    camp["chronicle_deck"] = chronicle_records(("C001", 1, 1), ("C007", 2, 0), ("C003", 0, 0), ("C020", 3, 0),
                                               ("C023", 0, 0))
    table = start(camp, seed=11)
    log = list(table.events)
    drive(table, voting_started, log)
    assert sorted(ch.code for ch in table.state.chronicles) == ["C001", "C003", "C007", "C020", "C023"]
    marks = {r.code: r.marks for r in table.state.campaign.chronicle_deck}
    assert marks == {"C001": 2, "C007": 1, "C003": 1, "C020": 0, "C023": 0}
    drive(table, lambda t: False, log)
    c = table.state.campaign
    assert {r.code: r.marks for r in c.chronicle_deck} == {"C003": 1, "C020": 0, "C023": 0}
    assert {"C001", "C007"} <= set(c.trashed) and not {"C003", "C020", "C023"} & set(c.trashed)
    assert sorted(e.data["code"] for e in log if e.type == "chronicle_trashed") == ["C001", "C007"]
    nxt = saved(table)
    nxt["deck"] = list(QUICK)
    t2 = start(nxt, seed=11)
    drive(t2, voting_started, [])
    assert sorted(ch.code for ch in t2.state.chronicles) == ["C003", "C020", "C023"]
    assert {r.code: r.marks for r in t2.state.campaign.chronicle_deck} == {"C003": 2, "C020": 0, "C023": 0}


@pytest.mark.parametrize("players, left_over", [(3, 2), (4, 1), (5, 1), (6, 1)])
def test_each_player_drafts_one_secret_investment_and_the_rest_go_back_unseen(players, left_over):
    """QD-111: after the draft each player holds exactly 1 Investment card; 1 card is left
    over (2 with 3 players), never shown; the picks and the cards passed on are seen only by
    the drafter, until the Investments step of the end of the game reveals them."""
    camp = campaign(players)
    camp["deck"] = list(QUICK)
    for d in camp["diaries"]:
        d["resources"] = {r: 9 for r in RESOURCES}
    table = start(camp, seed=12)
    log = list(table.events)
    drive(table, kinds("investment"), log)
    for viewer in range(players):
        for q in table.view(viewer)["prompts"]:
            if q["kind"] == "investment":
                assert ("options" in q) == (q["seat"] == viewer)
    drive(table, voting_started, log)
    held = [c.investment for c in table.state.councilors]
    assert all(held) and len(set(held)) == players
    assert len(table.state.investments_left) == left_over
    for viewer in [None, *range(players)]:
        v = table.view(viewer)
        assert v["investments_left"] == left_over
        assert [c["investment"] for c in v["councilors"]] == [h if s == viewer else True for s, h in enumerate(held)]
    drafted = [e for e in log if e.type == "drafted"]
    assert [e.data["seat"] for e in drafted] == sorted(e.data["seat"] for e in drafted)  # all 0 Hegemony
    for e in view_events(drafted, None):
        assert set(e["data"]) == {"seat"}
    drive(table, kinds("invest"), log)
    assert table.state.phase == "end"
    assert [c["investment"] for c in table.view(None)["councilors"]] == held
    assert table.view(None)["investments_left"] == left_over


def test_story_cards_are_displayed_by_storyline_most_recent_on_top_for_everyone():
    """QD-112: the saved Story cards are grouped by Storyline and ordered by their number,
    the most recent (highest) first, whatever the order they were saved in. QD-113: the
    display is public: every seat and a spectator get it, and the cards stay in every view."""
    camp = campaign(4)
    camp["stories"] = ["ST2-1", "ST1-2B", "ST3-1", "ST1-1"]
    table = start(camp, seed=13)
    log = list(table.events)
    drive(table, voting_started, log)
    shown = {"1": ["ST1-2B", "ST1-1"], "2": ["ST2-1"], "3": ["ST3-1"]}
    for viewer in (None, 0, 1, 2, 3):
        events = [e for e in view_events(log, viewer) if e["type"] == "stories"]
        assert events == [{"type": "stories", "data": {"shown": shown}}]
        assert sorted(table.view(viewer)["campaign"]["stories"]) == sorted(camp["stories"])


def test_saved_events_are_placed_and_set_up_by_their_own_rules():
    """QD-114: saved Events go in the Event slots (by number) and run their setup: E1 gives
    the holder of Tork (seat 1's Vassal) 1 Army, E2 gives the Moderator 1 Power. Without
    Event cards the step does nothing."""
    camp = campaign(4, leader=0, moderator=3)
    plain = start(camp, seed=14)
    log0 = list(plain.events)
    drive(plain, voting_started, log0)
    assert plain.state.events_active == [] and not [e for e in log0 if e.data.get("source", "").startswith("event")]
    camp["events"] = [{"id": "E2"}, {"id": "E1"}]
    table = start(camp, seed=14)
    log = list(table.events)
    drive(table, voting_started, log)
    assert table.state.events_active == ["E1", "E2"]
    assert table.state.councilors[1].resources["army"] == plain.state.councilors[1].resources["army"] + 1
    assert table.state.councilors[3].power == plain.state.councilors[3].power + 1 == 8
    assert [(e.data["seat"], e.data["what"]) for e in log if e.type == "gain"] == [(1, "army"), (3, "power")]


def test_the_whole_dilemma_deck_is_shuffled_at_every_setup_and_never_shown():
    """QD-115: each game shuffles the whole saved deck (nothing lost or added, a new order
    per seed, game 2 as well as game 1); no viewer sees the deck's order or cards, only its
    size."""
    camp = campaign(4)
    orders = set()
    for seed in range(4):
        table = start(camp, seed=seed)
        log = list(table.events)
        drive(table, voting_started, log)
        order = [*table.state.campaign.deck, table.state.dilemma]  # the bottom card was just drawn
        assert sorted(order) == sorted(camp["deck"]) and order != camp["deck"]
        assert log[index(log, "deck")].data["size"] == len(camp["deck"])
        orders.add(tuple(order))
        for viewer in (None, 0, 3):
            assert table.view(viewer)["campaign"]["deck"] == len(camp["deck"]) - 1
    assert len(orders) == 4
    table = start(camp, seed=0)
    drive(table, lambda t: False, [])
    nxt = saved(table)
    assert nxt["deck"]
    t2 = start(nxt, seed=0)
    drive(t2, voting_started, [])
    order = [*t2.state.campaign.deck, t2.state.dilemma]
    assert sorted(order) == sorted(nxt["deck"]) and order != nxt["deck"]


# -- Playing the Game: the round ----------------------------------------------------------
def test_a_game_has_a_variable_number_of_rounds_each_resolving_one_dilemma():
    """QD-131: random games of the demo campaign last 7 to 9 rounds (not always the same),
    and each round resolves exactly one Dilemma card, Aye or Nay, with one vote."""
    lengths = set()
    for seed in range(8):
        table, _ = played_campaign_game(campaign(4), seed=seed)
        s = table.state
        rounds = len(s.round_counter)
        assert 7 <= rounds <= 9 and s.round == rounds == len(s.votes)
        assert {side for _, side in s.round_counter} <= {"aye", "nay"}
        assert len({d for d, _ in s.round_counter}) == rounds
        assert [side for _, side in s.round_counter] == [v["winner"] for v in s.votes]
        lengths.add(rounds)
    assert len(lengths) > 1


def test_each_round_runs_its_five_phases_in_order():
    """QD-132: in every round: Read the Dilemma, the Voting Phase, Vote Resolution, Dilemma
    Resolution, then the end-of-game check (the next round's reading, or the end)."""
    table = start(campaign(4), seed=15)
    log = list(table.events)
    drive(table, lambda t: False, log)
    rounds = table.state.round
    assert rounds >= 7
    for r in range(1, rounds + 1):
        read = index(log, "phase", lambda d, r=r: d == {"phase": "read", "round": r})
        drawn = index(log, "dilemma", lambda d, s=table.state.round_counter[r - 1][0]: d["id"] == s)
        voting = index(log, "phase", lambda d, r=r: d == {"phase": "voting", "round": r})
        won = [i for i, e in enumerate(log) if e.type == "vote_won"][r - 1]
        resolution = index(log, "phase", lambda d, r=r: d == {"phase": "resolution", "round": r})
        outcome = [i for i, e in enumerate(log) if e.type == "outcome"][r - 1]
        nxt = (index(log, "phase", lambda d, r=r: d == {"phase": "read", "round": r + 1}) if r < rounds
               else index(log, "phase", lambda d: d["phase"] == "end"))
        assert read < drawn < voting < won < resolution < outcome < nxt
    trigger = index(log, "end_triggered")
    assert [i for i, e in enumerate(log) if e.type == "outcome"][-1] < trigger < index(
        log, "phase", lambda d: d["phase"] == "end")


NO_ENVELOPES = ["D2A2", "D6B2", "D7A1", "D4A2", "D2B3"]  # no Envelope, Mystery or sand timer on Aye


def test_each_round_draws_the_bottom_card_and_shows_only_its_front():
    """QD-133: every round's card is the bottom card of the deck (the last of the saved
    list), and its event carries the front only. QD-135: the front's highlighted Keywords
    are announced to everyone. QD-136: the front shows, per side, the Ideologies that move
    and the Legacy icon, publicly; the back stays hidden. QD-138: no event or view before
    the Vote's resolution reveals anything of either back (its text, its Keyword boxes,
    Envelopes, sand timer); afterwards only the winning back is read."""
    camp = campaign(4)
    camp["deck"] = list(NO_ENVELOPES)
    table = start(camp, seed=16)
    log = list(table.events)
    drive(table, voting_started, log)
    rounds = 0
    while not table.state.finished:
        card = BOX.dilemmas[table.state.dilemma]
        shown = [e for e in log if e.type == "dilemma"][-1]
        assert shown.to is None and shown.data == {
            "id": card.id, "title": card.title, "text": card.text, "keywords": list(card.keywords),
            "aye": {"pushes": msgspec.to_builtins(card.aye.pushes), "legacy": card.aye.legacy},
            "nay": {"pushes": msgspec.to_builtins(card.nay.pushes), "legacy": card.nay.legacy}}
        assert card.keywords and all(
            shown.data["keywords"] == [e for e in view_events([shown], v)][0]["data"]["keywords"]
            for v in (None, 0, 1, 2, 3))
        backs = [card.aye.text, card.nay.text]
        secret_views = json.dumps([table.view(v) for v in (None, 0, 1, 2, 3)])
        assert not any(b in secret_views for b in backs)
        assert not any(b in json.dumps(msgspec.to_builtins([e.data for e in log])) for b in backs)
        next_card = table.state.campaign.deck[-1] if table.state.campaign.deck else None
        start_of_round = len(log)
        drive(table, lambda t, r=table.state.round: t.state.round > r, log)
        revealed = [e.data for e in log[start_of_round:] if e.type == "outcome"]
        assert len(revealed) == 1 and revealed[0]["text"] == card.aye.text
        assert card.nay.text not in json.dumps(msgspec.to_builtins([e.data for e in log]))
        rounds += 1
        if next_card is not None and not table.state.finished:
            assert table.state.dilemma == next_card
    assert rounds == len(NO_ENVELOPES)


def test_an_empty_deck_before_the_storylines_end_is_reported_not_played_on():
    """QD-134: the deck runs out with Storylines still open: the engine reports the
    Troubleshooting state (an event and a note in the result) and draws no further round."""
    camp = campaign(4)
    camp["deck"] = list(QUICK)
    table = start(camp, seed=17)
    log = list(table.events)
    drive(table, lambda t: False, log)
    assert table.state.finished and table.state.round == 1 and table.state.round_counter[0][0] == "D2A2"
    trouble = [e.data for e in log if e.type == "troubleshooting"]
    assert trouble and "empty" in trouble[0]["reason"]
    assert table.state.result["notes"]
    assert [e.data["id"] for e in log if e.type == "dilemma"] == ["D2A2"]
