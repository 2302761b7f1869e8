"""The Queen's Dilemma: Special Pass Actions and Pass Bonuses from Chronicle cards, Skills and
Event cards (the slot next to a card, Pass Action spaces, stacking, costs, printed
restrictions, Heraldry tokens, the reset after the vote), the rest of the Pass Action cleanup
(Gather Power tokens, an untouched Power Pool) and what a Deal may never move.

Everything is played through the engine: a campaign with the Chronicles, Skills and Events
wanted is started with the harness, and each Voting Phase is played seat by seat.
"""
from __future__ import annotations

import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.queens_dilemma.content import default_box
from tests.queens_dilemma.harness import bot_until, campaign, options, start

BOX = default_box()
RICH = {"gold": 6, "food": 6, "army": 6, "materials": 6}


# -- helpers -----------------------------------------------------------------------------
def camp(chronicles=(), skills=None, events=(), keywords=None, rich=False, deck=None, players=4):
    """A campaign (one-time setup done, seat 0 Leader, seat 3 Moderator) whose next game has
    these Chronicles unlocked (Branded by seat 1), Skills, active Events and Keywords."""
    c = campaign(players=players)
    c["chronicle_deck"] = [{"code": code, "herald": 1, "marks": 0} for code in chronicles]
    for seat, codes in (skills or {}).items():
        c["diaries"][seat]["skills"] = [{"code": code, "used": 0} for code in codes]
    for seat, codes in (keywords or {}).items():
        c["diaries"][seat]["keywords"] = list(codes)
        c["unlocked"] += list(codes)
    c["events"] = [{"id": e, "games_left": None, "tokens": 0} for e in events]
    if rich:
        for d in c["diaries"]:
            d["resources"] = dict(RICH)
    if deck is not None:
        c["deck"] = list(deck)
    return c


def recording(t):
    """Keep every event of the table from now on in `t.log_events` (the harness's bot plays
    through `t.act` too)."""
    t.log_events = list(t.events)
    original = t.act

    def act(seat, action):
        events = original(seat, action)
        t.log_events.extend(events)
        return events

    t.act = act
    return t


def voter(t):
    return next((p.seat for p in t.state.prompts if p.kind == "vote"), None)


def prompt_of(t, kind):
    return next((p for p in t.state.prompts if p.kind == kind), None)


def to_vote(t, seed=0):
    """Play the other decisions (setup, Dilemma Resolution) at random until someone votes."""
    bot_until(t, lambda t: voter(t) is not None, seed=seed)


def begin(c, seed=0, **kw):
    t = recording(start(c, seed=seed, **kw))
    to_vote(t, seed)
    return t


def safe_side(t) -> str:
    """The side of the current Dilemma whose back shows no sand timer (the game goes on)."""
    card = BOX.dilemmas[t.state.dilemma]
    return "nay" if card.aye.sand_timer else "aye"


def card_pass(source):
    return Action("pass", {"action": "card", "source": source})


def sources(t, seat, type_="pass"):
    return {a.params["source"] for a in options(t, seat, type_) if "source" in a.params}


def play_vote(t, plan=None, bonus=None, decide=None, seed=0, on_turn=None):
    """One whole Voting Phase: each seat's first turn follows `plan` (seat -> Action; default
    Gather Power), later turns stay; Pass Bonuses follow `bonus` (seat -> source; default
    none); a tie (or an all-pass vote) is decided for `decide` (default: the side without a
    sand timer); `on_turn(seat)` is called before each first turn. Then the resolution is
    played at random up to the next vote, if any."""
    plan, bonus = plan or {}, bonus or {}
    votes = len(t.state.votes)
    while len(t.state.votes) == votes:
        seat = voter(t)
        if seat is not None:
            if t.state.vote.tiles[seat].side:
                t.act(seat, Action("stay", {}))
            else:
                if on_turn:
                    on_turn(seat)
                t.act(seat, plan.get(seat, Action("pass", {"action": "gather"})))
            offer = prompt_of(t, "pass_bonus")
            if offer is not None:
                chosen = bonus.get(offer.seat)
                t.act(offer.seat, Action("bonus", {"source": chosen}) if chosen else Action("no_bonus", {}))
        elif (p := prompt_of(t, "break_tie")) is not None:
            t.act(p.seat, Action("decide", {"side": decide or safe_side(t)}))
        elif (p := prompt_of(t, "choose_leader")) is not None:
            t.act(p.seat, p.options[0])
        else:
            raise AssertionError(f"the vote is stuck: {[(p.seat, p.kind) for p in t.state.prompts]}")
    if not t.state.finished:
        bot_until(t, lambda t: voter(t) is not None or t.state.phase in ("end", "cleanup"), seed=seed)


def chronicle(t, code):
    return next(ch for ch in t.state.chronicles if ch.code == code)


def event_record(t, eid):
    return next(r for r in t.state.campaign.events if r.id == eid)


# -- Pass Actions and Pass Bonuses --------------------------------------------------------
def test_a_special_pass_action_from_a_chronicle_skill_or_event_replaces_the_standard_ones():
    """QD-154: Chronicle cards, Skills and Event cards offer extra Pass Actions that a passing
    player may choose instead of Gather Power / Become Moderator; QD-156: a Chronicle's or an
    Event's action puts the player's Heraldry token on the card's slot, then resolves its
    effect; QD-157: the Event's action is then closed to the others for this Voting Phase."""
    c = camp(chronicles=("C003",), skills={0: ["S01"]}, events=("E1",), rich=True)
    t = begin(c)
    assert voter(t) == 0
    assert sources(t, 0) == {"C003", "S01", "E1"}
    assert {a.params["action"] for a in options(t, 0, "pass")} == {"gather", "moderator", "card"}
    power, moderator = t.state.councilors[0].power, t.state.moderator
    t.act(0, card_pass("C003"))  # "gain 2 Power"
    me = t.state.councilors[0]
    assert me.power == power + 2
    assert chronicle(t, "C003").slot_taken_by == 0 and me.heraldry == 5
    tile = t.state.vote.tiles[0]
    assert tile.side == "pass" and tile.pass_action == "card"
    assert t.state.vote.gatherers == [] and t.state.moderator == moderator  # neither standard action
    assert voter(t) == 1 and sources(t, 1) == {"E1"}  # the slot of C003 is taken; S01 is seat 0's

    # an Event's Pass Action works the same way (its token goes on the Event's slot)
    food, independence = t.state.councilors[1].resources["food"], t.state.councilors[1].independence
    t.act(1, card_pass("E1"))  # costs 1 Food, gains 1 Independence
    me = t.state.councilors[1]
    assert (me.resources["food"], me.independence) == (food - 1, independence + 1)
    assert t.state.event_slots == {"E1": 1} and me.heraldry == 5
    assert voter(t) == 2 and "E1" not in sources(t, 2)  # one player per Voting Phase


def test_one_pass_action_and_at_most_one_pass_bonus():
    """QD-150: a passing player performs exactly one Pass Action (a pass without one is
    refused) and then may take at most one Pass Bonus; QD-155: the Pass Bonuses offered come
    from Chronicle cards, Skills and Event cards, and only Pass Bonuses are offered then."""
    c = camp(chronicles=("C003", "C004", "C006", "C007"), skills={0: ["S01", "S04"]}, events=("E1", "E2"),
             rich=True)
    t = begin(c)
    with pytest.raises(BadParameter):  # passing always names its Pass Action
        t.act(0, Action("pass", {}))
    t.act(0, Action("pass", {"action": "gather"}))
    offer = prompt_of(t, "pass_bonus")
    assert offer.seat == 0 and voter(t) is None  # the bonus comes before the next turn
    assert {o.params.get("source") for o in offer.options} == {"C006", "C007", "S04", "E2", None}
    assert {o.type for o in offer.options} == {"bonus", "no_bonus"}
    materials = t.state.councilors[0].resources["materials"]
    t.act(0, Action("bonus", {"source": "C006"}))  # "gain 1 Materials"
    assert t.state.councilors[0].resources["materials"] == materials + 1
    assert prompt_of(t, "pass_bonus") is None and voter(t) == 1  # one bonus only
    # declining is allowed too
    t.act(1, Action("pass", {"action": "gather"}))
    t.act(1, Action("no_bonus", {}))
    assert voter(t) == 2 and t.state.vote.gatherers == [0, 1]


def test_no_pass_bonus_without_a_chronicle_event_or_skill_offering_one():
    """QD-155: without any source of Pass Bonuses, passing goes straight to the next turn;
    a Skill's Pass Bonus is offered only to its owner."""
    t = begin(camp())
    t.act(0, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus") is None and voter(t) == 1

    t = begin(camp(skills={2: ["S04"]}))
    t.act(0, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus") is None and voter(t) == 1
    t.act(1, Action("pass", {"action": "moderator"}))
    assert prompt_of(t, "pass_bonus") is None
    t.act(2, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus").seat == 2


def test_each_card_action_is_used_by_one_player_per_voting_phase():
    """QD-157, QD-158: once a Heraldry token sits on a card's slot, nobody else may use that
    card's action (Pass Action or Pass Bonus) in the same Voting Phase."""
    c = camp(chronicles=("C003", "C006"), rich=True)
    t = begin(c)
    t.act(0, card_pass("C003"))
    t.act(0, Action("bonus", {"source": "C006"}))
    assert chronicle(t, "C006").slot_taken_by == 0
    assert "C003" not in sources(t, 1)
    with pytest.raises(BadParameter):
        t.act(1, card_pass("C003"))
    t.act(1, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus") is None  # C006's slot is taken as well
    assert voter(t) == 2


def test_a_card_action_with_a_cost_is_offered_only_to_who_can_pay_it_in_full():
    """QD-160: a card action's cost is paid in full when taken (Mercenary Quarter C004: 1 Gold
    for 2 Army); a player who starts the turn unable to pay is not offered it; 2 Gold may
    stand in for a missing Food (The Free Pamphleteers C007), and a player with neither is not
    offered it."""
    t = begin(camp(chronicles=("C004", "C007")))
    before = dict(t.state.councilors[0].resources)
    assert before["gold"] >= 1 and "C004" in sources(t, 0)
    t.act(0, card_pass("C004"))
    after = t.state.councilors[0].resources
    assert after["gold"] == before["gold"] - 1 and after["army"] == before["army"] + 2

    # seat 1 gives all its Gold away (a deal's payment) before its turn: no C004 for it
    t = begin(camp(chronicles=("C004",)))
    gold = t.state.councilors[1].resources["gold"]
    t.act(1, Action("pay", {"to": 2, "resource": "gold", "n": gold, "reason": "vote Aye"}))
    t.act(0, Action("pass", {"action": "gather"}))
    assert voter(t) == 1 and "C004" not in sources(t, 1)
    with pytest.raises(BadParameter):
        t.act(1, card_pass("C004"))

    # no Food but 2 Gold: the 1-Food bonus is open and takes both Gold
    t = begin(camp(chronicles=("C007",)))
    me = t.state.councilors[0]
    t.act(0, Action("pay", {"to": 1, "resource": "food", "n": me.resources["food"], "reason": ""}))
    if t.state.councilors[0].resources["gold"] < 2:
        t.act(1, Action("pay", {"to": 0, "resource": "gold", "n": 2 - t.state.councilors[0].resources["gold"],
                                "reason": ""}))
    gold = t.state.councilors[0].resources["gold"]
    t.act(0, Action("pass", {"action": "gather"}))
    assert {o.params.get("source") for o in prompt_of(t, "pass_bonus").options} == {"C007", None}
    independence = t.state.councilors[0].independence
    t.act(0, Action("bonus", {"source": "C007"}))
    me = t.state.councilors[0]
    assert (me.resources["gold"], me.resources["food"], me.independence) == (gold - 2, 0, independence + 1)

    # neither Food nor Gold: not offered
    t = begin(camp(chronicles=("C007",)))
    mine = t.state.councilors[1].resources
    for r in ("gold", "food"):
        if mine[r]:
            t.act(1, Action("pay", {"to": 3, "resource": r, "n": mine[r], "reason": ""}))
    t.act(0, Action("pass", {"action": "gather"}))
    t.act(0, Action("no_bonus", {}))
    t.act(1, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus") is None and voter(t) == 2


def test_a_card_action_stays_closed_to_a_player_who_spent_the_means_to_pay_during_the_turn():
    """QD-160: a player who gives the Resources away during their own turn (a deal's payment)
    can no longer take the card action or the Pass Bonus those Resources would have paid for;
    the refusal leaves the state unchanged."""
    t = begin(camp(chronicles=("C004", "C007")))
    t.act(0, Action("pass", {"action": "gather"}))
    t.act(0, Action("no_bonus", {}))
    assert voter(t) == 1 and "C004" in sources(t, 1)
    gold = t.state.councilors[1].resources["gold"]
    t.act(1, Action("pay", {"to": 2, "resource": "gold", "n": gold, "reason": ""}))
    assert "C004" not in sources(t, 1)
    army = t.state.councilors[1].resources["army"]
    with pytest.raises(ActionRejected):
        t.act(1, card_pass("C004"))
    assert t.state.councilors[1].resources["army"] == army and chronicle(t, "C004").slot_taken_by is None

    # the same for a Pass Bonus whose offer is already open
    t.act(1, Action("pass", {"action": "gather"}))
    offer = prompt_of(t, "pass_bonus")
    assert offer.seat == 1 and Action("bonus", {"source": "C007"}) in offer.options
    food = t.state.councilors[1].resources["food"]
    t.act(1, Action("pay", {"to": 2, "resource": "food", "n": food, "reason": ""}))
    independence = t.state.councilors[1].independence
    with pytest.raises(ActionRejected):
        t.act(1, Action("bonus", {"source": "C007"}))
    assert t.state.councilors[1].independence == independence and chronicle(t, "C007").slot_taken_by is None
    if prompt_of(t, "pass_bonus") is not None:  # (the engine may also withdraw the offer at once)
        t.act(1, Action("no_bonus", {}))
    assert voter(t) == 2


def test_a_printed_restriction_limits_who_may_take_the_action():
    """QD-161: Night Barges (C005) may only be used by a holder of the Smuggler Keyword."""
    c = camp(chronicles=("C005",), keywords={2: ["K01"]})
    t = begin(c)
    assert "C005" not in sources(t, 0)
    with pytest.raises(BadParameter):
        t.act(0, card_pass("C005"))
    t.act(0, Action("pass", {"action": "gather"}))
    t.act(1, Action("pass", {"action": "gather"}))
    assert sources(t, 2) == {"C005"}
    gold = t.state.councilors[2].resources["gold"]
    t.act(2, card_pass("C005"))
    assert t.state.councilors[2].resources["gold"] == gold + 2


# -- after the vote: Reset Special Actions ------------------------------------------------
def test_tokens_move_to_pass_action_spaces_until_the_card_is_full():
    """QD-191: after the vote the token on a card's slot goes onto its Pass Action spaces and
    the action is open again next Voting Phase; QD-192: once every space is filled the action
    is gone for the rest of the game; QD-159: a full card's action is refused."""
    c = camp(chronicles=("C003",), rich=True)  # C003: 2 Pass Action spaces
    t = begin(c)
    play_vote(t, plan={0: card_pass("C003")})
    ch = chronicle(t, "C003")
    assert ch.slot_taken_by is None and ch.tokens == 1
    assert t.state.councilors[0].heraldry == 5  # the token stays on the card
    first = voter(t)
    assert "C003" in sources(t, first)  # available again
    play_vote(t, plan={first: card_pass("C003")})
    assert chronicle(t, "C003").tokens == 2
    assert t.state.councilors[first].heraldry == 5 - (first == 0)
    # both spaces are filled: nobody may use it any more this game
    seen = []

    def closed(seat):
        seen.append(seat)
        assert "C003" not in sources(t, seat)
        with pytest.raises(BadParameter):
            t.act(seat, card_pass("C003"))

    play_vote(t, on_turn=closed)
    play_vote(t, on_turn=closed)
    assert len(seen) == 8 and chronicle(t, "C003").tokens == 2


def test_a_stacking_card_never_runs_out_and_a_card_without_spaces_returns_the_token():
    """QD-193: Guild Scaffolds (C006, the stacking icon on its single space) takes any number of
    tokens; QD-195 and QD-159: The Free Pamphleteers (C007) has no Pass Action spaces: its
    action has no use limit and the player takes the token back after the vote."""
    c = camp(chronicles=("C006", "C007"), rich=True)
    t = begin(c)
    for n in range(1, 4):
        seat = voter(t)
        heraldry = t.state.councilors[seat].heraldry
        play_vote(t, plan={seat: Action("pass", {"action": "gather"})}, bonus={seat: "C006"})
        play_vote(t, plan={}, bonus={voter(t): "C007"})
        assert chronicle(t, "C006").tokens == n
        assert chronicle(t, "C007").tokens == 0 and chronicle(t, "C007").slot_taken_by is None
        assert t.state.councilors[seat].heraldry == heraldry - 1
    assert chronicle(t, "C006").tokens == 3 > BOX.chronicles["C006"].action.spaces
    assert len([e for e in t.log_events if e.type == "card_action" and e.data["source"] == "C007"]) == 3
    seat = voter(t)
    t.act(seat, Action("pass", {"action": "gather"}))
    assert {"C006", "C007"} <= {o.params.get("source") for o in prompt_of(t, "pass_bonus").options}


def test_event_tokens_follow_the_events_rules():
    """QD-194: after an Event card action the Heraldry token is handled as the Event says: The
    Clan Moot (E1) keeps it on its 2 Pass Action spaces (then it is full, QD-159), The Red
    Comet (E2) has no spaces and gives it back (QD-195)."""
    c = camp(events=("E1", "E2"), rich=True)
    t = begin(c)
    assert voter(t) == 0
    play_vote(t, plan={0: card_pass("E1")}, bonus={0: "E2"})
    assert event_record(t, "E1").tokens == 1 and event_record(t, "E2").tokens == 0
    assert t.state.event_slots == {}
    assert t.state.councilors[0].heraldry == 5  # E1 kept one, E2 gave one back
    seat = voter(t)
    assert "E1" in sources(t, seat)
    play_vote(t, plan={seat: card_pass("E1")})
    assert event_record(t, "E1").tokens == 2
    seat = voter(t)
    assert "E1" not in sources(t, seat)  # both spaces hold a token
    t.act(seat, Action("pass", {"action": "gather"}))
    assert {o.params.get("source") for o in prompt_of(t, "pass_bonus").options} == {"E2", None}


def test_no_card_action_without_a_free_heraldry_token():
    """QD-196: each player has 6 Heraldry tokens; once all sit on Pass Action spaces, that
    player can take no more card actions, though the cards still have room for others."""
    c = camp(chronicles=("C003", "C004", "C006"), skills={0: ["S01"]}, rich=True)
    t = begin(c)
    for action in ("C003", "C003", "C004"):
        play_vote(t, plan={0: card_pass(action)}, bonus={0: "C006"})
    assert t.state.councilors[0].heraldry == 0
    assert [chronicle(t, x).tokens for x in ("C003", "C004", "C006")] == [2, 1, 3]
    while voter(t) != 0:
        seat = voter(t)
        assert {"C004"} <= sources(t, seat)  # room left on C004 for others
        t.act(seat, Action("pass", {"action": "gather"}))
        t.act(seat, Action("no_bonus", {}))
    assert sources(t, 0) == {"S01"}  # a Skill needs no token; no Chronicle action is open
    with pytest.raises(BadParameter):
        t.act(0, card_pass("C004"))
    t.act(0, Action("pass", {"action": "gather"}))
    assert prompt_of(t, "pass_bonus") is None  # C006 stacks, but seat 0 has no token for it


# -- Pass Action cleanup: Gather Power --------------------------------------------------
def test_gather_power_tokens_come_back_and_without_gatherers_the_pool_is_untouched():
    """QD-189: the Heraldry token put on Aontas to Gather Power comes back after the
    distribution (the player still has all 6); if nobody Gathers Power the Power Pool is not
    shared out (only the winners' Power is added)."""
    t = begin(camp())
    pool = t.state.power_pool
    play_vote(t, plan={0: Action("vote", {"side": "aye", "power": 2}), 1: Action("pass", {"action": "moderator"}),
                       2: Action("vote", {"side": "nay", "power": 1}), 3: Action("vote", {"side": "aye", "power": 1})})
    last = t.state.votes[-1]
    assert last["winner"] == "aye"
    assert not [e for e in t.log_events if e.type == "power_distribution"]
    assert t.state.votes[-1]["tiles"][1]["pass_action"] == "moderator"
    cleanup = [e.data for e in t.log_events if e.type == "vote_cleanup"][-1]
    assert cleanup["power_pool"] == pool + 2 + 1  # untouched, plus the winners' 3 Power

    # next vote everyone Gathers Power: they share the Pool and keep every Heraldry token
    pool = t.state.power_pool
    assert pool >= 4
    play_vote(t)
    shared = [e.data for e in t.log_events if e.type == "power_distribution"][-1]
    assert sorted(shared["gatherers"]) == [0, 1, 2, 3]
    assert (shared["each"], shared["left"]) == (pool // 4, pool % 4)
    assert [p.heraldry for p in t.state.councilors] == [6, 6, 6, 6]


# -- Bargaining ------------------------------------------------------------------------
def test_the_leader_and_moderator_tokens_are_never_part_of_a_deal():
    """QD-166: a Deal's payment moves only Gold, Food, Army or Materials: no action hands over
    the Leader or the Moderator token, and payments leave both where they were."""
    t = begin(camp())
    leader, moderator = t.state.leader, t.state.moderator
    pays = [a for seat in range(4) for a in options(t, seat, "pay")]
    assert pays and {a.params["resource"] for a in pays} <= {"gold", "food", "army", "materials"}
    kinds = {a.type for seat in range(4) for a in t.legal(seat)}
    assert kinds == {"pay", "vote", "pass"}  # nothing gives a token away
    for token in ("leader", "moderator"):
        with pytest.raises(BadParameter):
            t.act(leader, Action("pay", {"to": 1, "resource": token, "n": 1, "reason": "the token for Gold"}))
    with pytest.raises(IllegalAction):
        t.act(leader, Action("give_token", {"to": 1, "token": "leader"}))
    t.act(1, Action("pay", {"to": leader, "resource": "food", "n": 1, "reason": "make me Leader"}))
    assert (t.state.leader, t.state.moderator) == (leader, moderator)
