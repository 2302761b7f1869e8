"""The search bot (core/search_bot.py) and its determinizations (core/determinize.py).

What must hold: a decision depends only on the deciding seat's view and the bot's seed.
A state and a copy whose hidden parts are replaced (other hands swapped with unseen cards,
decks reordered, the table's seed and RNG changed) give byte-identical samples and the
same decision. With a node budget the bot repeats itself exactly; it beats the random bot
in a small fixed sample; a game without a score hook gets random play."""
from __future__ import annotations

import random

import pytest

from core import create_table
from core.bot import RandomBot, make_bot, next_seat, play_match
from core.determinize import redeal, rename_pending, sample_hidden
from core.engine import legal_actions, view
from core.errors import BadOption
from core.search_bot import Budget, SearchBot, can_search
from core.state import copy_state, encode_state
from plugins.new_capital.content import pack_for

NODES = Budget(nodes=150)


def states_to_decide(game: str, players: int, seed: int, every: int, count: int):
    """(table, seat) at `count` points of a random game where a seat has a real choice."""
    table = create_table(game, players, seed=seed)
    bot, order = RandomBot(seed), random.Random(seed)
    found, actions = [], 0
    while not table.state.finished and len(found) < count:
        seat = next_seat(table.state, order)
        if actions % every == 0 and len(table.legal(seat)) > 1:
            found.append((copy_state(table.state), seat))
        table.act(seat, bot.decide(table.rules, table.state, seat))
        actions += 1
    return table.rules, found


def swap(a: list, b: list, i: int = 0, j: int = 0) -> None:
    if len(a) > i and len(b) > j:
        a[i], b[j] = b[j], a[i]


def other_new_capital(state, seat):
    """The same view for `seat`, other hidden contents: another seat's hand card swapped with
    its deck, every deck reversed, a crisis swapped with an unused one of its level, another
    seat's draft offer swapped with a boxed draft leader, the seed and RNG changed."""
    pk = pack_for(state.pack)
    s = copy_state(state)
    for p in s.players:
        p.deck.reverse()
        if p.seat != seat:
            swap(p.hand, p.deck, 0, len(p.deck) // 2)
            boxed = [i for i, c in enumerate(s.box) if c in pk.leaders and pk.leaders[c].draft]
            if p.draft_offer and boxed:
                swap(p.draft_offer, s.box, 0, boxed[0])
    for row in s.rows.values():
        row.deck.reverse()
    s.hunger_deck.reverse()
    for i, crisis in enumerate(s.crisis_deck):
        same = [j for j, c in enumerate(s.box) if c in pk.crises and pk.crises[c].level == pk.crises[crisis].level]
        if same:
            swap(s.crisis_deck, s.box, i, same[-1])
    s.box.reverse()
    s.seed, s.rng = s.seed + 1, s.rng ^ 0x5DEECE66D
    return s


def other_arcs(state, seat):
    """The same view for `seat`: other hands swapped with the face-down discard, the discard,
    deck and Court deck reordered, a face-down card swapped (and the pending step naming it),
    the seed and RNG changed."""
    s = copy_state(state)
    for i, hand in enumerate(s.hands):
        if i != seat:
            swap(hand, s.action_discard, 0, len(s.action_discard) // 2)
    s.action_discard.reverse()
    s.action_deck.reverse()
    s.court_deck.reverse()
    if s.facedown and s.action_discard:  # the pending turn of a Copy names its card
        was, now = s.facedown[0], s.action_discard[0]
        swap(s.facedown, s.action_discard)
        rename_pending(s, {was: now})
    s.seed, s.rng = s.seed + 1, s.rng ^ 0x5DEECE66D
    return s


CASES = [("new-capital", 2, other_new_capital), ("arcs", 3, other_arcs)]


@pytest.mark.parametrize("game,players,other", CASES)
def test_a_sample_depends_on_the_view_alone(game, players, other):
    """The variant shows the seat the same view yet differs in its bytes; both sample to
    byte-identical states for the same bot RNG."""
    rules, found = states_to_decide(game, players, seed=5, every=7, count=12)
    assert len(found) == 12
    differing = 0
    for state, seat in found:
        variant = other(state, seat)
        assert view(rules, variant, seat) == view(rules, state, seat)
        differing += encode_state(variant) != encode_state(state)
        a = sample_hidden(rules, state, seat, random.Random(3))
        b = sample_hidden(rules, variant, seat, random.Random(3))
        assert encode_state(a) == encode_state(b)
        assert encode_state(a) != encode_state(state)  # the hidden parts were redrawn
    assert differing == len(found)


@pytest.mark.parametrize("game,players,other", CASES)
def test_the_decision_is_the_same_with_the_hidden_parts_replaced(game, players, other):
    """The issue's proof that the bot never reads hidden information: the same decisions on
    the true states and on states with other hidden contents."""
    rules, found = states_to_decide(game, players, seed=9, every=11, count=10)
    for state, seat in found:
        mine = SearchBot(seed=4, budget=NODES).decide(rules, state, seat)
        theirs = SearchBot(seed=4, budget=NODES).decide(rules, other(state, seat), seat)
        assert mine == theirs
        assert mine in legal_actions(state, seat, rules)


def test_a_node_budget_repeats_exactly_and_is_kept():
    rules, found = states_to_decide("arcs", 3, seed=2, every=13, count=4)
    for state, seat in found:
        first, again = SearchBot(seed=1, budget=NODES), SearchBot(seed=1, budget=NODES)
        assert first.decide(rules, state, seat) == again.decide(rules, state, seat)
        assert first.nodes == again.nodes
        # a try (the candidate plus its rollout) may finish past the budget
        assert first.nodes <= NODES.nodes + 1 + first.depth


def test_the_search_does_not_change_the_state_it_decides_on():
    rules, found = states_to_decide("new-capital", 2, seed=4, every=9, count=3)
    for state, seat in found:
        before = encode_state(state)
        SearchBot(seed=0, budget=NODES).decide(rules, state, seat)
        assert encode_state(state) == before


def test_a_cpu_budget_bounds_a_decision():
    import time

    rules, found = states_to_decide("arcs", 3, seed=3, every=17, count=3)
    bot = SearchBot(seed=0, budget=Budget(cpu_ms=20))
    for state, seat in found:
        t0 = time.process_time()
        bot.decide(rules, state, seat)
        assert time.process_time() - t0 < 0.030  # 20 ms and the listing of the actions
        assert bot.nodes > 0


@pytest.mark.parametrize("game,players,opponents", [("new-capital", 2, 1), ("arcs", 3, 2)])
def test_the_search_bot_beats_random_bots_in_a_fixed_sample(game, players, opponents):
    """Smoke version of benchmarks/bot_strength.py: four fixed games, seat rotated, a small
    node budget; the search bot wins each (measured margins: see the benchmark)."""
    wins = 0
    for g in range(4):
        me = g % players
        bots = [RandomBot(100 + 10 * g + s) for s in range(players)]
        bots[me] = SearchBot(seed=g, budget=Budget(nodes=60))
        table = play_match(game, bots, seed=500 + g)
        wins += me in table.state.result["winners"]
    assert wins == 4


def test_redeal_depends_on_the_pool_not_on_where_its_cards_were():
    a, b = ["x", "y"], ["z"]
    c, d = ["z", "x"], ["y"]
    renamed = redeal(random.Random(8), [(a, range(2)), (b, range(1))])
    redeal(random.Random(8), [(c, range(2)), (d, range(1))])
    assert (a, b) == (c, d)
    assert sorted(renamed) == ["x", "y", "z"] and sorted(renamed.values()) == ["x", "y", "z"]


def test_the_bot_option_chooses_the_bot_and_is_checked():
    table = create_table("arcs", 3, seed=1, options={"bot": "search", "bot_budget_ms": 25})
    bot = make_bot(table.rules, table.state.options, seed=1)
    assert isinstance(bot, SearchBot) and bot.budget.cpu_ms == 25
    assert isinstance(make_bot(table.rules, {}, seed=1), RandomBot)
    assert "bot" not in create_table("arcs", 3, seed=1).state.options  # kept only when given
    with pytest.raises(BadOption):
        create_table("arcs", 3, seed=1, options={"bot": "clever"})
    with pytest.raises(BadOption):
        create_table("arcs", 3, seed=1, options={"bot_budget_ms": 7})


def test_a_game_without_a_score_hook_gets_random_play(monkeypatch):
    """Nim (a third-party test game) declares neither hook: the search bot plays a legal
    action with no search at all, as the random bot does."""
    from pathlib import Path

    from core.plugins import Registry

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "thirdparty" / "parlour_games"))
    registry = Registry(["conclave_parlour.nim"], load_entry_points=False)
    table = create_table("nim", 2, seed=1, registry=registry)
    assert not can_search(table.rules)
    bot = SearchBot(seed=3, budget=NODES)
    while not table.state.finished:
        seat = next_seat(table.state, random.Random(0))
        table.act(seat, bot.decide(table.rules, table.state, seat))
        assert bot.nodes == 0


@pytest.mark.parametrize("game,players,modules", [("new-capital", 3, ["guildmasters"]),
                                                   ("arcs", 3, ["leaders-and-lore"])])
def test_a_module_that_samples_none_of_its_hidden_parts_leaves_the_table_unsampled(game, players, modules):
    """The Guildmasters deck, the Lore deck: a module answering no `conclave_sample_hidden`
    would leave its hidden cards where the true state has them, so the search bot must not
    search that table at all; it plays legal actions without a single search step."""
    table = create_table(game, players, seed=2, modules=modules)
    seat = next_seat(table.state, random.Random(0))
    assert sample_hidden(table.rules, table.state, seat, random.Random(1)) is None
    assert sample_hidden(create_table(game, players, seed=2).rules, table.state, seat, random.Random(1)) is not None
    bot = SearchBot(seed=3, budget=NODES)
    table.act(seat, bot.decide(table.rules, table.state, seat))
    assert bot.nodes == 0


def test_play_game_seats_the_bots_the_table_names():
    """`simulate --bot search`: one search bot per seat, invariants and hidden information
    checked after every action (core.secrets), the game played to its end."""
    from core.bot import play_game

    played = play_game("new-capital", 2, seed=3, options={"bot": "search", "bot_budget_ms": 10},
                       check_invariants=True, check_hidden=True)
    assert played.table.state.finished and not played.invariant_errors
    assert played.table.state.options["bot"] == "search"
