"""The Queen's Dilemma Voting Phase and Vote Resolution, played through the engine,
including the rulebook's worked examples (the 6-6 vote, the Moderator's deal, the power
distribution)."""
from __future__ import annotations

import pytest

from core import Action, Registry, create_table
from core.errors import BadParameter, IllegalAction, NotYourTurn
from tests.queens_dilemma import council

XANTHE, LYRIE, JILIAN, SYD, ELINOR = range(5)  # clockwise, as seated in the example


@pytest.fixture(scope="module")
def registry():
    return Registry([council], load_entry_points=False)


def table(registry, players=5, **options):
    return create_table("qd-council", players, seed=1, options=options, registry=registry)


def act(t, who, type, **params):
    return t.act(who, Action(type, params))


def test_the_voting_example_ends_6_to_6_after_syds_turn_with_elinor_leading(registry):
    """Voting example: Xanthe leads and passes to Become Moderator; Lyrie (Aye 1) takes the
    Leader token; Jilian Nay 1 and Syd Aye 1 do not; Elinor Nay 4 does; Xanthe is out; Lyrie
    raises 3 (a 5-5 tie, not enough to lead); Jilian raises 1; Syd raises 1 and, being to
    the Leader's right, ends the Voting Phase at 6-6.
    QD-171, QD-172, QD-173, QD-174, QD-175, QD-176, QD-177 (the example step by step);
    QD-139, QD-140 (from the Leader, clockwise, several laps); QD-141 (vote a side with Power);
    QD-145, QD-146, QD-170 (a voter only raises or stays later, never passes or switches);
    QD-147, QD-148 (strictly the most Power takes the Leader token); QD-149 (a passer is out);
    QD-152, QD-153 (Become Moderator, once per Voting Phase); QD-167, QD-168 (the end)."""
    t = table(registry, leader=XANTHE, moderator=LYRIE, power=[7, 7, 7, 2, 7])
    act(t, XANTHE, "pass", action="moderator")
    assert t.state.moderator == XANTHE
    act(t, LYRIE, "vote", side="aye", power=1)
    assert t.state.leader == LYRIE
    act(t, JILIAN, "vote", side="nay", power=1)
    act(t, SYD, "vote", side="aye", power=1)
    assert t.state.leader == LYRIE  # an equal amount does not take the token
    act(t, ELINOR, "vote", side="nay", power=4)
    assert t.state.leader == ELINOR
    # Xanthe passed: her turn is skipped; nobody else may Become Moderator any more
    assert {p.seat for p in t.state.prompts if p.blocking} == {LYRIE}
    assert Action("pass", {"action": "moderator"}) not in t.legal(LYRIE)
    with pytest.raises(IllegalAction):
        act(t, LYRIE, "pass", action="gather")  # once voted, only raise or stay
    act(t, LYRIE, "raise", power=3)
    assert t.state.leader == ELINOR  # 4 equals Elinor's 4
    act(t, JILIAN, "raise", power=1)
    act(t, SYD, "raise", power=1)
    # the vote ended after Syd's turn (Syd sits to Elinor's right): the Moderator must break the tie
    assert [(p.seat, p.kind) for p in t.state.prompts if p.blocking] == [(XANTHE, "break_tie")]
    tiles = t.state.vote.tiles
    assert sum(x.power for x in tiles if x.side == "aye") == 6 == sum(x.power for x in tiles if x.side == "nay")


def test_the_moderators_deal_breaks_the_tie_and_the_leader_token_goes_to_lyrie(registry):
    """Vote Resolution example: Syd and Lyrie each pay Xanthe 1 Food (a binding Deal); the
    Moderator breaks the tie for Aye; Elinor (Nay) loses the Leader token to the winning
    side's top investor, Lyrie (4 Power against Syd's 2). Power cleanup: the winners' Power
    goes to the Pool, the losers take theirs back. Payments are one-way gifts (QD-R5).
    QD-184, QD-185 (the example); QD-162, QD-164, QD-165 (Resources given, never Power, no
    swap action exists); QD-183 (bargaining open until the tie is broken); QD-178, QD-179,
    QD-181 (resolution); QD-197, QD-198 (Power cleanup)."""
    food = [{"food": 0}, {"food": 1}, {"food": 0}, {"food": 1}, {"food": 0}]
    t = table(registry, leader=XANTHE, moderator=LYRIE, power=[7, 7, 7, 2, 7], resources=food, pool=0)
    for seat, move in [(XANTHE, ("pass", {"action": "moderator"})), (LYRIE, ("vote", {"side": "aye", "power": 1})),
                       (JILIAN, ("vote", {"side": "nay", "power": 1})), (SYD, ("vote", {"side": "aye", "power": 1})),
                       (ELINOR, ("vote", {"side": "nay", "power": 4})), (LYRIE, ("raise", {"power": 3})),
                       (JILIAN, ("raise", {"power": 1})), (SYD, ("raise", {"power": 1}))]:
        t.act(seat, Action(*move))
    # the tie stands: bargaining is still open, out of turn, with the deal's terms as text
    events = act(t, SYD, "pay", to=XANTHE, resource="food", n=1, reason="break the tie for Aye")
    assert any(e.type == "payment" and e.data["reason"] == "break the tie for Aye" for e in events)
    act(t, LYRIE, "pay", to=XANTHE, resource="food", n=1, reason="")
    assert t.state.councilors[XANTHE].resources["food"] == 2
    with pytest.raises(BadParameter):  # Power is not a Resource: it cannot be given
        act(t, XANTHE, "pay", to=SYD, resource="power", n=1, reason="")
    with pytest.raises(BadParameter):  # nor more than one has
        act(t, XANTHE, "pay", to=SYD, resource="food", n=3, reason="")
    with pytest.raises(NotYourTurn):  # Syd has nothing left to give
        act(t, SYD, "pay", to=XANTHE, resource="food", n=1, reason="")
    act(t, XANTHE, "decide", side="aye")
    assert t.state.leader == LYRIE
    last = t.state.votes[-1]
    assert last["winner"] == "aye" and last["totals"] == {"aye": 6, "nay": 6}
    assert t.state.power_pool == 6  # Lyrie's 4 and Syd's 2
    assert [c.power for c in t.state.councilors] == [7, 3, 7, 0, 7]  # Jilian and Elinor took theirs back
    assert not [p for p in t.state.prompts if p.kind == "payment"]  # bargaining closed with the vote


def test_power_distribution_shares_the_pool_equally_and_leaves_the_rest(registry):
    """Pass Action cleanup example: Elinor and Xanthe pass to Gather Power with 5 Power in the
    Pool: each takes 2 and 1 stays in the Pool (then the winners' Power is added).
    QD-187, QD-186, QD-151, QD-188 (the winners' Power is not shared the same round);
    QD-169 (Xanthe passed, sits right of the Leader Lyrie: the vote ends after her skipped turn)."""
    t = table(registry, leader=XANTHE, moderator=JILIAN, pool=5)
    act(t, XANTHE, "pass", action="gather")
    act(t, LYRIE, "vote", side="aye", power=2)
    act(t, JILIAN, "vote", side="nay", power=1)
    act(t, SYD, "vote", side="aye", power=1)
    act(t, ELINOR, "pass", action="gather")
    # back to Xanthe (skipped, passed) ... Lyrie leads; the vote ends after Xanthe (Lyrie's right)
    assert t.state.finished
    powers = [c.power for c in t.state.councilors]
    assert powers[XANTHE] == 7 + 2 and powers[ELINOR] == 7 + 2
    assert t.state.power_pool == 1 + 2 + 1  # the leftover, then Lyrie's and Syd's winning Power
    assert powers[JILIAN] == 7  # the loser took his Power back


def test_all_pass_the_moderator_decides_and_takes_the_leader_token(registry):
    """QD-180: everyone passed: the Moderator decides and takes the Leader token;
    QD-152/QD-190: Become Moderator from oneself is allowed, and the token stays after cleanup."""
    t = table(registry, players=3, leader=0, moderator=2)
    act(t, 0, "pass", action="gather")
    act(t, 1, "pass", action="gather")
    assert Action("pass", {"action": "moderator"}) in t.legal(2)
    act(t, 2, "pass", action="moderator")  # the Moderator token stays with seat 2
    assert [(p.seat, p.kind) for p in t.state.prompts if p.blocking] == [(2, "break_tie")]
    act(t, 2, "decide", side="nay")
    assert t.state.leader == 2 and t.state.votes[-1]["winner"] == "nay"


def test_a_tie_among_the_winners_top_investors_is_settled_by_the_moderator(registry):
    """QD-181, QD-182: the losing Leader's token goes to the winning side's top investor; a tie
    between them is the Moderator's choice, among the tied only."""
    t = table(registry, players=4, leader=0, moderator=3)
    act(t, 0, "vote", side="nay", power=5)   # Leader on Nay
    act(t, 1, "vote", side="aye", power=3)
    act(t, 2, "vote", side="aye", power=3)
    act(t, 3, "pass", action="gather")       # seat 3 sits to the Leader's right: the vote ends
    # Aye wins 6-5; the Leader lost; seats 1 and 2 tie as top investors: the Moderator picks
    assert [(p.seat, p.kind) for p in t.state.prompts if p.blocking] == [(3, "choose_leader")]
    with pytest.raises(BadParameter):
        act(t, 3, "leader", seat=0)
    act(t, 3, "leader", seat=2)
    assert t.state.leader == 2


def test_out_of_turn_votes_and_power_one_does_not_have_are_refused(registry):
    """QD-142: never more Power than the Treasury holds; QD-139: only the player on turn votes."""
    t = table(registry, players=3, leader=1, power=[7, 2, 7])
    with pytest.raises(NotYourTurn):
        act(t, 0, "vote", side="aye", power=1)
    with pytest.raises(BadParameter):
        act(t, 1, "vote", side="aye", power=3)  # only 2 Power in the Treasury
    act(t, 1, "vote", side="aye", power=2)
    assert t.state.councilors[1].power == 0


def test_stay_keeps_the_right_to_raise_on_a_later_lap_and_zero_power_can_only_pass(registry):
    """QD-144 (stay adds nothing and keeps the right to raise later), QD-143 (raise the same
    side), QD-142 (0 Power: no first vote, only pass)."""
    t = table(registry, players=4, leader=0, moderator=3, power=[7, 7, 7, 0])
    act(t, 0, "vote", side="aye", power=1)
    act(t, 1, "vote", side="aye", power=1)   # ties 1: seat 0 keeps the Leader token
    act(t, 2, "vote", side="nay", power=3)   # seat 2 leads; the vote would end after seat 1
    assert {o.type for o in t.legal(3)} == {"pass"}  # no Power: pass only
    act(t, 3, "pass", action="gather")
    act(t, 0, "stay")
    assert t.state.vote.tiles[0].power == 1
    act(t, 1, "raise", power=3)              # 4 > 3: seat 1 leads; now the vote ends after seat 0
    assert t.state.leader == 1
    act(t, 2, "stay")
    assert Action("raise", {"power": 1}) in t.legal(0) and Action("vote", {"side": "nay", "power": 1}) not in t.legal(0)
    act(t, 0, "raise", power=1)              # the earlier stay kept this right
    assert t.state.finished and t.state.votes[-1]["totals"] == {"aye": 6, "nay": 3}
