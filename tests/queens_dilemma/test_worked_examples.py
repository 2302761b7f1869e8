"""The Queen's Dilemma rulebook's worked examples, each PLAYED through the real game
(`queens-dilemma`: harness.campaign + harness.start + Table.act), never through the test
council game nor by calling the scoring functions:

- the voting example (End of the Voting Phase), the Moderator's tie-break Deal and the
  Leader example (Vote Resolution), the Power Distribution example (Pass Action Cleanup);
- Xanthe's and Lyrie's Ideology scoring examples, reached through whole games whose Dilemma
  deck and votes are chosen so that the final Ideology board is the example's;
- Elinor's Infamy and Aesyas's Gold examples, through real Dilemma outcomes that make the
  Leader lose Army.

Every decision is an action on the table; decisions outside the example (setup, the
Dilemma Resolution, the end of the game) get a fixed, harmless choice.
"""
from __future__ import annotations

from core.state import Action
from plugins.queens_dilemma.content import default_box
from tests.queens_dilemma.harness import campaign, choices, options, start

BOX = default_box()
FIVE = ["Xanthe", "Lyrie", "Jilian", "Syd", "Elinor"]   # clockwise, as seated in the rulebook
XANTHE, LYRIE, JILIAN, SYD, ELINOR = range(5)
MODERATOR_PASS = Action("pass", {"action": "moderator"})


# -- helpers -------------------------------------------------------------------------------
class Game:
    """A table and every event it produced since setup (Table.events keeps only the last
    action's)."""

    def __init__(self, table):
        self.t = table
        self.log = list(table.events)

    @property
    def state(self):
        return self.t.state

    def act(self, seat: int, type_: str, **params) -> list:
        events = self.t.act(seat, Action(type_, params))
        self.log.extend(events)
        return events

    def logged(self, type_: str) -> list[dict]:
        return [e.data for e in self.log if e.type == type_]

    def prompt(self, kind: str):
        return next((p for p in self.state.prompts if p.kind == kind), None)

    def blocking(self) -> list[tuple[int, str]]:
        return [(p.seat, p.kind) for p in self.state.prompts if p.blocking]

    def voter(self) -> int | None:
        p = self.prompt("vote")
        return None if p is None else p.seat


def to_first_vote(g: Game) -> None:
    """Setup decisions (Building production, Investment draft, tied Ideology draws), each
    with a fixed choice, up to the first vote."""
    while g.voter() is None:
        answer(g, next(p for p in g.state.prompts if p.blocking))


def answer(g: Game, p, forced=None) -> None:
    """A fixed, harmless answer to a decision that is not a vote (`forced(g, prompt)` may pick
    the forced payment)."""
    opts = choices(g.t, p)
    if p.kind == "forced_payment" and forced is not None:
        choice = forced(g, p)
    elif p.kind == "forced_payment":  # pay in kind as far as possible, then Gold, then Infamy
        choice = max(opts, key=lambda o: (o.params["resource"], o.params["gold"]))
    elif p.kind == "pass_bonus":
        choice = Action("no_bonus", {})
    elif p.kind == "invest":
        choice = Action("invest", {"pay": False})
    elif p.kind == "agenda":
        choice = Action("agendas_done", {})
    else:  # produce, investment, ideology, build, cover_skill, crossroad, choose_leader, break_tie
        choice = opts[0]
    g.act(p.seat, choice.type, **choice.params)


def play_round(g: Game, side: str, forced=None) -> None:
    """One whole round: every seat votes `side` with 1 Power (equal amounts: the Leader keeps
    the token and the vote ends after one lap), then the Dilemma Resolution is answered up to
    the next vote or the end of the game."""
    votes = len(g.state.votes)
    while not g.state.finished:
        seat = g.voter()
        if seat is not None and len(g.state.votes) == votes:
            g.act(seat, "vote", side=side, power=1)
            continue
        if seat is not None:
            return
        blocking = [p for p in g.state.prompts if p.blocking]
        answer(g, blocking[0], forced)


def play_game(g: Game, sides: dict[str, str], forced=None) -> None:
    """Play the game to its end: the current Dilemma's vote goes to `sides[card id]`."""
    while not g.state.finished:
        play_round(g, sides[g.state.dilemma], forced)


def five_player_game(seed: int = 0, deck: list[str] | None = None) -> Game:
    c = campaign(5, characters=FIVE, leader=XANTHE, moderator=LYRIE)
    if deck is not None:
        c["deck"] = list(deck)
    g = Game(start(c, seed=seed))
    to_first_vote(g)
    return g


def game_with(c: dict, seed_ok, seeds=range(300)) -> Game:
    """The first deterministic seed whose setup satisfies `seed_ok(table)`, started and played
    to the first vote."""
    for seed in seeds:
        t = start(c, seed=seed)
        g = Game(t)
        to_first_vote(g)
        if seed_ok(g):
            return g
    raise AssertionError("no seed fits")


# -- the voting example (End of the Voting Phase) ------------------------------------------
def play_voting_example() -> Game:
    """The rulebook's example, move by move, in the first vote of a real 5-player game."""
    g = five_player_game()
    assert g.voter() == XANTHE and g.state.leader == XANTHE and g.state.moderator == LYRIE
    assert MODERATOR_PASS in options(g.t, XANTHE)
    g.act(XANTHE, "pass", action="moderator")
    assert g.state.moderator == XANTHE and g.state.leader == XANTHE
    assert g.state.vote.tiles[XANTHE].side == "pass"
    assert MODERATOR_PASS not in options(g.t, LYRIE)
    g.act(LYRIE, "vote", side="aye", power=1)
    assert g.state.leader == LYRIE                           # 1 is the most Power on any tile
    assert MODERATOR_PASS not in options(g.t, JILIAN)
    g.act(JILIAN, "vote", side="nay", power=1)
    assert g.state.leader == LYRIE                           # 1 only ties Lyrie's 1
    assert MODERATOR_PASS not in options(g.t, SYD)
    g.act(SYD, "vote", side="aye", power=1)
    assert g.state.leader == LYRIE
    assert totals(g) == {"aye": 2, "nay": 1}
    assert MODERATOR_PASS not in options(g.t, ELINOR)
    g.act(ELINOR, "vote", side="nay", power=4)
    assert g.state.leader == ELINOR                          # 4 is strictly the most
    assert totals(g) == {"aye": 2, "nay": 5}
    # Syd now sits to the new Leader's right: the vote goes on; Xanthe passed and is skipped
    assert g.blocking() == [(LYRIE, "vote")]
    assert {o.type for o in options(g.t, LYRIE)} - {"pay"} == {"raise", "stay"}  # "pay": a Deal's gift
    g.act(LYRIE, "raise", power=3)
    assert g.state.vote.tiles[LYRIE].power == 4 and g.state.leader == ELINOR   # a tie takes nothing
    assert totals(g) == {"aye": 5, "nay": 5}
    g.act(JILIAN, "raise", power=1)
    assert totals(g) == {"aye": 5, "nay": 6}
    g.act(SYD, "raise", power=1)
    return g


def totals(g: Game) -> dict[str, int]:
    out = {"aye": 0, "nay": 0}
    for tile in g.state.vote.tiles:
        if tile.side in out:
            out[tile.side] += tile.power
    return out


def test_the_voting_example_played_in_a_real_game():
    """QD-171, QD-172, QD-173, QD-174, QD-175, QD-176, QD-177: Xanthe (Leader) passes to Become
    Moderator, taking the token from Lyrie, and nobody else may do so this Voting Phase;
    Lyrie Aye 1 takes the Leader token; Jilian Nay 1 and Syd Aye 1 do not (Aye 2-1); Elinor
    Nay 4 does (Nay 5-2) and the vote goes on; on the second lap Xanthe is skipped, Lyrie
    raises 3 (4, tying Elinor, 5-5), Jilian raises 1 (6-5), Syd raises 1 (6-6) and the
    Voting Phase ends after Syd's turn, Syd sitting to Leader Elinor's right."""
    g = play_voting_example()
    assert g.state.phase == "voting"
    assert g.state.vote is not None and totals(g) == {"aye": 6, "nay": 6}
    assert g.blocking() == [(XANTHE, "break_tie")]       # no more voting turns: the Moderator decides
    decides = g.logged("moderator_decides")
    assert decides == [{"moderator": XANTHE, "totals": {"aye": 6, "nay": 6}, "all_passed": False}]
    turns = [(e["seat"], e["side"], e["power"]) for e in g.logged("vote")]
    assert turns == [(XANTHE, "pass", 0), (LYRIE, "aye", 1), (JILIAN, "nay", 1), (SYD, "aye", 1),
                     (ELINOR, "nay", 4), (LYRIE, "aye", 4), (JILIAN, "nay", 2), (SYD, "aye", 2)]
    assert [e["seat"] for e in g.logged("leader")] == [LYRIE, ELINOR]
    assert g.state.leader == ELINOR and g.state.moderator == XANTHE


def test_the_tie_break_deal_and_the_leader_example():
    """QD-183, QD-184: with the vote over at 6-6, bargaining is still open during Vote
    Resolution: Syd gives Moderator Xanthe his only Food and Lyrie adds 1 Food (payments with
    the Deal's terms as free text); the Deal made, Xanthe breaks the tie for Aye.
    QD-185: Leader Elinor voted Nay and Aye won: the Leader token goes to the Aye voter with
    the most Power, Lyrie (4), not Syd (2)."""
    g = play_voting_example()
    food = {s: g.state.councilors[s].resources["food"] for s in range(5)}
    assert food[SYD] == 1                                   # "Syd only has 1 Food to offer"
    # the payment offers stand, out of turn, while the Moderator's decision is pending
    assert {p.seat for p in g.state.prompts if p.kind == "payment"} >= {SYD, LYRIE}
    events = g.act(SYD, "pay", to=XANTHE, resource="food", n=1, reason="Xanthe breaks the tie for Aye")
    assert [e.data for e in events if e.type == "payment"] == [
        {"seat": SYD, "recipient": XANTHE, "resource": "food", "n": 1, "reason": "Xanthe breaks the tie for Aye"}]
    g.act(LYRIE, "pay", to=XANTHE, resource="food", n=1, reason="my share of Syd's Deal")
    assert g.blocking() == [(XANTHE, "break_tie")]          # giving is no turn: still the Moderator's call
    assert g.state.councilors[XANTHE].resources["food"] == food[XANTHE] + 2
    assert g.state.councilors[SYD].resources["food"] == 0
    assert g.state.councilors[LYRIE].resources["food"] == food[LYRIE] - 1
    assert g.state.leader == ELINOR
    events = g.act(XANTHE, "decide", side="aye")
    won = [e.data for e in events if e.type == "vote_won"]
    assert won == [{"side": "aye", "totals": {"aye": 6, "nay": 6}}]
    assert [e.data["seat"] for e in events if e.type == "leader"] == [LYRIE]
    vote = g.state.votes[-1]
    assert vote["winner"] == "aye" and vote["leader"] == LYRIE
    assert [(t["side"], t["power"]) for t in vote["tiles"]] == [
        ("pass", 0), ("aye", 4), ("nay", 2), ("aye", 2), ("nay", 4)]
    outcome = [e.data for e in events if e.type == "outcome"]
    assert outcome and outcome[0]["side"] == "aye" and outcome[0]["winners"] == [LYRIE, SYD]


# -- Power Distribution (Pass Action Cleanup) -----------------------------------------------
def test_the_power_distribution_example():
    """QD-186, QD-187, QD-188: a real game, 5 players. Round 1: Leader Xanthe votes Aye with
    5, Lyrie, Jilian and Syd Gather Power (the Pool's 3 gives 1 each, none left), Elinor
    Becomes Moderator: the winners' 5 go to the Pool afterwards and are not shared. Round 2:
    Elinor and Xanthe Gather Power with 5 Power in the Pool: each takes 2, 1 stays; only then
    the winners' Power (Lyrie 2, Syd 1) joins the leftover 1."""
    deck = ["D2A2", "D303", "D2B3"]  # no Aye outcome among them gives or takes Power
    g = five_player_game(seed=3, deck=deck)
    assert g.state.power_pool == 3 and g.voter() == XANTHE
    power = [c.power for c in g.state.councilors]
    # round 1
    g.act(XANTHE, "vote", side="aye", power=5)
    g.act(LYRIE, "pass", action="gather")
    g.act(JILIAN, "pass", action="gather")
    g.act(SYD, "pass", action="gather")
    g.act(ELINOR, "pass", action="moderator")
    assert g.logged("power_distribution") == [{"gatherers": [LYRIE, JILIAN, SYD], "each": 1, "left": 0}]
    assert g.logged("vote_cleanup")[-1] == {"power_pool": 5}
    while g.voter() is None:  # the Dilemma Resolution's decisions
        answer(g, next(p for p in g.state.prompts if p.blocking))
    assert g.state.power_pool == 5
    power = [c.power for c in g.state.councilors]
    assert power == [7 - 5, 7 + 1, 7 + 1, 7 + 1, 7]
    # round 2: Xanthe still holds the Leader token and opens the vote
    assert g.voter() == XANTHE
    g.act(XANTHE, "pass", action="gather")
    g.act(LYRIE, "vote", side="aye", power=2)
    g.act(JILIAN, "vote", side="nay", power=1)
    g.act(SYD, "vote", side="aye", power=1)
    events = g.act(ELINOR, "pass", action="gather")
    # Leader Lyrie: the vote ends after Xanthe's (skipped) turn, right after Elinor's
    data = [(e.type, e.data) for e in events if e.type in ("power_distribution", "vote_cleanup")]
    assert data == [("power_distribution", {"gatherers": [XANTHE, ELINOR], "each": 2, "left": 1}),
                    ("vote_cleanup", {"power_pool": 1 + 2 + 1})]
    record = g.state.votes[-1]
    assert record["winner"] == "aye" and record["totals"] == {"aye": 3, "nay": 1}
    after = [c.power for c in g.state.councilors]
    assert after[XANTHE] == power[XANTHE] + 2 and after[ELINOR] == power[ELINOR] + 2
    assert after[JILIAN] == power[JILIAN]                   # the loser took his Power back


# -- Ideology Scoring -----------------------------------------------------------------------
def kept(seat: int, card: str):
    return lambda g: g.state.councilors[seat].ideology_card == card


def scored(g: Game, seat: int) -> dict:
    return next(e for e in g.logged("ideology_scored") if e["seat"] == seat)


def test_xanthes_scoring_example_at_the_end_of_a_real_game():
    """QD-235: Xanthe keeps Xanthe-3 (Favored Order +3, Favored Force +1). Six Dilemmas are
    voted so that Order gets 2 Hegemony tokens but does not win (pushed back by 2 Liberty
    pushes to the centre) and Force gets 2 tokens and wins: 2 + (2 + 1) = 5 Hegemony."""
    sides = {"D2A2": "aye",   # Order 1
             "D3A3": "aye",   # Order 1
             "D202": "nay",   # Liberty 1
             "D303": "nay",   # Liberty 1
             "D203": "aye",   # Force 1
             "D3B2": "aye"}   # Force 1, Tradition 1
    c = campaign(4, characters=["Xanthe", "Lyrie", "Jilian", "Syd"], leader=0)
    c["deck"] = list(sides)
    g = game_with(c, kept(0, "Xanthe-3"))
    play_game(g, sides)
    board = g.state.board
    assert board.tokens["order"] == 2 and board.sliders["order"] == 0   # Order is not winning
    assert board.tokens["force"] == 2 and board.sliders["force"] < 0    # Force is winning
    assert g.state.finished
    assert scored(g, 0) == {"seat": 0, "card": "Xanthe-3", "hegemony": 5, "independence": 0}


def test_lyries_scoring_example_at_the_end_of_a_real_game():
    """QD-236, QD-237: Lyrie keeps Lyrie-3 (Favored Liberty +3, Balanced Force/Diplomacy +2).
    Three Liberty outcomes and one Force outcome win: Liberty has 3 tokens and wins (3 + 3 =
    6); Force 1 token, Diplomacy none: the empty smaller pile gives 1 Independence, and the
    Force/Diplomacy Slider, one space from the centre, is silver: +2. 8 Hegemony, 1
    Independence."""
    sides = {"D2A2": "nay",   # Liberty 1
             "D3A3": "nay",   # Liberty 1
             "D202": "nay",   # Liberty 1
             "D203": "aye"}   # Force 1
    c = campaign(4, characters=["Xanthe", "Lyrie", "Jilian", "Syd"], leader=0)
    c["deck"] = list(sides)
    g = game_with(c, kept(1, "Lyrie-3"))
    play_game(g, sides)
    board = g.state.board
    assert board.tokens["liberty"] == 3 and board.sliders["order"] == 3
    assert board.tokens["force"] == 1 and board.tokens["diplomacy"] == 0 and board.sliders["force"] == -1
    assert scored(g, 1) == {"seat": 1, "card": "Lyrie-3", "hegemony": 8, "independence": 1}


# -- Forced payments: Elinor's Infamy, Aesyas's Gold ----------------------------------------
# D5B2 Aye makes the Leader lose 3 Army (one forced payment, as in both examples); D2A2 only
# keeps the game going afterwards.
ARMY_DECK = ["D5B2", "D2A2"]


def drawn_first(card: str):
    return lambda g: g.state.dilemma == card


def army_payments(g: Game, seat: int) -> list[dict]:
    return [e for e in g.logged("forced_payment") if e["seat"] == seat and e["resource"] == "army"]


def other_losses(g, p):
    return max(choices(g.t, p), key=lambda o: (o.params["resource"], o.params["gold"]))


def test_elinors_infamy_example_through_a_real_outcome():
    """QD-282: Elinor, Leader, must pay 3 Army but holds 1 (and no Gold pair). She could
    refuse entirely (3 Infamy) but pays her last Army and takes 2 Infamy."""
    c = campaign(4, characters=["Xanthe", "Elinor", "Jilian", "Syd"], leader=1, moderator=0)
    c["deck"] = list(ARMY_DECK)
    c["diaries"][1]["resources"] = {"gold": 0, "food": 0, "army": 0, "materials": 0}
    g = game_with(c, drawn_first("D5B2"))
    me = g.state.councilors[1]
    assert (me.resources["army"], me.resources["gold"], me.infamy) == (1, 1, 0)  # this game's income
    offered = []

    def pay_last_army(g, p):
        if p.args["resource"] != "army":
            return other_losses(g, p)
        offered.append([dict(o.params) for o in choices(g.t, p)])
        return Action("pay", {"resource": 1, "gold": 0, "infamy": 2})

    play_round(g, "aye", forced=pay_last_army)
    assert g.state.leader == 1
    assert offered == [[{"resource": 0, "gold": 0, "infamy": 3}, {"resource": 1, "gold": 0, "infamy": 2}]]
    assert [(e["amount"], e["paid"], e["gold"], e["infamy"]) for e in army_payments(g, 1)] == [(3, 1, 0, 2)]
    me = g.state.councilors[1]
    assert me.resources["army"] == 0 and me.infamy == 2 and me.resources["gold"] == 1


def test_aesyass_gold_example_through_a_real_outcome():
    """QD-283: Aesyas, Leader, must pay 3 Army but holds 2; he pays 2 Army and 2 Gold in
    place of the third, and takes no Infamy."""
    c = campaign(4, characters=["Aesyas", "Jilian", "Syd", "Xanthe"], leader=0)
    c["deck"] = list(ARMY_DECK)
    c["diaries"][0]["resources"] = {"gold": 4, "food": 0, "army": 1, "materials": 0}
    g = game_with(c, drawn_first("D5B2"))
    me = g.state.councilors[0]
    gold = me.resources["gold"]
    assert (me.resources["army"], me.infamy) == (2, 0) and gold >= 4

    def army_then_gold(g, p):
        if p.args["resource"] != "army":
            return other_losses(g, p)
        choice = Action("pay", {"resource": 2, "gold": 2, "infamy": 0})
        assert choice in choices(g.t, p)
        return choice

    play_round(g, "aye", forced=army_then_gold)
    assert [(e["amount"], e["paid"], e["gold"], e["infamy"]) for e in army_payments(g, 0)] == [(3, 2, 2, 0)]
    me = g.state.councilors[0]
    assert me.resources["army"] == 0 and me.resources["gold"] == gold - 2 and me.infamy == 0
