"""The Dilemmas module of The Queen's New Capital (QNC-013, QNC-198, QNC-204, QNC-208/209,
QNC-222..234, QNC-252, QNC-271), played through the engine with real votes."""
from __future__ import annotations

import json
import shutil

import pytest

from core import create_table
from core.errors import ActionRejected, BadPlayerCount, ContentError, NotYourTurn
from core.plugins import default_registry
from plugins.dilemmas.plugin import cards as dilemma_cards
from plugins.new_capital.content import DEFAULT_PACK
from plugins.new_capital.province import turn_order
from plugins.new_capital.rounds import challenge_value
from tests.new_capital.harness import check as base_check
from tests.new_capital.harness import clear_leaders  # shared arrangements
from tests.content_files import registry_with_pack
from tests.new_capital.harness import (
    PACK, act, auto, card_of, kinds, move_card, new_game, options, pl, prompt, set_hand, until_prompt,
)

MOD = "dilemmas"
FOR, AGAINST, ABSTAIN = "in_favor", "against", "abstain"
ALL = sorted(dilemma_cards(""))


# -- helpers ---------------------------------------------------------------------------------
def dil(table) -> dict:
    return table.state.module_state[MOD]


def game(players: int, seed: int = 0, deck: list[str] | None = None):
    """A table after the draft with the Dilemmas module; with `deck`, those dilemmas are
    arranged on top of the face-down pile in that order (displaced ones go to the box)."""
    t = new_game(players, seed, modules=[MOD])
    if deck:
        z = dil(t)["zones"]
        for c in deck:
            (z["deck"] if c in z["deck"] else z["box"]).remove(c)
        pile = list(deck) + z["deck"]
        z["deck"], z["box"] = pile[:5], z["box"] + pile[5:]
    return t


def check(table) -> None:
    """The game's invariants and the module's own (every dilemma in one zone, 0-3 tokens)."""
    base_check(table)
    errors = [e for found in table.rules.hook.conclave_check_invariants(state=table.state) for e in found]
    assert not errors, errors


def order(table) -> list[int]:
    return turn_order(table.state)


def of(events, type_, **match) -> list[dict]:
    return [e.data for e in events if e.type == type_ and all(e.data.get(k) == v for k, v in match.items())]


def types(events) -> list[str]:
    return [e.type for e in events]


def voting(table) -> bool:
    return any(p.kind in ("dilemma_vote", "dilemma_reinforce") for p in table.state.prompts)


def reinforcing(table, limit: int = 16):
    """Yield while a dilemma prompt is open (at most `limit` times: 4 players x 2 tokens + a stop)."""
    for _ in range(limit):
        if not voting(table):
            return
        yield prompt(table)
    raise AssertionError("the vote never ends")


def to_vote(table, policy=None) -> list:
    """Play on (harness defaults) until a dilemma prompt is open."""
    return auto(table, until=voting, policy=policy)


def vote(table, seat, side):
    assert kinds(table) == [(seat, "dilemma_vote")], kinds(table)
    return act(table, seat, "dilemma_vote", side=side)


def add(table, seat, more: bool):
    assert kinds(table) == [(seat, "dilemma_reinforce")], kinds(table)
    return act(table, seat, "dilemma_reinforce", add=more)


def ballots(plan: dict, fallback=None):
    """A policy for auto(): plan = {round: {seat: (side, extra tokens to add)}}; seats not named
    abstain. Other prompts: `fallback` (a policy) or the harness default."""
    def pick(table, p):
        if p.kind == "dilemma_vote":
            side = plan.get(table.state.round, {}).get(p.seat, (ABSTAIN, 0))[0]
            return next(o for o in p.options if o.params["side"] == side)
        if p.kind == "dilemma_reinforce":
            extra = plan.get(table.state.round, {}).get(p.seat, (ABSTAIN, 0))[1]
            done = dil(table)["vote"]["committed"][str(p.seat)] - 1
            return next(o for o in p.options if o.params["add"] is (done < extra))
        return fallback(table, p) if fallback else None
    return pick


def in_round(n, phase=None):
    return lambda t: t.state.round == n and (phase is None or t.state.phase == phase)


# -- setup and components ------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_puts_five_random_dilemmas_face_down_boxes_thirteen_and_gives_three_tokens_QNC_208_209(players):
    """QNC-208: five random dilemmas wait face down, the other 13 are boxed. QNC-209: each
    player holds 3 vote tokens. QNC-223: nothing is revealed before the round-1 Crisis."""
    decks = set()
    for seed in range(4):
        t = create_table("new-capital", players, seed=seed, modules=[MOD])
        m = dil(t)
        z = m["zones"]
        assert len(z["deck"]) == 5 and len(z["box"]) == 13
        assert sorted(z["deck"] + z["box"]) == ALL
        assert z["current"] == [] and z["done"] == [] and m["vote"] is None and m["lasting"] is None
        assert m["tokens"] == {str(s): 3 for s in range(players)}
        assert "crisis" in types(t.events) and "dilemma" not in types(t.events)
        decks.add(tuple(z["deck"]))
        check(t)
    assert len(decks) > 1  # the five are drawn at random


def test_the_module_has_eighteen_dilemmas_and_fifteen_vote_tokens_QNC_013(tmp_path):
    """QNC-013: 18 Dilemma cards (a pack with another number is refused), each with an In Favor
    and an Against outcome; 15 vote tokens in the box, enough for 4 players x 3."""
    assert len(ALL) == 18
    for d in dilemma_cards("").values():
        assert d.in_favor.text and d.against.text
    assert PACK.board.supply["vote"] == 15
    four = create_table("new-capital", 4, seed=0, modules=[MOD])
    assert sum(dil(four)["tokens"].values()) == 12 <= PACK.board.supply["vote"]
    pack = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, pack)
    data = json.loads((pack / "dilemmas.json").read_text())
    (pack / "dilemmas.json").write_text(json.dumps(data[:17]))
    registry = registry_with_pack(pack)
    create_table("new-capital", 2, seed=0, options={"pack": "custom"}, registry=registry)  # without the module: fine
    with pytest.raises(ContentError):
        create_table("new-capital", 2, seed=0, modules=[MOD], options={"pack": "custom"}, registry=registry)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_module_plays_with_one_to_four_players_QNC_204(players):
    """QNC-204: 1-4 players; with each count a full vote is played and resolved (the Queen's
    token joins only with 1-2 players, QNC-229)."""
    spec = default_registry().modules[MOD]
    assert (spec.min_players, spec.max_players) == (1, 4)
    with pytest.raises(BadPlayerCount):
        create_table("new-capital", 5, seed=0, modules=[MOD])
    t = game(players, seed=1, deck=["DI06"])
    to_vote(t)
    events = []
    for seat in order(t):
        events += vote(t, seat, FOR)
    for _ in reinforcing(t):
        events += add(t, prompt(t).seat, False)
    result = of(events, "dilemma_result")
    assert len(result) == 1 and result[0]["card"] == "DI06"
    queen = of(events, "queen_vote")
    assert len(queen) == (1 if players <= 2 else 0)
    expected = {FOR: players, AGAINST: 0}
    if queen:
        expected[queen[0]["side"]] += 1
    assert result[0]["counts"] == expected
    assert result[0]["winner"] == (FOR if expected[FOR] > expected[AGAINST] else AGAINST)
    assert dil(t)["tokens"] == {str(s): 2 for s in range(players)}
    check(t)


# -- when a dilemma comes ---------------------------------------------------------------------
def test_the_dilemma_is_revealed_and_resolved_in_refresh_before_the_next_crisis_QNC_222_271():
    """QNC-222/271: in the Refresh phase, after the victory check and before the next Crisis
    card (step 18), the die pass and the board-action reset, the next Dilemma is revealed,
    voted on and its winning outcome applied at once."""
    t = game(3, seed=0, deck=["DI05"])
    crisis, first = t.state.crisis, t.state.first
    act(t, first, "board", action="resupply")  # round 1: the first player's cube leaves the top
    events = to_vote(t)
    assert (t.state.round, t.state.phase, t.state.step) == (1, "refresh", "dilemma")
    assert t.state.crisis == crisis and len(t.state.crisis_deck) == 5 and t.state.first == first
    assert pl(t, first).board_cube == "resupply"
    assert of(events, "dilemma") == [{"card": "DI05", "round": 1}]
    assert types(events).index("dilemma") > max(i for i, e in enumerate(events) if e.type == "phase"
                                                 and e.data["phase"] == "refresh")
    assert dil(t)["zones"]["current"] == ["DI05"] and len(dil(t)["zones"]["deck"]) == 4
    hunger_before = list(t.state.hunger_deck)
    morale = {s: pl(t, s).tracks["morale"] for s in range(3)}
    events = events[types(events).index("dilemma"):]
    for seat in order(t):
        events += vote(t, seat, FOR)
    for _ in reinforcing(t):
        events += add(t, prompt(t).seat, False)
    ts = types(events)
    # the votes, the result and the outcome (morale + Hunger for everyone) come before the new Crisis
    assert ts.index("dilemma_result") < ts.index("crisis") < ts.index("first_player")
    assert all(i < ts.index("crisis") for i, e in enumerate(events) if e.type in ("hunger", "attribute"))
    seq = [(first + i) % 3 for i in range(3)]
    assert of(events, "hunger") == [{"seat": s, "card": c} for s, c in zip(seq, hunger_before[:3])]
    assert t.state.crisis != crisis and t.state.crisis in PACK.crises
    assert all(pl(t, s).tracks["morale"] == min(5, morale[s] + 1) for s in range(3))
    assert pl(t, first).board_cube == "top" and t.state.first == (first + 1) % 3
    check(t)


@pytest.mark.parametrize("players,seed", [(1, 0), (2, 1), (4, 2)])
def test_dilemmas_come_only_in_the_refresh_phases_of_rounds_one_to_five_QNC_223(players, seed):
    """QNC-223: five dilemmas, one in each Refresh of rounds 1-5, none before the round-1 Crisis
    and none in the last round."""
    t = create_table("new-capital", players, seed=seed, modules=[MOD])
    assert "dilemma" not in types(t.events)
    events = auto(t, policy=ballots({}))
    assert t.state.finished and t.state.round == 6
    phase, seen = None, []
    for e in events:
        if e.type == "phase":
            phase = (e.data["phase"], e.data["round"])
        if e.type == "dilemma":
            seen.append((phase, e.data["round"]))
    assert seen == [(("refresh", r), r) for r in range(1, 6)]
    assert dil(t)["zones"]["deck"] == [] and len(dil(t)["results"]) == 5
    check(t)


def test_no_dilemma_is_revealed_when_the_victory_check_ends_the_game_QNC_271():
    """QNC-271: step 17 comes after the victory check (step 16): a game won there reveals no
    Dilemma."""
    t = game(2, seed=0)
    target = PACK.scenario("learning").seals
    p = pl(t, 0)
    p.seal_slots = [True] * target + [False] * (len(p.seal_slots) - target)
    p.seals_reserve = 9 - target
    events = auto(t, policy=ballots({}))
    assert t.state.finished and t.state.round == 1 and t.state.result["reason"] == "seals"
    assert not of(events, "dilemma") and len(dil(t)["zones"]["deck"]) == 5


# -- the vote -----------------------------------------------------------------------------------
def test_first_pass_in_player_order_one_token_for_a_side_none_for_abstain_QNC_225():
    """QNC-225: one at a time, from the first player clockwise, each player votes In Favor or
    Against with one token, or Abstains with none."""
    t = game(4, seed=2)
    to_vote(t)
    seq = order(t)
    assert seq[0] == t.state.first != 0
    plan = dict(zip(seq, [FOR, AGAINST, ABSTAIN, FOR]))
    events = []
    for seat in seq:
        assert kinds(t) == [(seat, "dilemma_vote")]
        assert options(t, seat) == [{"side": FOR}, {"side": AGAINST}, {"side": ABSTAIN}]
        for other in range(4):
            if other != seat:
                with pytest.raises(NotYourTurn):
                    act(t, other, "dilemma_vote", side=FOR)
        events += vote(t, seat, plan[seat])
        assert dil(t)["tokens"][str(seat)] == (3 if plan[seat] == ABSTAIN else 2)
    assert [(v["seat"], v["side"]) for v in of(events, "dilemma_vote")] == [(s, plan[s]) for s in seq]
    v = dil(t)["vote"]
    assert v["sides"] == {str(s): plan[s] for s in seq if plan[s] != ABSTAIN}
    assert v["committed"] == {str(s): 1 for s in seq if plan[s] != ABSTAIN}
    assert v["queen"] is None  # 4 players: no Queen's token
    check(t)


def test_reinforcement_same_side_up_to_three_stop_means_out_abstainer_never_adds_QNC_226_227_228():
    """QNC-226: after the first pass, voters add a 2nd and 3rd token of their side, around the
    table; one who stops is out of that vote. QNC-227: an abstainer is never asked.
    QNC-228: nobody commits more than 3 tokens to one Dilemma."""
    t = game(4, seed=2, deck=["DI06"])
    to_vote(t)
    o0, o1, o2, o3 = order(t)
    events = []
    events += vote(t, o0, FOR) + vote(t, o1, AGAINST) + vote(t, o2, ABSTAIN) + vote(t, o3, FOR)
    assert options(t, o0) == [{"add": True}, {"add": False}]
    events += add(t, o0, True)     # 2nd token
    events += add(t, o1, False)    # o1 stops: out
    events += add(t, o3, True)     # o2 abstained: skipped
    events += add(t, o0, True)     # 3rd token: o0 is done
    with pytest.raises(NotYourTurn):
        act(t, o1, "dilemma_reinforce", add=True)
    with pytest.raises(NotYourTurn):
        act(t, o2, "dilemma_reinforce", add=True)
    events += add(t, o3, True)     # o3's 3rd token
    assert not voting(t)
    asked = [e.data["seat"] for e in events if e.type in ("dilemma_reinforce", "dilemma_stop")]
    assert asked == [o0, o1, o3, o0, o3]
    assert {r["seat"]: r["side"] for r in of(events, "dilemma_reinforce")} == {o0: FOR, o3: FOR}
    assert max(r["committed"] for r in of(events, "dilemma_reinforce")) == 3
    result = of(events, "dilemma_result")[0]
    assert result["counts"] == {FOR: 6, AGAINST: 1} and result["winner"] == FOR
    assert dil(t)["tokens"] == {str(o0): 0, str(o1): 2, str(o2): 3, str(o3): 0}
    check(t)


def test_abstainer_with_tokens_is_never_offered_reinforcement_QNC_227():
    """QNC-227: a player who abstained adds nothing later in that vote, even holding 3 tokens,
    while the voters are asked."""
    t = game(3, seed=0, deck=["DI05"])
    to_vote(t)
    o0, o1, o2 = order(t)
    events = vote(t, o0, ABSTAIN) + vote(t, o1, AGAINST) + vote(t, o2, ABSTAIN)
    for _ in reinforcing(t):
        p = prompt(t)
        assert p.seat == o1 and p.kind == "dilemma_reinforce"
        events += add(t, o1, True)
    assert dil(t)["tokens"][str(o0)] == 3 and dil(t)["tokens"][str(o2)] == 3 and dil(t)["tokens"][str(o1)] == 0
    assert of(events, "dilemma_result")[0]["counts"] == {FOR: 0, AGAINST: 3}
    check(t)


@pytest.mark.parametrize("players", [1, 2])
def test_queen_token_is_flipped_once_after_the_first_pass_with_one_or_two_players_QNC_229(players):
    """QNC-229: with 1-2 players a token is flipped for the Queen after the first pass, once per
    Dilemma however long the reinforcement goes; it counts for its side (QNC-224: green In
    Favor, red Against)."""
    t = game(players, seed=3)
    to_vote(t)
    events = []
    for seat in order(t):
        assert dil(t)["vote"]["queen"] is None
        events += vote(t, seat, AGAINST)
    assert dil(t)["vote"]["queen"] in (FOR, AGAINST)
    for _ in reinforcing(t):
        events += add(t, prompt(t).seat, True)
    ts = types(events)
    assert ts.count("queen_vote") == 1
    last_vote = max(i for i, x in enumerate(ts) if x == "dilemma_vote")
    assert last_vote < ts.index("queen_vote") < ts.index("dilemma_reinforce")
    queen = of(events, "queen_vote")[0]["side"]
    result = of(events, "dilemma_result")[0]
    expected = {FOR: 0, AGAINST: 3 * players}
    expected[queen] += 1
    assert result["counts"] == expected and result["winner"] == AGAINST
    check(t)


def test_queen_token_only_with_one_or_two_players_and_its_side_is_random_QNC_229():
    """QNC-229: 3-4 players never get the Queen's token; the flipped face varies."""
    sides = set()
    for seed in range(12):
        t = game(1, seed=seed)
        to_vote(t)
        events = vote(t, 0, ABSTAIN)
        sides.add(of(events, "queen_vote")[0]["side"])
        winner = of(events, "dilemma_result")[0]
        assert winner["winner"] == of(events, "queen_vote")[0]["side"]  # 1-0 for the Queen
    assert sides == {FOR, AGAINST}
    for players in (3, 4):
        t = game(players, seed=0)
        to_vote(t)
        events = []
        for seat in order(t):
            events += vote(t, seat, ABSTAIN)
        assert not of(events, "queen_vote")
        assert of(events, "dilemma_result")[0]["counts"] == {FOR: 0, AGAINST: 0}


def test_more_tokens_win_and_a_tie_goes_to_against_QNC_230():
    """QNC-230: the side with more tokens wins; a tie (2-2, 3-3, 0-0) goes to Against."""
    # 4 players, 2-2
    t = game(4, seed=0, deck=["DI05"])
    to_vote(t)
    o = order(t)
    ev = vote(t, o[0], FOR) + vote(t, o[1], AGAINST) + vote(t, o[2], FOR) + vote(t, o[3], AGAINST)
    for _ in reinforcing(t):
        ev += add(t, prompt(t).seat, False)
    assert of(ev, "dilemma_result")[0]["counts"] == {FOR: 2, AGAINST: 2}
    assert of(ev, "dilemma_result")[0]["winner"] == AGAINST
    check(t)
    # 3 players, 3 In Favor against 2 + 1: tie -> Against; 3 against 2: In Favor
    for third, winner in ((AGAINST, AGAINST), (ABSTAIN, FOR)):
        t = game(3, seed=0, deck=["DI05"])
        to_vote(t)
        o = order(t)
        ev = vote(t, o[0], FOR) + vote(t, o[1], AGAINST) + vote(t, o[2], third)
        ev += add(t, o[0], True) + add(t, o[1], True)
        if third == AGAINST:
            ev += add(t, o[2], False)
        ev += add(t, o[0], True) + add(t, o[1], False)
        assert not voting(t)
        result = of(ev, "dilemma_result")[0]
        assert result["counts"] == {FOR: 3, AGAINST: 3 if third == AGAINST else 2}
        assert result["winner"] == winner
        check(t)
    # 3 players all abstain: 0-0 -> Against
    t = game(3, seed=1, deck=["DI05"])
    to_vote(t)
    ev = []
    for s in order(t):
        ev += vote(t, s, ABSTAIN)
    result = of(ev, "dilemma_result")[0]
    assert result["counts"] == {FOR: 0, AGAINST: 0} and result["winner"] == AGAINST


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_two_players_and_the_queen_tie_goes_to_against_QNC_230_QNC_229(seed):
    """QNC-230 with the Queen's token: 1-1 after the first pass, the Queen breaks it, the
    trailing player adds one token: 2-2, Against wins whichever face the Queen showed."""
    t = game(2, seed=seed, deck=["DI05"])
    to_vote(t)
    a, b = order(t)
    ev = vote(t, a, FOR) + vote(t, b, AGAINST)
    queen = dil(t)["vote"]["queen"]
    trailing = b if queen == FOR else a
    for _ in reinforcing(t):
        seat = prompt(t).seat
        more = seat == trailing and dil(t)["vote"]["committed"][str(seat)] < 2
        ev += add(t, seat, more)
    result = of(ev, "dilemma_result")[0]
    assert result["counts"] == {FOR: 2, AGAINST: 2} and result["winner"] == AGAINST
    check(t)


def test_spent_tokens_leave_the_players_and_the_winning_side_is_recorded_QNC_231():
    """QNC-231: every token used goes to the supply (the voters keep only what they did not
    commit), and the winning side is kept as the reminder on the card (public)."""
    t = game(3, seed=0, deck=["DI09"])  # DI09 In Favor lasts into the next round
    to_vote(t)
    o = order(t)
    ev = vote(t, o[0], FOR) + vote(t, o[1], AGAINST) + vote(t, o[2], FOR)
    ev += add(t, o[0], True) + add(t, o[1], False) + add(t, o[2], False) + add(t, o[0], False)
    assert not voting(t)
    assert dil(t)["tokens"] == {str(o[0]): 1, str(o[1]): 2, str(o[2]): 2}
    assert sum(dil(t)["tokens"].values()) == 9 - 4
    assert dil(t)["vote"] is None
    assert dil(t)["results"] == [{"card": "DI09", "winner": FOR, "counts": {FOR: 3, AGAINST: 1}, "round": 1}]
    assert dil(t)["lasting"] == {"card": "DI09", "side": FOR}
    for viewer in (None, 0, 1, 2):
        m = t.view(viewer)["module_state"][MOD]
        assert m["lasting"] == {"card": "DI09", "side": FOR} and m["zones"]["current"] == ["DI09"]
    check(t)


def test_tokens_are_not_regained_except_one_per_abstain_never_above_three_QNC_232():
    """QNC-232: spent tokens stay spent across rounds; each Abstain recovers one spent token;
    a player holding 3 who abstains stays at 3."""
    t = game(3, seed=0)
    a, b, c = order(t)
    plan = {1: {a: (FOR, 2), b: (AGAINST, 1)},   # c abstains at 3: stays 3
            2: {b: (FOR, 0), c: (AGAINST, 0)},   # a: no token -> abstain; b and c spend one
            3: {c: (FOR, 0)}}                    # a and b abstain
    seen = {}

    def snapshot(table, p):
        if p.kind == "turn" and table.state.round not in seen:
            seen[table.state.round] = dict(dil(table)["tokens"])
        return None

    auto(t, until=in_round(4), policy=ballots(plan, fallback=snapshot))
    r = dil(t)["results"]
    assert [x["counts"] for x in r] == [{FOR: 3, AGAINST: 2}, {FOR: 1, AGAINST: 1}, {FOR: 1, AGAINST: 0}]
    after1 = {str(a): 0, str(b): 1, str(c): 3}
    after2 = {str(a): 1, str(b): 0, str(c): 2}
    after3 = {str(a): 2, str(b): 1, str(c): 1}
    assert seen[2] == after1    # nothing comes back between rounds
    assert seen[3] == after2
    assert dil(t)["tokens"] == after3
    check(t)


def test_a_player_without_tokens_can_only_abstain_QNC_233():
    """QNC-233: with no vote token a player is not offered In Favor or Against: the Abstain
    is taken for them (and recovers a token, QNC-232)."""
    t = game(3, seed=1)
    a, b, c = order(t)
    auto(t, until=in_round(2), policy=ballots({1: {a: (FOR, 2)}}))
    assert dil(t)["tokens"][str(a)] == 0
    events = to_vote(t, policy=ballots({}))
    for seat in order(t):  # round 2: the die has passed
        if seat == a:
            continue
        assert kinds(t) == [(seat, "dilemma_vote")]
        with pytest.raises(ActionRejected):
            act(t, a, "dilemma_vote", side=FOR)
        events += vote(t, seat, FOR)
    assert of(events, "dilemma_vote", seat=a) == [{"seat": a, "side": ABSTAIN, "tokens": 1}]
    for _ in reinforcing(t):
        assert prompt(t).seat != a
        events += add(t, prompt(t).seat, False)
    result = dil(t)["results"][-1]
    assert result["counts"] == {FOR: 2, AGAINST: 0}
    assert dil(t)["tokens"][str(a)] == 1
    check(t)


def hunger_held(p) -> int:
    return sum(1 for c in p.hand + p.deck + p.discard if c in PACK.hunger)


# -- outcomes ---------------------------------------------------------------------------------
@pytest.mark.parametrize("winner", [FOR, AGAINST])
def test_the_winning_outcome_applies_to_every_player_QNC_224(winner):
    """QNC-224: two outcomes; only the winner's applies, to every player. DI05: In Favor =
    1 Morale and a Hunger card each; Against = 1 control reserve token each."""
    t = game(3, seed=2, deck=["DI05"])
    to_vote(t)
    before = {s: (pl(t, s).tracks["morale"], pl(t, s).reserve_control, hunger_held(pl(t, s))) for s in range(3)}
    hunger = len(t.state.hunger_deck)
    ev = []
    for s in order(t):
        ev += vote(t, s, winner)
    for _ in reinforcing(t):
        ev += add(t, prompt(t).seat, False)
    assert of(ev, "dilemma_result")[0]["winner"] == winner
    for s in range(3):
        morale, control, discard = before[s]
        p = pl(t, s)
        if winner == FOR:
            assert p.tracks["morale"] == morale + 1 and p.reserve_control == control
            assert hunger_held(p) == discard + 1
        else:
            assert p.tracks["morale"] == morale and p.reserve_control == control + 1
            assert hunger_held(p) == discard
    assert len(t.state.hunger_deck) == hunger - (3 if winner == FOR else 0)
    check(t)


def test_dilemma_hunger_gives_hunger_cards_then_rebellion_when_the_deck_is_empty_QNC_198():
    """QNC-198 (with QNC-200): a Hunger outcome gives each player the top Hunger card, in turn
    order; once the Hunger deck is empty a Rebellion token comes instead."""
    t = game(3, seed=0, deck=["DI09"])  # DI09 Against: every player takes a Hunger card
    to_vote(t)
    keep = t.state.hunger_deck[:2]
    for h in t.state.hunger_deck[2:]:
        move_card(t, h, "box")
    o = order(t)
    rebellion = {s: sum(c.rebellion for c in pl(t, s).columns) for s in range(3)}
    ev = []
    for s in o:
        ev += vote(t, s, ABSTAIN)  # 0-0: Against
    ev += auto(t, until=lambda x: x.state.phase != "refresh")
    assert of(ev, "dilemma_result")[0]["winner"] == AGAINST
    assert of(ev, "hunger") == [{"seat": o[0], "card": keep[0]}, {"seat": o[1], "card": keep[1]}]
    for s, h in zip(o, keep):
        assert h in pl(t, s).discard + pl(t, s).hand + pl(t, s).deck
    assert of(ev, "hunger_deck_empty") == [{"seat": o[2]}]
    assert [r["seat"] for r in of(ev, "rebellion")] == [o[2]]
    assert {s: sum(c.rebellion for c in pl(t, s).columns) for s in range(3)} == {
        **rebellion, o[2]: rebellion[o[2]] + 1}
    assert t.state.hunger_deck == []
    check(t)


def test_dilemma_hunger_card_lands_on_top_of_the_discard_pile_QNC_198():
    """QNC-198 (with QNC-193): the Hunger card a Dilemma gives is the new top of the discard
    pile (solo: the game pauses on the solo Scout right after the new Crisis)."""
    t = game(1, seed=0, deck=["DI09"])
    to_vote(t)
    top = t.state.hunger_deck[0]
    discard = list(pl(t, 0).discard)
    ev = vote(t, 0, AGAINST)  # 1 Against: the Queen can at most tie, and a tie is Against
    for _ in reinforcing(t):
        ev += add(t, 0, False)
    assert of(ev, "dilemma_result")[0]["winner"] == AGAINST
    assert kinds(t) == [(0, "scout")] and t.state.round == 1
    assert of(ev, "hunger") == [{"seat": 0, "card": top}]
    assert pl(t, 0).discard == discard + [top] and top not in t.state.hunger_deck
    check(t)


# -- lasting outcomes ----------------------------------------------------------------------------
def has_board(table, seat, action) -> bool:
    return any(o.get("action") == action for o in options(table, seat, "board"))


def test_a_lasting_outcome_holds_for_the_next_round_and_goes_when_the_next_dilemma_comes_QNC_234():
    """QNC-234: DI09 In Favor (no Resupply next round) stays face up with its side; in round 2
    no player may Resupply; revealing the next Dilemma discards it and Resupply is back."""
    t = game(3, seed=0, deck=["DI09", "DI05"])
    assert has_board(t, order(t)[0], "resupply")
    plan = {1: {s: (FOR, 0) for s in range(3)}}
    auto(t, until=lambda x: x.state.round == 2 and until_prompt("turn")(x), policy=ballots(plan))
    assert dil(t)["zones"]["current"] == ["DI09"] and dil(t)["lasting"] == {"card": "DI09", "side": FOR}
    offered = []

    def look(table, p):
        if p.kind == "turn" and table.state.round == 2:
            offered.append(any(o.params.get("action") == "resupply" for o in p.options))
        return None

    auto(t, until=voting, policy=ballots({}, fallback=look))
    assert len(offered) >= 12 and not any(offered)
    # round 2 Refresh: DI05 is revealed, DI09 is discarded at once
    assert (t.state.round, t.state.phase) == (2, "refresh")
    z = dil(t)["zones"]
    assert z["current"] == ["DI05"] and "DI09" in z["done"] and dil(t)["lasting"] is None
    assert t.rules.hook.new_capital_modifiers(state=t.state) == [[]]
    auto(t, until=lambda x: x.state.round == 3 and until_prompt("turn")(x), policy=ballots({}))
    assert has_board(t, prompt(t).seat, "resupply")
    check(t)


def test_a_non_lasting_outcome_is_discarded_at_once_QNC_234():
    """QNC-234 contrast: an outcome that does not affect the next round leaves no card face up."""
    t = game(3, seed=0, deck=["DI05"])
    auto(t, until=in_round(2), policy=ballots({1: {s: (FOR, 0) for s in range(3)}}))
    z = dil(t)["zones"]
    assert z["current"] == [] and z["done"] == ["DI05"] and dil(t)["lasting"] is None
    check(t)


def by_round(events, type_):
    rnd, out = 1, {}
    for e in events:
        if e.type == "phase":
            rnd = e.data["round"]
        elif e.type == type_:
            out.setdefault(rnd, []).append(e.data)
    return out


@pytest.mark.parametrize("card,side,kind,delta", [
    ("DI02", AGAINST, "warfare", 1),
    ("DI08", AGAINST, "political", 1),
    ("DI13", FOR, "political", -1),
])
def test_a_lasting_crisis_need_is_in_force_only_in_the_next_round_QNC_234(card, side, kind, delta):
    """QNC-234: a lasting outcome changes the next round's crisis (need +-1, never below 1),
    not the current one, and is gone after the next Dilemma."""
    t = game(3, seed=1, deck=[card, "DI05"])
    plan = {1: {s: (side, 0) for s in range(3)} if side == FOR else {}}  # all abstain: Against
    events = auto(t, until=in_round(4), policy=ballots(plan))
    assert dil(t)["results"][0]["winner"] == side
    checks = by_round(events, "crisis_check")
    needs = {r: [c["need"] for c in found if c["kind"] == kind] for r, found in checks.items()}
    base = {r: challenge_value(getattr(PACK.crises[t.state.crises_done[r - 1]], kind), 3) for r in (1, 2, 3)}
    assert needs == {1: [base[1]], 2: [max(1, base[2] + delta)], 3: [base[3]]}
    check(t)


def test_a_lasting_crisis_bonus_adds_to_every_total_in_the_next_round_QNC_234():
    """QNC-234: DI06 In Favor: in round 2 (only) every player adds 1 to their warfare total."""
    t = game(3, seed=0, deck=["DI06", "DI05"])
    leaders = {}

    def warfare_leaders(player) -> int:
        abilities = [PACK.leaders[sl.leader].ability for col in player.columns for sl in col.slots if sl.leader]
        return sum(a.add for a in abilities if a.trigger == "crisis_total" and a.match == "warfare")

    def snapshot(table, p):
        if p.kind == "dilemma_vote":  # Refresh: the leaders the last crisis saw
            leaders.setdefault(table.state.round, {s: warfare_leaders(pl(table, s)) for s in range(3)})
        return None

    vote_for = ballots({1: {s: (FOR, 0) for s in range(3)}, 2: {s: (FOR, 0) for s in range(3)},
                        3: {s: (FOR, 0) for s in range(3)}})
    events = auto(t, until=in_round(4), policy=lambda x, p: snapshot(x, p) or vote_for(x, p))
    assert dil(t)["results"][0]["winner"] == FOR and dil(t)["results"][1]["card"] == "DI05"
    revealed = {r: found[0]["cards"] for r, found in by_round(events, "reveal").items()}
    bids = {r: {b["seat"]: b["power"] for b in found if "power" in b} for r, found in by_round(events, "bid").items()}
    totals = {r: [c["totals"] for c in found if c["kind"] == "warfare"][0]
              for r, found in by_round(events, "crisis_check").items()}
    for r in (2, 3):
        for s in range(3):
            power = sum(PACK.action(c).power for c in revealed[r][s]) + bids.get(r, {}).get(s, 0) + leaders[r][s]
            assert totals[r][s] == power + (1 if r == 2 else 0), (r, s)
    check(t)


def test_no_dilemma_can_block_crisis_rewards_or_track_bonuses_QNC_252():
    """QNC-252: DI11 In Favor blocks reserve-token effects next round: a revealed card's reserve
    effect is blocked, but the warfare outperform reward (reserve) and the Might track bonus
    (2 power tokens) are still gained."""
    t = game(2, seed=0, deck=["DI11"])
    level2 = t.state.crisis_deck[0]
    if level2 != "C2B":  # round 2 crisis: warfare individual 2, reward 1 power token
        move_card(t, "C2B", "crisis_deck", top=False)
        move_card(t, level2, "box")
    plan = {1: {0: (FOR, 0), 1: (FOR, 0)}}
    auto(t, until=lambda x: x.state.round == 2 and until_prompt("turn")(x), policy=ballots(plan))
    assert dil(t)["lasting"] == {"card": "DI11", "side": FOR}
    x, y = order(t)
    clear_leaders(t)
    set_hand(t, x, ["A22", card_of(x, "B-MORALE"), card_of(x, "B-ENVOY"), card_of(x, "B-RESEARCH")])
    set_hand(t, y, [card_of(y, "B-MORALE"), card_of(y, "B-ENVOY"), card_of(y, "B-RESEARCH"), card_of(y, "B-BUILD")])
    pl(t, x).tracks["might"] = 5
    start = pl(t, x).reserve_power
    events = auto(t, until=voting, policy=ballots({}))
    assert t.state.round == 2 and t.state.crisis == "C2B"
    blocked = of(events, "effect_blocked", seat=x)
    assert any(b["source"] == "card" and b["effect"]["op"] == "reserve" for b in blocked)  # in force
    assert not [b for b in of(events, "effect_blocked") if b["source"] in ("reward", "track")]
    assert of(events, "reward", seat=x, kind="warfare")
    assert of(events, "track_reset", seat=x, track="might")
    assert pl(t, x).reserve_power == start + 1 + 2
    check(t)


# -- hidden information ---------------------------------------------------------------------------
def test_face_down_and_boxed_dilemmas_are_hidden_votes_and_revealed_cards_are_public_QNC_208_222():
    """QNC-208: the face-down Dilemmas and the boxed ones are counts in every view; the revealed
    card, the votes, the tokens and the results are the same for every viewer; dilemma events
    are public."""
    t = game(4, seed=1)
    viewers = [None, 0, 1, 2, 3]
    checked = 0

    def look(table, p=None):
        nonlocal checked
        m = dil(table)
        hidden = m["zones"]["deck"] + m["zones"]["box"]
        seen = []
        for v in viewers:
            view = table.view(v)
            z = view["module_state"][MOD]["zones"]
            assert z["deck"] == len(m["zones"]["deck"]) and z["box"] == len(m["zones"]["box"]) == 13
            assert z["current"] == m["zones"]["current"] and z["done"] == m["zones"]["done"]
            text = json.dumps(view)
            assert not [c for c in hidden if f'"{c}"' in text], v
            seen.append(view["module_state"][MOD])
        assert all(s == seen[0] for s in seen)
        assert seen[0]["vote"] == m["vote"] and seen[0]["tokens"] == m["tokens"]
        assert isinstance(m["zones"]["deck"], list)  # the view did not touch the state
        checked += 1

    look(t)

    def policy(table, p):
        if p.kind.startswith("dilemma"):
            look(table)
            side = [FOR, AGAINST, ABSTAIN, FOR][p.seat]
            if p.kind == "dilemma_vote":
                return next(o for o in p.options if o.params["side"] == side)
            return next(o for o in p.options if o.params["add"] is (p.seat == 0))
        return None

    events = auto(t, policy=policy)
    look(t)
    assert checked > 10 and dil(t)["zones"]["deck"] == [] and len(dil(t)["zones"]["done"]) + len(
        dil(t)["zones"]["current"]) == 5
    for e in events:
        if e.type in ("dilemma", "dilemma_vote", "dilemma_reinforce", "dilemma_stop", "queen_vote",
                      "dilemma_result"):
            assert e.to is None
    check(t)
