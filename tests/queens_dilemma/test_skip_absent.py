"""The Queen's Dilemma at a table that skips away seats (issue 21: `absent_seats: "skip"`,
core/absence.py, plugins/queens_dilemma/absence.py): a councilor who leaves during a game
(their time ran out, or the host marked them away) is absent from then on as the rulebook's
Absences treat a player who misses a game, and takes part again when they come back.

Played through the engine: random games in which one councilor leaves while each kind of
decision of theirs is open, the others playing on."""
from __future__ import annotations

import random

import pytest

from core import clock
from core.engine import create_table, replay
from core.errors import BadOption
from core.plugins import default_registry
from core.state import Action, encode_msgpack
from core.table_settings import kernel_options
from tests.queens_dilemma.harness import campaign, choices, start

AWAY, RESUME = Action("away"), Action("resume")
SKIP = {"absent_seats": "skip"}
# every kind of decision a councilor can hold in these games
KINDS = ("vote", "pass_bonus", "invest", "agenda", "forced_payment", "produce", "investment", "ideology",
         "region", "build", "crossroad", "break_tie", "choose_leader")


class Game:
    """One random game of a fresh campaign at a skipping table, played one action at a time."""

    def __init__(self, seed: int, players: int | None = None, first_game: bool | None = None, options=None):
        self.rng = random.Random(seed)
        players = players or self.rng.choice([4, 5, 6])
        regions_chosen = not first_game if first_game is not None else self.rng.random() < 0.7
        self.camp = campaign(players, regions_chosen=regions_chosen)
        self.options = {**SKIP, **(options or {})}
        self.table = start(self.camp, seed=seed, options=self.options)
        self.seed, self.at, self.events = seed, 1_000, list(self.table.events)

    def act(self, seat: int, action: Action) -> list:
        self.at += 1_000
        events = self.table.act(seat, action, at=self.at)
        self.events += events
        return events

    def step(self) -> None:
        """One random answer to one open blocking prompt (never a bargaining payment)."""
        open_ = [p for p in self.table.state.prompts if p.blocking]
        p = self.rng.choice(open_)
        listed = choices(self.table, p)
        self.act(p.seat, self.rng.choice([o for o in listed if o.type != "pay"] or listed))

    def until(self, done, limit: int = 6_000) -> bool:
        for _ in range(limit):
            if self.table.state.finished:
                return False
            if done(self.table.state):
                return True
            self.step()
        raise AssertionError("the game did not end")

    def replayed(self):
        return replay("queens-dilemma", len(self.table.state.seats), self.seed, self.table.log,
                      options=self.options, campaign=self.camp)


def holding(kind: str, enough: int = 4):
    """A councilor holds a blocking decision of `kind`, with `enough` present to leave."""
    def done(state) -> bool:
        return sum(not c.absent for c in state.councilors) >= enough and any(
            p.kind == kind and p.blocking for p in state.prompts)
    return done


def figures(holder) -> tuple:
    """The figures QD-117 freezes, of a councilor or a Diary."""
    return dict(holder.resources), holder.hegemony, holder.independence, holder.infamy


def leave_while(kind: str, seeds=range(200), early: bool = False):
    """A game in which a councilor leaves while holding a decision of `kind` (`early`: with
    rounds still to play)."""
    for seed in seeds:
        game = Game(seed, first_game=True if kind == "region" else None)
        if game.until(holding(kind)) and (not early or (game.table.state.phase not in ("end", "cleanup")
                                                         and len(game.table.state.round_counter) < 5)):
            return game, next(p for p in game.table.state.prompts if p.kind == kind and p.blocking)
    raise AssertionError(f"no game came to a {kind!r} decision")


def test_skipping_is_a_setting_only_games_with_absence_rules_offer():
    """`absent_seats` is offered to The Queen's Dilemma, whose rules say how a game goes on
    without a player; no other game takes it. By default a bot plays an away seat."""
    registry = default_registry()
    assert "absent_seats" in kernel_options(registry.game("queens-dilemma"))
    for game in ("new-capital", "arcs", "blighted-reach"):
        assert "absent_seats" not in kernel_options(registry.game(game))
    with pytest.raises(BadOption, match="absent_seats"):
        create_table("new-capital", 2, options=SKIP)
    with pytest.raises(BadOption):
        start(campaign(4), options={"absent_seats": "sometimes"})
    plain = start(campaign(4), seed=3)
    seat = next(p.seat for p in plain.state.prompts if p.blocking)
    taken = plain.act(seat, AWAY, at=5)[0]
    assert taken.data == {"seat": seat, "by": "bot", "reason": "host"}
    assert clock.waiting_for_bot(plain.state) == [seat]  # the bot is to answer for it


def test_the_host_marks_a_seat_away_on_a_table_without_a_clock():
    """No clock: marking a seat away opens an untimed account (away marks only); the seat's
    clock entry says it is not timed and is skipped."""
    table = start(campaign(4), seed=3, options=SKIP)
    assert clock.KEY not in table.state.module_state
    seat = next(p.seat for p in table.state.prompts if p.blocking)
    assert table.act(seat, AWAY, at=5)[0].data["by"] == "skip"
    shown = clock.public(clock.account(table.state), 10)
    assert shown[seat] == {"seat": seat, "remaining_ms": 0, "running": False, "away": True, "timed": False,
                           "skipped": True}
    assert clock.deadline(table.state) is None and clock.expired(table.state, 10**12) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_councilor_who_leaves_takes_no_further_part(kind):
    """QD-116, QD-117, QD-118, QD-119, QD-124 for a councilor leaving during a game, while
    holding each kind of decision: nothing of theirs stays open and none opens for them; the
    game ends without a bot playing them; from leaving to the end they gain and lose no
    Resources, Hegemony, Independence or Infamy and no group effect targets them; a Leader or
    Moderator token of theirs is with a present player; a choice the rules still need (a
    Building's Region, a first-game Region) is the Leader's, a tie-break the new Moderator's,
    and lands on them; a Crossroad waits in their Treasury. Still away at the end: the game
    counts as missed. A replay of the log rebuilds the same state."""
    game, prompt = leave_while(kind)
    seat, state = prompt.seat, game.table.state
    before = figures(state.councilors[seat])
    missed = state.campaign.diaries[seat].missed
    events = game.act(seat, AWAY)
    assert events[0].data == {"seat": seat, "by": "skip", "reason": "host"}
    state = game.table.state
    assert state.councilors[seat].absent and clock.skipped(clock.account(state), seat)
    assert seat not in (state.leader, state.moderator)
    if kind in ("build", "region"):
        handed = next(p for p in state.prompts if p.id == prompt.id)
        assert handed.seat == state.leader and handed.args["owner"] == seat
    if kind in ("break_tie", "choose_leader") and any(p.id == prompt.id for p in state.prompts):
        assert next(p for p in state.prompts if p.id == prompt.id).seat == state.moderator
    if kind == "crossroad":
        assert prompt.args["code"] in [a.code for a in state.campaign.diaries[seat].agendas]
    left_at = len(game.events)
    while not state.finished:
        assert not [p for p in state.prompts if p.seat == seat], [p.kind for p in state.prompts if p.seat == seat]
        assert clock.waiting_for_bot(state) == []
        game.step()
        state = game.table.state
    after = game.events[left_at:]
    if kind != "region":  # (the first game's Campaign Setup seat bonuses come after a Region pick)
        assert figures(state.campaign.diaries[seat]) == before, "QD-117"
    for e in after:
        if e.type == "box":
            assert seat not in e.data["seats"] or e.data["target"] not in (
                "players", "winners", "majority", "minority", "leader", "moderator", "buildings"), "QD-118"
    if kind in ("build", "region"):
        placed = [e.data for e in after if e.type in ("building", "region") and e.data["seat"] == seat]
        assert placed, "the Leader's choice lands on the absent councilor"
    assert state.campaign.diaries[seat].missed == missed + 1
    broken = default_registry().rules_for("queens-dilemma", []).hook.conclave_check_invariants(state=state)
    assert not any(broken), broken
    assert encode_msgpack(game.replayed().state) == encode_msgpack(state)


def test_a_councilor_who_comes_back_takes_part_again_and_has_not_missed_the_game():
    """Back before the end (`resume`): left on their voting turn, they pass that vote, and
    vote again in a later one; the game is not counted as missed."""
    game, prompt = leave_while("vote", early=True)
    seat = prompt.seat
    votes = len(game.table.state.votes)
    missed = game.table.state.campaign.diaries[seat].missed
    game.act(seat, AWAY)
    game.step()
    returned = game.act(seat, RESUME)
    assert [e.type for e in returned][:2] == ["returned", "councilor_back"]
    state = game.table.state
    assert not state.councilors[seat].absent and not clock.skipped(clock.account(state), seat)
    assert game.until(lambda s: len(s.votes) > votes and any(p.seat == seat and p.kind == "vote" for p in s.prompts))
    assert game.table.state.votes[votes]["tiles"][seat]["side"] == "pass"
    game.until(lambda s: False)
    assert game.table.state.campaign.diaries[seat].missed == missed
    assert encode_msgpack(game.replayed().state) == encode_msgpack(game.table.state)


def test_a_crossroad_placed_in_the_treasury_while_away_is_chosen_on_return():
    """A Crossroad Agenda is placed in an absent councilor's Treasury (the Absences' rule for
    Agendas); back, the choice of its option is theirs."""
    game, prompt = leave_while("crossroad")
    seat, code = prompt.seat, prompt.args["code"]
    game.act(seat, AWAY)
    assert code in [a.code for a in game.table.state.campaign.diaries[seat].agendas]
    game.act(seat, RESUME)
    asked = next(p for p in game.table.state.prompts if p.seat == seat and p.kind == "crossroad")
    assert asked.args["code"] == code
    game.act(seat, choices(game.table, asked)[0])
    assert code not in [a.code for a in game.table.state.campaign.diaries[seat].agendas]
    assert code in game.table.state.campaign.trashed
    game.until(lambda s: False)
    assert encode_msgpack(game.replayed().state) == encode_msgpack(game.table.state)


def test_a_crossroad_held_while_away_is_chosen_at_the_next_game_they_attend():
    """A councilor still away at the end keeps the Crossroad in their Treasury; at the next
    game they attend it is theirs to choose, during its setup."""
    game, prompt = leave_while("crossroad")
    seat, code = prompt.seat, prompt.args["code"]
    game.act(seat, AWAY)
    game.until(lambda s: False)
    saved = default_registry().rules_for("queens-dilemma", [])
    camp = {}
    saved.hook.conclave_campaign_save(state=game.table.state, campaign=camp)
    assert code in [a["code"] for a in camp["diaries"][seat]["agendas"]]
    nxt = start(camp, seed=5)
    following = Game.__new__(Game)
    following.table, following.rng, following.at, following.events = nxt, random.Random(5), 0, list(nxt.events)
    assert following.until(lambda s: any(p.seat == seat and p.kind == "crossroad" for p in s.prompts))


def test_with_three_left_the_seat_is_not_skipped_and_the_bot_plays_it():
    """A game goes on without a player only while 3 remain: with 3 present, a fourth away
    from the start, a councilor who leaves is played by the table's bot."""
    table = start(campaign(4), seed=4, options={**SKIP, "absent": [3]})
    seat = next(p.seat for p in table.state.prompts if p.blocking)
    taken = table.act(seat, AWAY, at=5)
    assert taken[0].data["by"] == "bot" and len(taken) == 1
    assert not table.state.councilors[seat].absent
    assert clock.waiting_for_bot(table.state) == [seat]
