"""A typed decision answered by several action types, through the test-only game
tests/core/turn_lab.py (bid, fold, or play a card a hook names): every listed answer is
accepted as listed, the resume step gets the type sent, and a wrong type, malformed params
or a stale answer is refused with a typed error that changes nothing (fuzzed with
hypothesis). Also the registration rules and the single-answer form kept as it was."""
from __future__ import annotations

import copy
import json

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from core import Action, Registry, create_table
from core.decisions import DecisionTable
from core.engine import Table, answer_types, legal_actions
from core.errors import ActionRejected, BadParameter, EngineError, IllegalAction
from core.flow import Ctx
from core.groups import collect
from core.state import copy_state, encode_state
from tests.core import kernel_lab, turn_lab


@pytest.fixture(scope="module")
def registry():
    return Registry([turn_lab], load_entry_points=False)


def lab(registry, players=3) -> Table:
    return create_table("turn-lab", players, seed=1, registry=registry)


def test_the_listed_answers_are_every_type_in_the_generators_order_and_each_is_accepted(registry):
    """legal_actions lists bids, the fold and the hook's playable cards, in that order; each
    one is accepted unchanged and its step receives its own params type."""
    t = lab(registry)
    listed = legal_actions(t.state, 0, t.rules)
    assert listed == [Action("bid", {"n": n}) for n in (1, 2, 3)] + [Action("fold")] + \
        [Action("play", {"card": c}) for c in ("fox", "owl")]  # elk costs 4 of seat 0's 3 coins
    assert answer_types(t.rules, t.state.prompts[0]) == {"bid", "fold", "play"}
    for action in listed:
        trial = Table(rules=t.rules, state=copy_state(t.state))
        events = trial.act(0, action)
        assert [e.data["answer"] for e in events if e.type == "turn"] == [action.type]


def test_an_undeclared_type_is_an_illegal_action_naming_the_declared_ones(registry):
    t = lab(registry)
    before = encode_state(t.state)
    with pytest.raises(IllegalAction) as caught:
        t.act(0, Action("raise", {"n": 2}))
    assert "bid" in caught.value.message and "fold" in caught.value.message and "play" in caught.value.message
    assert encode_state(t.state) == before


@pytest.mark.parametrize("action", [Action("bid", {"n": "2"}), Action("bid", {"n": True}), Action("bid", {}),
                                    Action("fold", {"n": 1}), Action("play", {"card": 3}),
                                    Action("bid", {"n": 2, "extra": 0}), Action("play", {})])
def test_malformed_params_of_any_answer_type_are_a_bad_parameter(registry, action):
    """Each answer type decodes to its own params type: a wrong value type, a missing or an
    unknown field is refused before the validator runs, and nothing changes."""
    t = lab(registry)
    before = encode_state(t.state)
    with pytest.raises(BadParameter):
        t.act(0, action)
    assert encode_state(t.state) == before


def test_stale_answers_are_refused_once_the_state_moved(registry):
    """A bid listed before the standing bid rose, and a card listed before the coins to pay
    for it went, are refused after (both moved here as another rule's effect would): the
    validator reads the state, and the hook, when the answer comes."""
    t = lab(registry)
    t.act(0, Action("bid", {"n": 1}))
    listed = legal_actions(t.state, 1, t.rules)
    assert Action("bid", {"n": 2}) in listed and Action("play", {"card": "elk"}) in listed  # 4 coins, elk costs 4
    t.state.bid = 3
    t.state.coins[1] = 2
    before = encode_state(t.state)
    for stale in (Action("bid", {"n": 2}), Action("play", {"card": "elk"})):
        with pytest.raises(BadParameter):
            t.act(1, stale)
        assert stale not in legal_actions(t.state, 1, t.rules)
    assert encode_state(t.state) == before
    t.act(1, Action("play", {"card": "owl"}))
    assert t.state.coins[1] == 0 and t.state.hands[1] == ["fox", "elk"]


values = st.none() | st.booleans() | st.integers(-2, 7) | st.text(max_size=3) | st.sampled_from(
    ["fox", "owl", "elk", "wolf"])
answers = st.tuples(st.sampled_from(["bid", "fold", "play", "pass", ""]),
                    st.fixed_dictionaries({}, optional={"n": values, "card": values, "extra": values}))


def _exact(action: Action) -> str:
    return json.dumps(msgspec.to_builtins(action), sort_keys=True)  # True == 1 in Python, not in an answer


@pytest.fixture(scope="module")
def mid_game(registry):
    t = lab(registry)
    t.act(0, Action("bid", {"n": 1}))
    t.act(1, Action("play", {"card": "fox"}))
    return t


@settings(max_examples=400, deadline=None)
@given(answer=answers)
def test_any_answer_is_refused_with_a_typed_error_and_no_change_or_is_a_listed_one(mid_game, answer):
    """Fuzzed type and params: refused with an ActionRejected (IllegalAction for a type the
    decision does not declare) leaving the state as it was, or accepted and then exactly one
    of the listed answers."""
    t = mid_game
    seat = t.state.prompts[0].seat
    action = Action(*answer)
    listed = {_exact(a) for a in legal_actions(t.state, seat, t.rules)}
    before = copy.deepcopy(t.state)
    try:
        Table(rules=t.rules, state=copy_state(t.state)).act(seat, action)
    except ActionRejected as exc:
        assert t.state == before and _exact(action) not in listed
        if action.type not in ("bid", "fold", "play"):
            assert isinstance(exc, IllegalAction)
    else:
        assert _exact(action) in listed


# -- registration and the single-answer form ---------------------------------------------
class A(msgspec.Struct):
    n: int


class B(msgspec.Struct):
    n: int


def test_a_decision_is_declared_one_way_with_a_params_type_per_answer():
    table = DecisionTable("t")
    with pytest.raises(EngineError):
        table.kind("both", answer="a", params=A, answers={"b": B})(lambda *a: None)
    with pytest.raises(EngineError):
        table.kind("shared", answers={"a": A, "b": A})(lambda *a: None)  # the step could not tell them apart
    with pytest.raises(EngineError):
        table.kind("none", answers={})(lambda *a: None)
    with pytest.raises(EngineError):
        table.kind("half", answer="a")(lambda *a: None)
    several = table.kind("several", answers={"a": A, "b": B})(lambda *a: None)
    with pytest.raises(EngineError):
        several.answer  # noqa: B018 - reading it is the test
    with pytest.raises(EngineError):
        several.listed(None, 0, None)


def test_the_single_answer_form_keeps_its_validator_candidates_and_attributes():
    """answer=/params=: a 4-argument validator, params dicts from the generator, `answer`,
    `params` and `listed` as before, and the candidates also as actions."""
    seen = []
    table = DecisionTable("t")

    @table.kind("one", answer="a", params=A)
    def one(state, seat, prompt, answer):
        seen.append(answer)
        if answer.n > 2:
            raise BadParameter("at most 2")

    @one.candidates
    def _(state, seat, prompt):
        yield {"n": 1}
        yield {"n": 2}

    assert (one.answer, one.params, one.answers) == ("a", A, {"a": A})
    assert one.listed(None, 0, None) == [{"n": 1}, {"n": 2}]
    assert one.actions(None, 0, None) == [Action("a", {"n": 1}), Action("a", {"n": 2})]
    assert one.check(None, 0, None, {"n": 2}) == A(n=2) and seen == [A(n=2)]
    with pytest.raises(BadParameter):
        one.check(None, 0, None, {"n": 3})
    with pytest.raises(IllegalAction):
        one.check(None, 0, None, {"n": 1}, type="b")


def test_a_decision_that_reads_hooks_is_refused_without_them(registry):
    t = lab(registry)
    decision = t.rules.decisions["tlab.turn"]
    with pytest.raises(EngineError):
        decision.actions(t.state, 0, t.state.prompts[0])
    with pytest.raises(EngineError):
        legal_actions(t.state, 0)  # no rules: no decisions to ask


def test_a_collect_group_refuses_a_decision_of_several_answer_types():
    """A collect group holds answers as plain data, which would lose the type sent."""
    registry = Registry([kernel_lab, turn_lab], load_entry_points=False)
    t = create_table("turn-lab", 3, seed=1, registry=registry)
    with pytest.raises(EngineError):
        collect(Ctx(t.state, t.rules), [0, 1], "turn", None, kernel_lab.pledged, decision="tlab.turn")
