"""The Queen's Dilemma: absences (the "absent" option of a game, the Diary's `missed`
count and the return), defections (the "defected" option, Diary.defected) and the fixed
player count, played through the engine. Helpers are those of test_game_setup."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.errors import BadOption
from plugins.queens_dilemma import effects
from plugins.queens_dilemma.content import Box, Dilemma, Effect, Outcome, Push, TARGET_KINDS, default_box
from tests.queens_dilemma.harness import campaign, start
from tests.queens_dilemma.test_game_setup import drive, kinds, saved, voting_started

BOX = default_box()
# campaign(4): seat 0 Aesyas (Allwed, Natar; Vassal Dualak), seat 1 Jilian (Blodyn, Olwyn;
# Tork), seat 2 Syd (Coden, Solad; Gamam), seat 3 Xanthe (Crann, Tiryll; Wylio).
SYD = 2


def diary_points(d: dict) -> tuple:
    return (dict(d["resources"]), d["hegemony"], d["independence"], d["infamy"])


def group_targets(log) -> list[tuple[str, list[int]]]:
    """(source, seats) of every Box that targets a group or a token holder, not a Keyword."""
    out = []
    for e in log:
        if e.type == "box":
            target = e.data.get("target", e.data.get("to"))
            if target in TARGET_KINDS:
                out.append((e.data["source"], e.data["seats"]))
    return out


def test_the_setup_counts_only_the_players_present():
    """QD-116: with seat 1 away, a 4-player campaign sets up as a 3-player game: 5 Investment
    cards for 3 drafters (2 left over); the absent seat draws no Ideology card, has no income
    and no draft turn. A 6-player campaign with one away uses 6 cards, not 7."""
    table = start(campaign(4), seed=1, options={"absent": [1]})
    log = list(table.events)
    prompts: list = []
    drive(table, kinds("investment"), log, prompts=prompts)
    first = next(p for p in table.state.prompts if p.kind == "investment")
    assert len(first.options) == 5
    drive(table, voting_started, log, prompts=prompts)
    assert len(table.state.investments_left) == 2
    away = table.state.councilors[1]
    assert (away.ideology_card, away.investment, away.power) == ("", "", 0)
    assert sorted(e.data["seat"] for e in log if e.type == "income") == [0, 2, 3]
    assert sorted(e.data["seat"] for e in log if e.type == "drafted") == [0, 2, 3]
    assert not [k for s, k in prompts if s == 1]

    six = start(campaign(6), seed=1, options={"absent": [4]})
    drive(six, kinds("investment"), [])
    assert len(next(p for p in six.state.prompts if p.kind == "investment").options) == 6
    drive(six, voting_started, [])
    assert len(six.state.investments_left) == 1 and six.state.councilors[4].investment == ""


def test_an_absent_player_gains_and_loses_nothing_and_is_never_a_target():
    """QD-117: over a whole game with Instant Chronicles (everyone gains Food, the majority
    of Gold loses some, the minority gains) and Events (the Moderator gains Power, everyone
    loses Food), Syd, away, keeps exactly his Resources, Hegemony, Independence and Infamy.
    QD-118: no group or token effect ever targets him (players, majority, minority, winners,
    Leader, Moderator), nor is he asked anything, not even a deal's payment."""
    camp = campaign(4, leader=0, moderator=3)
    camp["diaries"][SYD].update(resources={"gold": 6, "food": 0, "army": 2, "materials": 1}, hegemony=4,
                                independence=3, infamy=2)
    camp["chronicle_deck"] = [{"code": "C001", "herald": SYD, "marks": 0}, {"code": "C002", "herald": 0, "marks": 0}]
    camp["events"] = [{"id": "E2"}, {"id": "E3", "games_left": 2}]
    before = diary_points(camp["diaries"][SYD])
    table = start(camp, seed=2, options={"absent": [SYD]})
    log = list(table.events)
    prompts: list = []
    drive(table, lambda t: False, log, prompts=prompts)
    assert table.state.finished and len(table.state.round_counter) >= 7
    assert diary_points(saved(table)["diaries"][SYD]) == before
    targeted = group_targets(log)
    assert {"C001", "C002", "event E2", "event E3"} <= {src for src, seats in targeted if seats}
    assert all(SYD not in seats for _, seats in targeted)
    assert all(v["tiles"][SYD]["side"] == "pass" and v["tiles"][SYD]["power"] == 0 for v in table.state.votes)
    assert SYD not in {e.data.get("seat") for e in log if e.type in ("gain", "lose", "forced_payment", "leader")}
    assert not [k for s, k in prompts if s == SYD]


@pytest.mark.parametrize("players, away", [(5, [1, 2]), (4, [0])])
def test_an_absent_token_holder_passes_the_token_to_a_random_present_player(players, away):
    """QD-119: the Leader (seat 1 or 0) and Moderator (seat 2) tokens of absent players go to
    a present player, chosen at random (not always the same one across seeds); a present
    holder keeps hers."""
    camp = campaign(players, leader=away[0], moderator=2)
    here = [s for s in range(players) if s not in away]
    holders = set()
    for seed in range(12):
        table = start(camp, seed=seed, options={"absent": away})
        s = table.state
        assert s.leader in here and s.moderator in here
        if 2 not in away:
            assert s.moderator == 2
        holders.add(s.leader)
        setup = next(e.data for e in table.events if e.type == "game_setup")
        assert (setup["leader"], setup["moderator"]) == (s.leader, s.moderator)
    assert len(holders) > 1


def test_an_absent_players_keyword_resolves_only_its_legacy_effects():
    """QD-120: Syd is away: "Solad: gain 1 Gold" (D5A3 Nay) and "Syd: gain 1 Materials" (D303
    Nay) name him, and are skipped. QD-125: his Legacy unlocks still apply to him: "Coden:
    Keyword K01" (D202 Aye) attaches the Keyword sticker to Syd's Diary, and "Solad:
    Building B04" (D010 Aye) puts the Building sticker in his Region Solad."""
    camp = campaign(4)
    camp["deck"] = ["D5A3", "D303"]
    table = start(camp, seed=3, options={"absent": [SYD]})
    log = list(table.events)
    drive(table, lambda t: False, log, sides={"D5A3": "nay", "D303": "nay"})
    named = [e.data for e in log if e.type == "box" and e.data["source"] in ("D5A3", "D303")
             and e.data["seats"] == [SYD]]
    assert len(named) == 2
    assert not [e for e in log if e.type in ("gain", "lose") and e.data["seat"] == SYD]
    assert diary_points(saved(table)["diaries"][SYD]) == diary_points(camp["diaries"][SYD])

    camp["deck"] = ["D010", "D202"]
    table = start(camp, seed=3, options={"absent": [SYD]})
    log = list(table.events)
    prompts: list = []
    drive(table, lambda t: False, log, sides={"D010": "aye", "D202": "aye"}, prompts=prompts)
    assert {d for d, _ in table.state.round_counter} >= {"D010", "D202"}
    diary = table.state.campaign.diaries[SYD]
    assert diary.buildings == {"B04": "Solad"} and diary.keywords == ["K01"]
    assert {"B04", "K01"} <= set(table.state.campaign.unlocked)
    assert not [e for e in log if e.type in ("gain", "lose") and e.data["seat"] == SYD]
    assert not [k for s, k in prompts if s == SYD]


def legacy_dilemma() -> Dilemma:
    """A test card (no Character-Keyword box of the demo box unlocks these): Syd's Keyword
    unlocks a Chronicle to Brand, a Skill, an Agenda and a Building with no fixed place, and
    gives and takes Resources."""
    return Dilemma(
        id="DT1", title="The Feral's Due", text="Syd is owed a favour.", keywords=["Syd"],
        aye=Outcome(pushes=[Push("order", 1)], legacy="positive", text="The favour is paid.",
                    boxes=[Box(to="Syd", effects=[Effect(op="chronicle", code="C003"), Effect(op="skill", code="S01"),
                                                  Effect(op="agenda", code="A201"), Effect(op="building", code="B01"),
                                                  Effect(op="gain", what="gold", n=2),
                                                  Effect(op="lose", what="army", n=1)])]),
        nay=Outcome(pushes=[Push("liberty", 1)], legacy="", text="The favour is refused."))


def test_legacy_unlocks_through_an_absent_players_keyword_are_still_theirs(monkeypatch):
    """QD-121: a Chronicle unlocked through the absent Syd's Keyword is Branded with his
    Heraldry. QD-122: a Skill sticker goes to his Diary. QD-123: an Agenda card goes to his
    Treasury. QD-124: a Building sticker goes in one of his Regions, chosen by the Leader
    (who is asked, with Syd's Regions as the choices). The same box's Resource gain and loss
    are skipped."""
    real = default_box()
    card = legacy_dilemma()
    monkeypatch.setattr(effects, "default_box",
                        lambda: msgspec.structs.replace(real, dilemmas={**real.dilemmas, card.id: card}))
    camp = campaign(4)
    camp["deck"] = [card.id]
    table = start(camp, seed=4, options={"absent": [SYD]})
    log = list(table.events)
    prompts: list = []
    asked = []

    def leader_builds_in_gamam(t, p):
        if p.kind == "build":
            asked.append((p.seat, t.state.leader, sorted(o.params["region"] for o in p.options)))
            return next(o for o in p.options if o.params["region"] == "Gamam")
        return None

    drive(table, lambda t: False, log, sides={card.id: "aye"}, pick=leader_builds_in_gamam, prompts=prompts)
    assert len(asked) == 1
    seat, leader, regions = asked[0]
    assert seat == leader != SYD and regions == ["Coden", "Gamam", "Solad"]
    c = table.state.campaign
    assert [(r.code, r.herald) for r in c.chronicle_deck] == [("C003", SYD)]
    diary = c.diaries[SYD]
    assert [s.code for s in diary.skills] == ["S01"]
    assert "A201" in [a.code for a in diary.agendas] and "A201" in c.unlocked
    assert diary.buildings == {"B01": "Gamam"}
    assert diary.resources == camp["diaries"][SYD]["resources"]
    assert not [k for s, k in prompts if s == SYD]


def play_whole_game(camp: dict, seed: int, **options) -> tuple:
    table = start(camp, seed=seed, options=options or None)
    log = list(table.events)
    drive(table, lambda t: False, log)
    return table, log


def test_a_returning_player_gains_3_independence_per_game_missed_and_fails_overdue_agendas():
    """QD-126: Syd misses games 1 and 2 (his Diary counts them) and returns for game 3 with
    6 more Independence. QD-127: before game 3 starts, his Agenda due in game 1 (never
    checked while he was away) fails at once, with its Failure effects (1 Infamy and the
    Crossroad card A087 to resolve); his Agenda due in game 4 does not."""
    camp = campaign(4)
    camp["diaries"][SYD]["agendas"] = [{"code": "A086", "deadline": 1}, {"code": "A202", "deadline": 4}]
    camp["unlocked"].append("A202")
    start_points = diary_points(camp["diaries"][SYD])
    table, _ = play_whole_game(camp, seed=5, absent=[SYD])
    after1 = saved(table)
    assert after1["diaries"][SYD]["missed"] == 1
    assert [a["code"] for a in after1["diaries"][SYD]["agendas"]] == ["A086", "A202"]
    table, _ = play_whole_game(after1, seed=6, absent=[SYD])
    after2 = saved(table)
    assert after2["diaries"][SYD]["missed"] == 2
    assert diary_points(after2["diaries"][SYD]) == start_points

    table = start(after2, seed=7)
    log = list(table.events)
    drive(table, voting_started, log)
    types = [e.type for e in log]
    returned = next(e.data for e in log if e.type == "returned")
    assert returned["seat"] == SYD and returned["missed"] == 2 and returned["independence"] == 6
    failed = [e.data for e in log if e.type == "agenda_failed"]
    assert failed == [{"seat": SYD, "code": "A086"}]
    assert types.index("returned") < types.index("agenda_failed") < types.index("ideology_drawn")
    assert ("crossroad", SYD) in [(e.type, e.data["seat"]) for e in log if e.type == "crossroad"]
    syd = table.state.councilors[SYD]
    assert syd.independence == start_points[2] + 6 and syd.infamy == start_points[3] + 1
    held = [a.code for a in table.state.campaign.diaries[SYD].agendas]
    assert "A086" not in held and "A202" in held
    assert table.state.campaign.diaries[SYD].missed == 0


def test_a_defected_player_leaves_the_setup_for_good():
    """QD-128: Jilian (seat 1) defects: from that game on the campaign sets up for 3 players
    (5 Investment cards, 2 left over; no Ideology card, income or turn for seat 1), and in
    the next game too, without being told again; he is never counted as missing a game."""
    camp = campaign(4)
    table = start(camp, seed=8, options={"defected": [1]})
    log = list(table.events)
    prompts: list = []
    drive(table, voting_started, log, prompts=prompts)
    assert len(table.state.investments_left) == 2 and table.state.councilors[1].investment == ""
    drive(table, lambda t: False, log, prompts=prompts)
    assert not [k for s, k in prompts if s == 1]
    after = saved(table)
    assert after["diaries"][1]["defected"] and after["diaries"][1]["missed"] == 0
    t2 = start(after, seed=9)
    log2 = list(t2.events)
    prompts2: list = []
    drive(t2, voting_started, log2, prompts=prompts2)
    assert len(t2.state.investments_left) == 2 and t2.state.councilors[1].ideology_card == ""
    assert not [k for s, k in prompts2 if s == 1] and not [e for e in log2 if e.type == "returned"]


def test_a_defected_players_keywords_target_the_moderator():
    """QD-129: Jilian (seat 1) has defected: "Jilian: gain 1 Gold" (D6A2, his Character),
    "Smuggler: gain 1 Gold" (D2A3, his Narrative Keyword K01) and "Tork: lose 1 Army"
    (D3A2, his Vassal Region) all target the Moderator instead."""
    camp = campaign(4, leader=0, moderator=3)
    camp["diaries"][1]["keywords"] = ["K01"]
    camp["unlocked"].append("K01")
    camp["deck"] = ["D6A2", "D2A3", "D3A2"]
    table = start(camp, seed=10, options={"defected": [1]})
    log = list(table.events)
    drive(table, lambda t: False, log, sides={"D6A2": "nay", "D2A3": "nay", "D3A2": "nay"})
    moderator = table.state.moderator
    assert moderator == 3
    for source, keyword in (("D6A2", "Jilian"), ("D2A3", "Smuggler"), ("D3A2", "Tork")):
        box = next(e.data for e in log if e.type == "box" and e.data["source"] == source
                   and e.data.get("target", e.data.get("to")) == keyword)
        assert box["seats"] == [moderator], source
    assert sorted((e.data["source"], e.data["what"]) for e in log if e.type == "gain" and e.data["seat"] == moderator
                  and e.data["source"] in ("D6A2", "D2A3")) == [("D2A3", "gold"), ("D6A2", "gold")]
    assert [e.data["seat"] for e in log if e.type == "forced_payment"] == [moderator, moderator]  # Tiryll, Tork
    assert saved(table)["diaries"][1]["resources"] == camp["diaries"][1]["resources"]


def test_the_player_count_never_goes_up():
    """QD-130: a 4-player campaign cannot be played at a table of 5 or 6: the request is
    refused and the campaign is untouched."""
    camp = campaign(4)
    kept = copy.deepcopy(camp)
    for players in (5, 6):
        with pytest.raises(BadOption):
            start(camp, players=players)
    assert camp == kept
    assert start(camp).state.campaign.players == 4
