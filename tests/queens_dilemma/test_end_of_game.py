"""The Queen's Dilemma end of game and campaign: Agenda Resolution (completion, Bag costs,
time limits, Crossroads, Epilogues, Ongoing Agendas), Cleanup and Save (what a saved
campaign carries into the next game), the campaign-end trigger and the Grand Finale's
scores (ruling QD-R4), Points/Power/Resources, Keyword targeting and the order of effects.

Everything is played through the engine (`Table.act`): a test builds a campaign with the
harness, changes what it needs (the Dilemma deck holds only the cards the test wants, so
the shuffle cannot matter; an empty deck ends the game right after setup) and answers the
prompts with `drive`, a deterministic player whose choices the test can steer.
"""
from __future__ import annotations

import msgspec
import pytest

from core import default_registry
from core.engine import view, view_events
from core.errors import BadParameter, ContentError, NotYourTurn
from core.state import Action
from plugins.queens_dilemma import content as qd_content
from plugins.queens_dilemma.scoring import infamy_tier
from tests.queens_dilemma.harness import BOX, GAME_ID, act, campaign, choices, options, played_campaign_game, start

AOD = "age-of-disorder"


# -- a deterministic player --------------------------------------------------------------
def _default_answer(t, p, plan: dict) -> Action:
    """The answer `drive` gives when the test does not choose: vote as planned (a (side,
    power) pair, at most the Power held; or a Pass Action name; unplanned seats and seats
    without Power pass to Gather Power), then stay;
    no Pass Bonus; decline Investments and Agendas; pay forced losses in kind as far as
    possible; break ties as planned (Aye by default); otherwise the first option."""
    if p.kind == "vote":
        here = plan.get(t.state.dilemma, plan)
        want = here.get(p.seat, "gather")
        if any(o.type == "stay" for o in choices(t, p)):
            return Action("stay", {})
        if isinstance(want, Action):
            return want
        power = t.state.councilors[p.seat].power
        if isinstance(want, tuple) and power:
            return Action("vote", {"side": want[0], "power": min(want[1], power)})
        if isinstance(want, tuple):
            want = "gather"
        return Action("pass", {"action": want})
    if p.kind == "pass_bonus":
        return Action("no_bonus", {})
    if p.kind == "agenda":
        return Action("agendas_done", {})
    if p.kind == "invest":
        return Action("invest", {"pay": False})
    if p.kind == "forced_payment":
        return max(choices(t, p), key=lambda o: (o.params["resource"], -o.params["gold"]))
    if p.kind == "break_tie":
        here = plan.get(t.state.dilemma, plan)
        return Action("decide", {"side": here.get("decide", "aye")})
    if p.kind == "investment":
        calm = [o for o in p.options if o.params["card"] in ("I1", "I4", "I5", "I7")]  # Failure gives no Resource
        return (calm or p.options)[0]
    return p.options[0]


def drive(t, plan: dict | None = None, pick=None, stop=None, log: list | None = None, max_actions: int = 3000):
    """Answer blocking prompts until the game ends or `stop(t)`. `pick(t, prompt)` may return
    the Action to play (None: the default answer); every event goes to `log`. `plan` maps a
    seat to its vote, or a Dilemma id to such a map. Returns the log."""
    plan = plan or {}
    if log is None:  # a new log starts with what the table did last (a continued one has it)
        log = list(t.events)
    for _ in range(max_actions):
        if t.state.finished or (stop is not None and stop(t)):
            return log
        p = next(p for p in t.state.prompts if p.blocking)
        a = pick(t, p) if pick else None
        t.act(p.seat, a if a is not None else _default_answer(t, p, plan))
        log.extend(t.events)
    raise AssertionError("the game did not end")


def prompt_for(t, seat: int, kind: str):
    return next((p for p in t.state.prompts if p.seat == seat and p.kind == kind), None)


def waiting(seat: int, kind: str):
    return lambda t: prompt_for(t, seat, kind) is not None


def of(log, type_: str, **match) -> list[dict]:
    return [e.data for e in log if e.type == type_ and all(e.data.get(k) == v for k, v in match.items())]


def gains(log, source: str) -> dict[int, dict[str, int]]:
    """seat -> {what: amount} gained from `source` (a Dilemma id, a Chronicle code...)."""
    out: dict[int, dict[str, int]] = {}
    for e in of(log, "gain", source=source):
        out.setdefault(e["seat"], {}).setdefault(e["what"], 0)
        out[e["seat"]][e["what"]] += e["n"]
    return out


def saved(t) -> dict:
    """The campaign as the store saves it at the end of this game."""
    out: dict = {}
    rules = default_registry().rules_for(GAME_ID, list(t.state.modules))
    rules.hook.conclave_campaign_save(state=t.state, campaign=out)
    return out


def diary(camp: dict, seat: int) -> dict:
    return camp["diaries"][seat]


def held(camp_or_state, seat: int) -> dict:
    """Agenda code -> time limit held by a seat (a saved campaign or a live state)."""
    if isinstance(camp_or_state, dict):
        return {a["code"]: a["deadline"] for a in camp_or_state["diaries"][seat]["agendas"]}
    return {a.code: a.deadline for a in camp_or_state.campaign.diaries[seat].agendas}


def setting(deck=(), games_played: int = 0, **kw) -> dict:
    """A campaign (one-time setup done) whose Dilemma deck holds exactly `deck`."""
    camp = campaign(**kw)
    camp["deck"] = list(deck)
    camp["games_played"] = games_played
    return camp


def give(camp: dict, seat: int, **resources) -> None:
    diary(camp, seat)["resources"].update(resources)


def rich(camp: dict, n: int = 5) -> dict:
    """Every seat starts with `n` of each Resource (so the end of the game asks about
    Investments, and a test can stop there before Cleanup)."""
    for seat in range(camp["players"]):
        give(camp, seat, gold=n, food=n, army=n, materials=n)
    return camp


def resolved(n: int):
    """Stop once `n` Dilemmas are on the Round Counter."""
    return lambda t: len(t.state.round_counter) >= n


# -- e. Agenda Resolution -------------------------------------------------------------------
def test_completing_an_agenda_pays_its_cost_applies_success_and_chains_a_crossroad_at_once():
    """QD-246, QD-345, QD-347: Aesyas completes A106 by paying its cost (1 Materials, 1 Gold):
    its Success box applies to him, the card is Trashed. QD-252: the Success box unlocks the
    next card, A107, and the engine hands it to him. QD-251, QD-349: A107 is a Crossroad
    gained during Agenda Resolution: it is resolved at once (nobody else can act first),
    exactly one of its two options, with that option's unlock and rewards only."""
    camp = setting()
    give(camp, 0, gold=3, materials=3)
    t = start(camp, seed=1)
    drive(t, stop=waiting(0, "agenda"))
    assert t.state.phase == "end"
    me = t.state.councilors[0]
    before = dict(me.resources)
    hegemony = me.hegemony
    assert Action("complete", {"agenda": "A106"}) in options(t, 0, "complete")
    act(t, 0, "complete", agenda="A106")
    me = t.state.councilors[0]
    assert me.resources == {**before, "gold": before["gold"] - 1, "materials": before["materials"] - 1}
    assert me.hegemony == hegemony + 2                          # Success: +2 Hegemony for the owner
    assert "A106" in t.state.campaign.trashed and "A106" not in held(t.state, 0)
    # A107 (Crossroad) is resolved immediately: the only decision open is Aesyas's choice
    assert [(p.seat, p.kind) for p in t.state.prompts if p.blocking] == [(0, "crossroad")]
    assert [o.params["option"] for o in options(t, 0, "crossroad")] == [0, 1]
    with pytest.raises(NotYourTurn):
        act(t, 1, "agendas_done")
    with pytest.raises(BadParameter):
        act(t, 0, "crossroad", code="A107", option=2)
    gold = me.resources["gold"]
    act(t, 0, "crossroad", code="A107", option=1)  # "Offer it to the Crown alone": A109, +1 Hegemony, +2 Gold
    me = t.state.councilors[0]
    d = t.state.campaign.diaries[0]
    assert "A109" in held(t.state, 0) and "A108" not in t.state.campaign.unlocked
    assert "K02" not in d.keywords                              # the other option's Keyword is not gained
    assert me.hegemony == hegemony + 2 + 1 and me.resources["gold"] == gold + 2
    assert "A107" in t.state.campaign.trashed and "A107" not in held(t.state, 0)
    # the card gained during Agenda Resolution can be completed in the same phase (Success path)
    assert Action("complete", {"agenda": "A109"}) in options(t, 0, "complete")


def test_an_agenda_due_this_game_fails_after_the_completions_and_a_later_one_stays():
    """QD-248, QD-346: the time limit is the last game an Agenda can be completed in: in game
    2 Aesyas still completes his A106 (limit 2), but Jilian's A044 (limit 2) is not
    completed: after every completion, its Failure box applies at once (+1 Infamy) and it is
    Trashed; QD-252: the
    Failure box unlocks the next card (the Crossroad A045), handed to her. QD-249: A202
    (time limit 4) stays with her for the next games."""
    camp = setting(games_played=1)
    diary(camp, 1)["agendas"].append({"code": "A202", "deadline": 4})
    camp["unlocked"].append("A202")
    give(camp, 0, gold=2, materials=2)  # Aesyas can complete his A106 (seat 0 resolves first)
    t = start(camp, seed=2)
    assert t.state.game_number == 2
    log = drive(t, pick=lambda t, p: Action("complete", {"agenda": "A106"})
                if p.kind == "agenda" and p.seat == 0 and "A106" in held(t.state, 0) else None,
                stop=waiting(1, "crossroad"))
    assert of(log, "agenda_completed", seat=0, code="A106")
    failed = of(log, "agenda_failed")
    assert {(f["seat"], f["code"]) for f in failed} >= {(1, "A044")}
    types = [e.type for e in log]
    assert max(i for i, ty in enumerate(types) if ty == "agenda_completed") < types.index("agenda_failed")
    assert gains(log, "agenda A044") == {1: {"infamy": 1}}
    assert "A044" in t.state.campaign.trashed and "A044" not in held(t.state, 1)
    assert [(p.seat, p.kind) for p in t.state.prompts if p.blocking] == [(1, "crossroad")]  # A045 at once
    drive(t)
    after = saved(t)
    assert held(after, 1).get("A202") == 4            # not due yet: kept for a later game
    assert "A045" in after["trashed"] and ("A046" in held(after, 1) or "A047" in held(after, 1))


@pytest.mark.parametrize("game", [1, 4, 7])
def test_a_bag_goal_costs_the_timeline_bag_value_of_the_current_game(game):
    """QD-247, QD-345: A307's goal is the Bag icon in Gold: in game 1 it costs 3, in game 4
    4 and in game 7 5 (the Timeline's Bag values). With one Gold less it cannot be
    completed (a deliberate cost: no Infamy instead, QD-278)."""
    bag = BOX.timeline[game - 1].bag
    for gold_then, can in ((bag - 1, False), (bag, True)):
        camp = setting(games_played=game - 1)
        diary(camp, 1)["agendas"] = [{"code": "A307", "deadline": None}]
        camp["ongoing_pool"].remove("A307")
        give(camp, 1, gold=gold_then - 1)  # + 1 Gold of income; Jilian's Regions produce Food only
        t = start(camp, seed=3)
        log = drive(t, pick=lambda t, p: Action("complete", {"agenda": "A307"})
                    if p.kind == "agenda" and p.seat == 1 else None)
        if can:
            assert of(log, "agenda_completed", seat=1, code="A307")
            assert saved(t)["diaries"][1]["resources"]["gold"] == 0
        else:
            assert not of(log, "agenda_completed", seat=1)
            assert saved(t)["diaries"][1]["resources"]["gold"] == bag - 1
            assert "A307" in held(saved(t), 1)


def test_an_epilogue_gives_its_reward_at_once_marks_a_fate_then_draws_an_ongoing_agenda():
    """QD-350: completing A108 unlocks the Epilogue A110: its reward (+3 Hegemony) is gained
    immediately, then the Fate space is marked, then an Ongoing Agenda card is drawn; the
    Epilogue is not kept. QD-252 (the Success box hands over the next card)."""
    camp = setting()
    diary(camp, 0)["agendas"] = [{"code": "A108", "deadline": 4}]
    camp["unlocked"] += ["A107", "A108"]
    give(camp, 0, materials=2)
    t = start(camp, seed=4)
    drive(t, stop=waiting(0, "agenda"))
    hegemony = t.state.councilors[0].hegemony
    events = act(t, 0, "complete", agenda="A108")
    order = [(e.type, e.data.get("what") or e.data.get("fate") or e.data.get("code"))
             for e in events if e.type in ("gain", "fate", "agenda")]
    epilogue = order[order.index(("agenda", "A110")) + 1:]
    assert epilogue[:2] == [("gain", "hegemony"), ("fate", "legacy")]
    assert epilogue[2][0] == "agenda" and BOX.agendas[epilogue[2][1]].kind == "ongoing"
    state = t.state
    assert state.councilors[0].hegemony == hegemony + 3
    assert state.campaign.diaries[0].fate == "legacy"
    ongoing = [c for c in held(state, 0) if BOX.agendas[c].kind == "ongoing"]
    assert len(ongoing) == 1 and held(state, 0)[ongoing[0]] is None and ongoing[0] not in state.campaign.ongoing_pool
    assert "A110" not in held(state, 0) and "A110" in state.campaign.trashed


def test_an_ongoing_agenda_is_not_trashed_the_next_is_drawn_before_it_goes_back():
    """QD-352 (reading: draw first, then return): completing A311 with only A302 left in
    the pool hands Jilian A302 (A311 cannot be redrawn at once); A311 goes back to the
    Ongoing pool, not to the Trash. QD-351: Ongoing cards have no time limit and no Failure:
    held in game 12, A302 does not fail."""
    camp = setting(games_played=11)
    diary(camp, 1)["agendas"] = [{"code": "A311", "deadline": None}]
    camp["ongoing_pool"] = ["A302"]
    give(camp, 1, gold=1)
    t = start(camp, seed=5)
    assert t.state.game_number == 12
    log = drive(t, pick=lambda t, p: Action("complete", {"agenda": "A311"})
                if p.kind == "agenda" and p.seat == 1 and "A311" in held(t.state, 1) else None)
    after = saved(t)
    assert held(after, 1) == {"A302": None}
    assert after["ongoing_pool"] == ["A311"] and "A311" not in after["trashed"]
    assert not of(log, "agenda_failed", seat=1)
    for a in BOX.agendas.values():
        if a.kind == "ongoing":
            assert a.deadline is None and a.failure == []


def test_an_unlocked_agenda_goes_secretly_to_its_target_with_its_time_limit_written_in():
    """QD-353: the Leader takes the unlocked Agenda; only its owner learns which card it is.
    QD-354: A201 has a blank time limit: unlocked in game 2 it is due by the end of game 5;
    A202 keeps its printed limit 4. QD-344: general Agendas (no Character) are won from
    Dilemma outcomes by any player."""
    for card, code, printed in (("D008", "A201", None), ("D011", "A202", 4)):
        camp = setting([card], games_played=1)
        t = start(camp, seed=6)
        side = "nay" if card == "D008" else "aye"
        log = drive(t, plan={0: (side, 3)})  # the others pass: seat 0 wins the vote and stays Leader
        leader = 0
        assert of(log, "outcome")[0]["side"] == side and of(log, "box", source=card, target="leader")[0]["seats"] == [0]
        assert BOX.agendas[code].character == "" and BOX.agendas[code].deadline == printed
        assert held(saved(t), leader)[code] == (printed or 2 + 3)
        unlock = [e for e in log if e.type == "agenda" and e.data.get("code") == code]
        assert len(unlock) == 1
        others = [s for s in range(4) if s != leader]
        for viewer in others + [None]:
            seen = view_events(unlock, viewer)
            assert seen == [{"type": "agenda", "data": {"seat": leader}}]
        assert view_events(unlock, leader)[0]["data"]["code"] == code


def test_agendas_are_secret_structured_cards_resolved_only_at_the_end_of_the_game():
    """QD-343: an Agenda card has a narrative, a goal, Success and Failure boxes and a time
    limit, and only its owner sees it. QD-348: normal Agendas are never resolved mid-game:
    no Voting Phase offers a completion, even with the cost in hand; Agenda Resolution does."""
    for a in BOX.agendas.values():
        assert a.text and a.title
        if a.kind in ("storyline", "general"):
            assert a.goal and a.success and a.failure and (a.cost or a.bag)
    camp = setting(["D2A2"])
    give(camp, 0, gold=5, materials=5)
    t = start(camp, seed=7)
    drive(t, stop=lambda t: t.state.phase == "voting")
    assert t.state.dilemma == "D2A2"
    mine = view(t.rules, t.state, 0)["campaign"]["diaries"]
    other = view(t.rules, t.state, 1)["campaign"]["diaries"]
    assert [a["code"] for a in mine[0]["agendas"]] == ["A106"]
    assert other[0]["agendas"] == 1  # how many, never which
    seen = []
    while t.state.phase == "voting":
        seen += [o.type for p in t.state.prompts for o in choices(t, p)]
        p = next(p for p in t.state.prompts if p.blocking)
        t.act(p.seat, _default_answer(t, p, {}))
    assert "complete" not in seen
    drive(t, stop=waiting(0, "agenda"))
    assert t.state.phase == "end" and Action("complete", {"agenda": "A106"}) in options(t, 0)


def test_another_characters_storyline_agenda_is_refused_and_stays_in_the_legacy_tray():
    """QD-355: Aesyas somehow holds Elinor's A127; completing it would unlock Elinor's
    Crossroad A128 for him: the engine refuses it (returned to the tray: not unlocked, not
    held, no Crossroad asked)."""
    camp = setting()
    diary(camp, 0)["agendas"] = [{"code": "A127", "deadline": 2}]
    give(camp, 0, food=2)
    t = start(camp, seed=8)
    drive(t, stop=waiting(0, "agenda"))
    events = act(t, 0, "complete", agenda="A127")
    assert [e.data for e in events if e.type == "agenda_refused"] == [
        {"seat": 0, "code": "A128", "reason": "another Character's storyline"}]
    assert "A128" not in t.state.campaign.unlocked and "A128" not in held(t.state, 0)
    assert not prompt_for(t, 0, "crossroad")


def test_age_of_disorder_agendas_unlocked_before_game_1_are_due_by_game_4():
    """QD-356 (reading: the first game counts as current): AAOD cards have blank time
    limits; given at the one-time setup, each is due by the end of game 4."""
    camp = campaign(regions_chosen=False, modules=[AOD])
    t = start(camp, seed=9, modules=[AOD])
    drive(t, stop=lambda t: any(p.kind == "investment" for p in t.state.prompts))
    assert t.state.campaign.regions_chosen and t.state.game_number == 1
    for d in t.state.campaign.diaries:
        code = BOX.characters[d.character].aod_agenda
        assert BOX.agendas[code].deadline is None
        assert held(t.state, d.seat)[code] == 4


# -- 3. Cleanup and 4. Save ----------------------------------------------------------------
def test_cleanup_trashes_the_resolved_dilemmas():
    """QD-258: the Dilemmas resolved this game (on the Round Counter) go to the Trash; they
    are neither in the saved deck nor ever drawn again."""
    camp = setting(["D2A2", "D3A3"])
    t = start(camp, seed=10)
    drive(t)
    assert sorted(d for d, _ in t.state.round_counter) == ["D2A2", "D3A3"]
    after = saved(t)
    assert {"D2A2", "D3A3"} <= set(after["trashed"]) and after["deck"] == []


def test_chronicles_with_a_full_duration_track_are_trashed_the_others_go_back_to_the_deck():
    """QD-259, QD-260, QD-340: C007 (1 Duration space) is Trashed after its first game;
    C001 (2 spaces) goes back to the unlocked deck with one mark, and is Trashed after its
    second game. QD-341: C020 (no Duration Track) never expires. QD-342: C024, from a
    Storyline ending, shows END03 instead of a track and never expires."""
    camp = setting(characters=["Aesyas", "Elinor", "Syd", "Xanthe"])
    camp["chronicle_deck"] = [{"code": c, "herald": 0, "marks": m}
                              for c, m in (("C007", 0), ("C001", 0), ("C020", 5), ("C024", 7))]
    camp["unlocked"] += ["C007", "C001", "C020", "C024"]
    assert BOX.chronicles["C024"].ending == "END03" and BOX.chronicles["C024"].duration is None
    assert BOX.chronicles["C020"].duration is None
    t = start(camp, seed=12)
    drive(t, stop=lambda t: t.state.phase == "end")
    assert {c.code for c in t.state.chronicles} == {"C007", "C001", "C020", "C024"}
    drive(t)
    after = saved(t)
    deck = {r["code"]: r["marks"] for r in after["chronicle_deck"]}
    assert deck == {"C001": 1, "C020": 5, "C024": 7}  # no track, nothing to mark
    assert "C007" in after["trashed"] and "C001" not in after["trashed"]
    t2 = start(after, seed=13)
    drive(t2)
    again = saved(t2)
    assert {r["code"] for r in again["chronicle_deck"]} & {"C001", "C020", "C024"} == {"C020", "C024"}
    assert "C001" in again["trashed"]


def test_saving_keeps_resources_diary_agendas_and_tokens_but_never_power():
    """QD-261: at Cleanup all leftover Power (Treasuries and the Pool) is discarded: the next
    game starts from the 7 Starting Power and the Pool's 3. QD-262: Resources left in the
    Treasury carry over (the next game's Income adds to them). QD-263: the Diary (points,
    Regions, Keywords, Skills, Buildings), current Agendas and the Leader and Moderator
    tokens are kept. QD-264: the Dilemma deck, Story cards and unlocked Chronicle deck are
    saved; Sliders, Outcome markers (the Round Counter) and Hegemony tokens are reset."""
    table, after = played_campaign_game(setting(BOX.envelopes["00"].dilemmas), seed=14)
    state = table.state
    assert state.finished and state.power_pool == 0 and all(p.power == 0 for p in state.councilors)
    assert any(v for v in state.board.tokens.values()) and state.round_counter
    c = state.campaign
    assert after["deck"] == c.deck and after["stories"] == c.stories
    assert after["chronicle_deck"] == msgspec.to_builtins(c.chronicle_deck)
    assert after["events"] == msgspec.to_builtins(c.events) and after["opened"] == c.opened
    assert (after["leader"], after["moderator"]) == (state.leader, state.moderator)
    for p in state.councilors:
        d = diary(after, p.seat)
        assert d["resources"] == p.resources
        assert (d["hegemony"], d["independence"], d["infamy"]) == (p.hegemony, p.independence, p.infamy)
        assert "power" not in d and d["bonus_power"] == 0
    t2 = start(after, seed=15)
    log = drive(t2, stop=lambda t: any(p.kind == "investment" for p in t.state.prompts))
    s2 = t2.state
    assert s2.game_number == 2 and (s2.leader, s2.moderator) == (state.leader, state.moderator)
    assert s2.board.sliders == {"tradition": 0, "force": 0, "order": 0} and not any(s2.board.tokens.values())
    assert s2.round_counter == [] and s2.power_pool == 3
    blue = BOX.timeline[1].colour
    income = {e["seat"]: e for e in of(log, "income")}
    for p in s2.councilors:
        d = diary(after, p.seat)
        assert income[p.seat]["power"] == 7
        assert msgspec.to_builtins(s2.campaign.diaries[p.seat]) == d  # the whole Diary, Agendas included
        assert (p.hegemony, p.independence, p.infamy) == (d["hegemony"], d["independence"], d["infamy"])
        expected = {r: n + 1 for r, n in d["resources"].items()}
        for r in d["regions"]:
            if BOX.regions[r].colour == blue and len(BOX.regions[r].produces) == 1:
                expected[BOX.regions[r].produces[0]] += BOX.regions[r].n
        for b in d["buildings"]:
            if BOX.buildings[b].colour == blue and len(BOX.buildings[b].produces) == 1:
                expected[BOX.buildings[b].produces[0]] += BOX.buildings[b].n
        assert income[p.seat]["resources"] == expected


# -- Triggering the End of the Campaign and the Grand Finale -------------------------------
ALL_SAND = ["D2B2", "D3B3", "D4A1", "D4B3", "D5A1", "D5A2", "D5B2", "D5B3", "D6A2", "DM11", "DAOD1"]
ENDINGS = {"2": ["END01", "END05", "END07", "END11", "END13", "END17", "END21"],
           "1": ["END03", "END04", "END08", "END10", "END15", "END18", "END19"],
           "0": ["END02", "END06", "END09", "END12", "END14", "END16", "END20"]}


def ended(scales: str = "2", count: int = 7) -> dict:
    return {str(BOX.endings[e].storyline): e for e in ENDINGS[scales][:count]}


@pytest.mark.parametrize("deck_size, endings, triggered", [(10, 7, True), (10, 6, False), (11, 7, False)])
def test_the_campaign_end_needs_seven_endings_and_at_most_three_dilemmas_left(deck_size, endings, triggered):
    """Every card here has a sand timer on both sides: the game ends when the 7th is placed.
    QD-265, QD-266: with all 7 Ending stickers attached and 3 cards left, the campaign end is
    triggered after the game and the 3 remaining Dilemmas are Trashed at once. QD-269: with
    only 6 Endings, or with 4 cards left, the campaign goes on to a normal game.
    QD-361: 7 shared Storylines, one attached Ending each."""
    assert {e.storyline for e in BOX.endings.values()} == set(range(1, 8)) and BOX.board.storylines == 7
    camp = setting(ALL_SAND[:deck_size])
    camp["endings"] = ended(count=endings)
    t = start(camp, seed=16)
    drive(t)
    assert len(t.state.round_counter) == 7
    left = [d for d in ALL_SAND[:deck_size] if d not in {x for x, _ in t.state.round_counter}]
    after = saved(t)
    assert after["finale_next"] is triggered
    if triggered:
        assert after["deck"] == [] and set(left) <= set(after["trashed"]) and len(left) == 3
    else:
        assert sorted(after["deck"]) == sorted(left)
        t2 = start(after, seed=17)
        assert not t2.state.finale and "M07" not in t2.state.campaign.opened


def finale_campaign(scales: str = "2") -> dict:
    camp = setting()
    camp["endings"] = ended(scales)
    camp["finale_next"] = True
    camp["games_played"] = 9
    for seat, (heg, ind, inf) in enumerate([(30, 10, 0), (20, 25, 4), (26, 14, 6), (12, 30, 11)]):
        d = diary(camp, seat)
        d["hegemony"], d["independence"], d["infamy"] = heg, ind, inf
    return camp


def test_the_game_after_the_trigger_is_the_grand_finale_opening_m07_and_m08():
    """QD-267: the next game is the Grand Finale: Mystery boxes M07 and M08 are opened, their
    Dilemmas form the deck and M08's box is resolved for every player (+2 Power, +2 Gold)."""
    camp = finale_campaign()
    t = start(camp, seed=18)
    types = [e.type for e in t.events]
    assert "grand_finale" in types and t.state.finale
    assert [e.data["code"] for e in t.events if e.type == "mystery"] == ["M07", "M08"]
    assert sorted(t.state.campaign.deck) == ["DF1", "DF2", "DF3", "DF4", "DF5", "DF6"]
    assert gains(t.events, "M08") == {s: {"power": 2, "gold": 2} for s in range(4)}


@pytest.mark.parametrize("scales, stable", [("2", True), ("1", True), ("0", False)])
def test_grand_finale_scores_weigh_hegemony_or_independence_by_kingdom_stability(scales, stable):
    """QD-268, ruling QD-R4: at the end of the Grand Finale each player scores from their
    Hegemony, Independence and last full Infamy tier; the highest total wins and the
    campaign is over. QD-270, QD-358: stability is the number of Scale icons on the 7
    Endings: 14 (all 2-Scale, positive) or 7 (all 1-Scale, mixed: half the maximum) is
    stable, 2 x Hegemony + Independence; 0 (all 0-Scale, negative) is unstable, Hegemony +
    2 x Independence; minus 5 per Infamy tier."""
    t = start(finale_campaign(scales), seed=19)
    drive(t)
    after = saved(t)
    assert after["finale_played"] and not after["finale_next"]
    total_scales = sum(BOX.endings[e].scales for e in after["endings"].values())
    assert total_scales == {"2": 14, "1": 7, "0": 0}[scales]
    rows = after["final"]
    for row in rows:
        d = diary(after, row["seat"])
        heg, ind = d["hegemony"], d["independence"]
        weighted = 2 * heg + ind if stable else heg + 2 * ind
        assert row["stable"] is stable and row["total"] == weighted - 5 * infamy_tier(d["infamy"])
    best = max(r["total"] for r in rows)
    winner = next(r for r in rows if r["rank"] == 1)
    assert winner["total"] == best and sorted(r["rank"] for r in rows) == [1, 2, 3, 4]
    rules = default_registry().rules_for(GAME_ID, [])
    assert rules.hook.conclave_campaign_over(game=GAME_ID, campaign=after) is True


# -- Points, Power and Resources --------------------------------------------------------------
def test_leader_gains_independence_after_the_vote_resolution_transfer():
    """QD-273 (the rulebook example: the Leader marks 2 Independence) and QD-286: Leader means
    whoever holds the token when the effect resolves: Aesyas led but lost the vote, so the
    token went to the winning side's top investor, Jilian, who gains the 2 Independence."""
    t = start(rich(setting(["D1B3"])), seed=20)
    assert t.state.leader == 0
    log = drive(t, plan={0: ("nay", 3), 1: ("aye", 3), 2: ("aye", 1), 3: "moderator"}, stop=resolved(1))
    assert t.state.votes[-1]["winner"] == "aye" and t.state.leader == 1
    assert gains(log, "D1B3") == {1: {"independence": 2}}


def test_gained_power_comes_from_the_supply():
    """QD-274: Jilian's +1 Power (D005, Nay) comes from the general supply: the Power Pool
    is the same after the effect as after the vote."""
    t = start(rich(setting(["D005"])), seed=21)
    log = drive(t, plan={0: ("nay", 2), 1: ("nay", 1), 2: ("aye", 1), 3: ("aye", 1)}, stop=resolved(1))
    assert t.state.round_counter == [["D005", "nay"]]
    assert gains(log, "D005")[1] == {"power": 1}
    assert t.state.councilors[1].power == 7 - 1 + 1
    assert t.state.power_pool == of(log, "vote_cleanup")[-1]["power_pool"] == 3 + 3


def test_lost_power_goes_to_the_power_pool():
    """QD-275: every player's -1 Power (DAOD4, Nay) goes into the Power Pool, not the supply."""
    t = start(rich(setting(["DAOD4"])), seed=22)
    log = drive(t, plan={0: ("nay", 2), 1: ("nay", 1), 2: ("aye", 1), 3: ("aye", 1)}, stop=resolved(1))
    assert t.state.round_counter == [["DAOD4", "nay"]]
    lost = of(log, "lose", source="DAOD4")
    assert sorted(e["seat"] for e in lost) == [0, 1, 2, 3] and all(e["n"] == 1 for e in lost)
    assert [p.power for p in t.state.councilors] == [7 - 2 - 1, 7 - 1 - 1, 7 - 1, 7 - 1]
    assert t.state.power_pool == of(log, "vote_cleanup")[-1]["power_pool"] + 4


def test_losing_more_power_than_one_has_loses_all_of_it_without_infamy():
    """QD-276 (reading: lose what you have): the Leader put all 7 Power on the winning side;
    D2B1 (Aye) makes the Leader lose 1 Power: nothing is lost, no Infamy is gained, the Pool
    is unchanged."""
    t = start(rich(setting(["D2B1"])), seed=23)
    log = drive(t, plan={0: ("aye", 7), 1: ("nay", 1), 2: ("nay", 1), 3: ("nay", 1)}, stop=resolved(1))
    assert t.state.round_counter == [["D2B1", "aye"]]
    assert t.state.leader == 0 and t.state.councilors[0].power == 0
    assert of(log, "lose", source="D2B1") == [{"seat": 0, "what": "power", "n": 0, "source": "D2B1"}]
    assert t.state.councilors[0].infamy == 0
    assert t.state.power_pool == of(log, "vote_cleanup")[-1]["power_pool"] == 3 + 7


def test_lost_resources_go_back_to_the_supply_not_to_the_power_pool():
    """QD-279: the Leader loses 1 Gold (DAOD3, Aye): it leaves the Treasury and the Pool is
    unchanged (Resources come from and go back to the general supply); the owner of Crann
    gains 1 Materials from the supply. QD-290: Crann is a Main Region of seat 3."""
    camp = rich(setting(["DAOD3"]))
    assert "Crann" in diary(camp, 3)["regions"]
    t = start(camp, seed=24)
    log = drive(t, plan={0: ("aye", 2), 1: ("nay", 1), 2: "moderator", 3: ("aye", 1)}, stop=resolved(1))
    assert t.state.round_counter == [["DAOD3", "aye"]]
    assert of(log, "forced_payment", seat=0) == [
        {"seat": 0, "resource": "gold", "amount": 1, "paid": 1, "gold": 0, "infamy": 0}]
    assert gains(log, "DAOD3") == {3: {"materials": 1}}
    assert t.state.power_pool == of(log, "vote_cleanup")[-1]["power_pool"]


# -- Keywords and Effects ---------------------------------------------------------------------
def test_winners_are_the_voters_of_the_winning_side_and_players_are_everyone():
    """QD-284: DF1 (Aye) gives the Leader 3 and the Winners 1 Hegemony: the Aye voters (seats
    0 and 2) are the Winners; seat 1 passed and seat 3 voted Nay: neither is a Winner.
    QD-288: DF5 (Aye) gives every player 1 Hegemony, the loser and the passer included."""
    t = start(setting(["DF1", "DF5"]), seed=24)
    plan = {0: ("aye", 2), 1: "gather", 2: ("aye", 1), 3: ("nay", 1)}
    log = drive(t, plan=plan, stop=resolved(2))
    assert [side for _, side in t.state.round_counter] == ["aye", "aye"]
    assert [o["winners"] for o in of(log, "outcome")] == [[0, 2], [0, 2]]
    assert gains(log, "DF1") == {0: {"hegemony": 3 + 1}, 2: {"hegemony": 1}}
    assert gains(log, "DF5") == {s: {"hegemony": 1} for s in range(4)}


def test_when_everyone_passes_the_moderator_alone_is_the_winner():
    """QD-285: all players pass; the Moderator (seat 3) chooses Aye and is the only Winner
    (and takes the Leader token): DF1's Winner and Leader effects both go to seat 3."""
    camp = setting(["DF1"])
    t = start(camp, seed=25)
    log = drive(t, plan={s: "gather" for s in range(4)}, stop=resolved(1))
    assert of(log, "outcome")[0]["winners"] == [3] == [camp["moderator"]]
    assert gains(log, "DF1") == {3: {"hegemony": 3 + 1}}


def test_moderator_is_whoever_holds_the_token_when_the_effect_resolves():
    """QD-287: seat 2 passes to Become Moderator during the vote; D012 (Nay) gives the
    Moderator 1 Power: seat 2 gains it, not the Moderator at the start of the vote (seat 3)."""
    t = start(setting(["D012"]), seed=26)
    assert t.state.moderator == 3
    log = drive(t, plan={0: ("nay", 3), 1: ("aye", 1), 2: "moderator", 3: ("aye", 1)},
                stop=resolved(1))
    assert t.state.round_counter == [["D012", "nay"]] and t.state.moderator == 2
    assert gains(log, "D012") == {2: {"power": 1}}


def test_character_and_region_keywords_target_their_owner():
    """QD-289: 'Jilian' targets Jilian's player (seat 1); QD-290: 'Dualak' targets the owner
    of Dualak, a Vassal Region of seat 0 (D005, Nay)."""
    camp = setting(["D005"])
    assert "Dualak" in diary(camp, 0)["vassals"] and diary(camp, 1)["character"] == "Jilian"
    t = start(camp, seed=27)
    log = drive(t, plan={0: ("nay", 3), 1: ("aye", 1), 2: ("aye", 1), 3: "moderator"},
                stop=resolved(1))
    assert t.state.round_counter == [["D005", "nay"]]
    assert gains(log, "D005") == {0: {"gold": 1}, 1: {"power": 1}}


def test_a_narrative_keyword_targets_every_holder_of_its_sticker():
    """QD-291, QD-317: D2A1 (Aye) gives 'Smuggler' 1 Hegemony: only the players with the
    Smuggler Keyword sticker (K01) in their Diary gain it."""
    camp = setting(["D2A1"])
    diary(camp, 2)["keywords"] = ["K01"]
    diary(camp, 3)["keywords"] = ["K01", "K04"]
    diary(camp, 1)["keywords"] = ["K04"]
    camp["unlocked"] += ["K01", "K04"]
    t = start(camp, seed=28)
    log = drive(t, plan={0: ("aye", 2), 1: ("nay", 1)}, stop=resolved(1))
    assert of(log, "box", source="D2A1", target="Smuggler")[0]["seats"] == [2, 3]
    assert {s: g.get("hegemony") for s, g in gains(log, "D2A1").items() if g.get("hegemony")} == {2: 1, 3: 1}


def test_effects_without_a_target_apply_to_the_acting_player():
    """QD-292, QD-347: an Agenda's effects apply to its owner (Syd completes A086 and gains
    its 2 Gold although he is neither Leader nor Moderator); a Pass Action's effects apply to
    the player taking it (C003: +2 Power to seat 2)."""
    camp = setting(["D2A2"])
    camp["chronicle_deck"] = [{"code": "C003", "herald": 0, "marks": 0}]
    camp["unlocked"].append("C003")
    give(camp, 2, army=5)
    t = start(camp, seed=29)
    card = Action("pass", {"action": "card", "source": "C003"})
    log = drive(t, plan={0: ("aye", 1), 2: card},
                pick=lambda t, p: Action("complete", {"agenda": "A086"}) if p.kind == "agenda" and p.seat == 2
                and "A086" in held(t.state, 2) else None,
                stop=waiting(2, "crossroad"))
    assert gains(log, "C003") == {2: {"power": 2}}
    assert t.state.leader != 2 and t.state.moderator != 2
    assert gains(log, "agenda A086") == {2: {"gold": 2}}


def test_effects_resolve_one_at_a_time_in_printed_order():
    """QD-293: C002 (Instant) first makes the richest lose 1 Gold, then gives the poorest 1
    Gold. Seats 0 and 1 have 2 Gold, the others 1: while the first forced payment is open
    nothing else has happened; once both richest have paid, everyone has 1 Gold, so the
    second box (worked out when it resolves) gives all four players 1 Gold. Within a box,
    effects go left to right (D010 Aye: +3 Gold, then +1 Infamy, then the Building)."""
    camp = setting(["D010"])
    camp["chronicle_deck"] = [{"code": "C002", "herald": 1, "marks": 0}]  # the Herald effect: +1 Gold to seat 1
    camp["unlocked"].append("C002")
    t = start(camp, seed=30)
    log = drive(t, pick=lambda t, p: Action("produce", {"resource": "food", "n": 1}) if p.kind == "produce" else None,
                stop=lambda t: any(p.kind == "forced_payment" for p in t.state.prompts))
    assert [p.seat for p in t.state.prompts if p.blocking] == [0]  # one target at a time
    assert [t.state.councilors[s].resources["gold"] for s in range(4)] == [2, 2, 1, 1]
    assert not gains(log, "C002").get(2)
    log = drive(t, plan={0: ("aye", 2)}, log=log, stop=resolved(1))
    assert [e["seat"] for e in of(log, "forced_payment")][:2] == [0, 1]
    assert of(log, "box", source="C002", target="minority")[0]["seats"] == [0, 1, 2, 3]
    d010 = [(e.type, e.data.get("what")) for e in log if e.data.get("source") == "D010" or
            (e.type == "building" and e.data.get("code") == "B04")]
    assert [x for x in d010 if x[0] in ("gain", "building")][:3] == [
        ("gain", "gold"), ("gain", "infamy"), ("building", None)]


def test_effect_vocabulary_gains_and_losses():
    """QD-294: Resource effects are + or - Gold, Materials, Food or Army, Power effects + or -
    Power. QD-295: Hegemony, Independence and Infamy are only ever gained: no content has a
    point loss, and the content check rejects one."""
    effects = []
    for d in BOX.dilemmas.values():
        effects += [e for side in (d.aye, d.nay) for b in side.boxes for e in b.effects]
    for a in BOX.agendas.values():
        effects += a.success + a.failure + a.reward
    for c in BOX.chronicles.values():
        effects += c.herald_effects + [e for b in c.boxes for e in b.effects]
    resources = {"gold", "materials", "food", "army"}
    assert {e.what for e in effects if e.op == "lose"} <= resources | {"power"}
    assert {e.what for e in effects if e.op == "gain"} <= resources | {"power", "hegemony", "independence", "infamy"}
    bad = msgspec.structs.replace(BOX.agendas["A201"], failure=[qd_content.Effect(op="lose", what="hegemony")])
    broken = msgspec.structs.replace(BOX, agendas={**BOX.agendas, "A201": bad})
    with pytest.raises(ContentError, match="lose a Resource or Power"):
        qd_content.check(broken)
    # through the engine: + Food for Coden's owner, - Power for the Leader (D2B1, Aye)
    t = start(rich(setting(["D2B1"])), seed=31)
    log = drive(t, plan={0: ("aye", 2), 1: ("nay", 1)}, stop=resolved(1))
    assert gains(log, "D2B1") == {2: {"food": 1}}
    assert of(log, "lose", source="D2B1") == [{"seat": 0, "what": "power", "n": 1, "source": "D2B1"}]
    assert t.state.councilors[0].power == 7 - 2 - 1


# -- Cheatsheets ---------------------------------------------------------------------------------
def test_setup_lays_out_story_cards_before_setting_up_events():
    """QD-374 (reading: the numbered main text wins over the cheatsheet): the Story cards are
    placed (step 10) before the active Event cards are set up (step 11): E2's setup box (+1
    Power to the Moderator) resolves after the Story stacks are laid out."""
    camp = setting(["D2A2"])
    camp["events"] = [{"id": "E2", "games_left": None, "tokens": 0}]
    t = start(camp, seed=32)
    log = drive(t, stop=lambda t: t.state.phase == "voting")
    types = [(e.type, e.data.get("source")) for e in log]
    stories = types.index(("stories", None))
    event_box = types.index(("box", "event E2"))
    assert stories < event_box < types.index(("deck", None))
    assert gains(log, "event E2") == {camp["moderator"]: {"power": 1}}


def test_ideology_scoring_gives_one_independence_for_each_empty_pile():
    """QD-375 (reading: the main text governs, with its fallback the cheatsheet leaves out):
    nothing was pushed, so every pile is empty: each Favored Ideology and each Balanced pair
    scores 1 Independence instead of Hegemony tokens (the Slider in the centre still gives a
    Balanced pair its 2 Hegemony, and no Favored Ideology is winning)."""
    t = start(setting(), seed=33)
    log = drive(t)
    scored = of(log, "ideology_scored")
    assert len(scored) == 4
    for e in scored:
        card = BOX.ideology_cards[e["card"]]
        assert e["independence"] == len(card.favored) + len(card.balanced)
        assert e["hegemony"] == 2 * len(card.balanced)
    assert any(BOX.ideology_cards[e["card"]].favored for e in scored)


def test_an_agenda_handed_over_by_a_failure_may_be_completed_in_the_same_phase():
    """QD-250: Jilian's A044 (time limit 2) fails in game 2; its Failure leads, through the
    Crossroad A045, to A046, which she can pay at once: it is offered and completed in the
    same Agenda Resolution (and the Agendas she had already declined are not offered again)."""
    camp = campaign()
    camp["deck"] = []
    camp["games_played"] = 1
    camp["diaries"][1]["resources"] = {"gold": 0, "food": 5, "army": 5, "materials": 5}
    t = start(camp, seed=2)
    offered = []

    def pick(t, p):
        if p.kind == "agenda" and p.seat == 1:
            offered.append(sorted(o.params.get("agenda", "") for o in p.options))
            if any(o.params.get("agenda") == "A046" for o in p.options):
                return Action("complete", {"agenda": "A046"})
        return None

    log = drive(t, pick=pick)
    assert of(log, "agenda_failed", seat=1, code="A044")
    assert ["", "A046"] in offered
    assert of(log, "agenda_completed", seat=1, code="A046")
    assert "A046" not in [a.code for a in t.state.campaign.diaries[1].agendas]


def test_power_scoring_at_the_end_of_a_real_game_gives_2_and_1_independence():
    """QD-238, QD-239, QD-240: leftover Power 10, 8, 8, 7 (bonus Power waiting in the Diaries
    adds to the 7 Starting Power; an empty deck ends the game after setup, so nobody spends
    any): the most gets 2 Independence, both players tied second 1 each, the last none; the
    awards land on the Independence track."""
    camp = campaign()
    camp["deck"] = []
    for seat, bonus in enumerate((3, 1, 1, 0)):
        camp["diaries"][seat]["bonus_power"] = bonus
    t = start(camp, seed=1)
    log = drive(t)
    assert of(log, "power_scored") == [{"awards": {"0": 2, "1": 1, "2": 1, "3": 0},
                                        "power": {"0": 10, "1": 8, "2": 8, "3": 7}}]
    for seat in range(4):  # the Independence track: ideology fallbacks + Power awards + any gains
        from_ideology = sum(e["independence"] for e in of(log, "ideology_scored", seat=seat))
        gained = sum(e["n"] for e in of(log, "gain", seat=seat, what="independence"))
        award = {0: 2, 1: 1, 2: 1, 3: 0}[seat]
        assert t.state.campaign.diaries[seat].independence == from_ideology + gained + award
        # QD-229..234 land on the Hegemony track too (not only in the event)
        hegemony = sum(e["hegemony"] for e in of(log, "ideology_scored", seat=seat))
        hegemony += sum(e["n"] for e in of(log, "gain", seat=seat, what="hegemony"))
        assert t.state.campaign.diaries[seat].hegemony == hegemony


def _one_dilemma_game(plan: dict):
    """A game of one Dilemma (D001) voted as `plan` says; returns its power_scored event."""
    camp = campaign()
    camp["deck"] = camp["deck"][:1]
    t = start(camp, seed=1)
    log = drive(t, plan=plan)
    [scored] = of(log, "power_scored")
    return t, scored


def test_power_scoring_zero_power_is_second_most_qd_r6():
    """QD-238, QD-239, QD-240, ruling QD-R6: the Leader spends all 7 Power on the one Dilemma,
    the others gather and keep 10 each: the three tied for the most get 2 Independence, and
    the Leader, with 0 left, is second-most and gets 1 (before QD-R6, 0 Power got nothing)."""
    t, scored = _one_dilemma_game({0: ("aye", 7)})
    assert scored["power"] == {"0": 0, "1": 10, "2": 10, "3": 10}
    assert scored["awards"] == {"0": 1, "1": 2, "2": 2, "3": 2}


def test_power_scoring_ties_at_zero_share_the_second_rank_qd_r6():
    """QD-239, QD-240, ruling QD-R6 (dense ranks): Power left 1, 0, 1, 0: the two with 1 share
    the most (2 each), the two with 0 share the second-most (1 each)."""
    t, scored = _one_dilemma_game({0: ("aye", 7), 1: ("nay", 7), 2: ("aye", 7), 3: ("nay", 7)})
    assert scored["power"] == {"0": 1, "1": 0, "2": 1, "3": 0}
    assert scored["awards"] == {"0": 2, "1": 1, "2": 2, "3": 1}


def test_power_scoring_everyone_at_zero_gets_2_qd_r6():
    """QD-238, QD-240, ruling QD-R6: everyone votes 1 Power at a time until none is left: all
    hold the same Power (0), so everyone gets 2 Independence."""
    t, scored = _one_dilemma_game({seat: ("aye", 1) for seat in range(4)})
    assert scored["power"] == {"0": 0, "1": 0, "2": 0, "3": 0}
    assert scored["awards"] == {"0": 2, "1": 2, "2": 2, "3": 2}


def test_an_event_with_a_game_limit_leaves_after_its_last_game():
    """QD-114, QD-225: an active Event stays set up for the games it lasts (E3: 2 games), is
    resolved in each game's Event Phase, and goes to the Trash after its last game."""
    camp = campaign()
    camp["deck"] = []
    camp["events"] = [{"id": "E3", "games_left": 2, "tokens": 0}]
    t = start(camp, seed=1)
    drive(t)
    after_one = saved(t)
    assert after_one["events"] == [{"id": "E3", "games_left": 1, "tokens": 0}]
    t2 = start(after_one, seed=2)
    log = drive(t2)
    assert t2.state.events_active == ["E3"] and of(log, "box", source="event E3")  # set up and resolved again
    after_two = saved(t2)
    assert after_two["events"] == [] and "E3" in after_two["trashed"]
