"""The kernel's prompt groups and typed decisions, through the test-only game
tests/core/kernel_lab.py: a secret `collect` of four seats, a `consent` deal touching three
seats, and a typed decision judged by its validator (fuzzed with hypothesis)."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from core import Action, Registry, create_table, view_events
from core.engine import legal_actions
from core.engine import Table
from core.errors import ActionRejected
from core.state import copy_state
from tests.core import kernel_lab


@pytest.fixture(scope="module")
def registry():
    return Registry([kernel_lab], load_entry_points=False)


def lab(registry, players=4):
    return create_table("kernel-lab", players, seed=3, registry=registry)


def everything_seen(t, events) -> dict:
    """Every viewer's view and events, as text, keyed by viewer."""
    out = {}
    for viewer in [None, *range(len(t.state.seats))]:
        out[viewer] = json.dumps([t.view(viewer), view_events(events, viewer)], sort_keys=True)
    return out


def pledges_then(t, answers: dict[int, int]):
    seen = []
    for seat, n in answers.items():
        t.act(seat, Action("pledge", {"n": n}))
        seen.append((seat, everything_seen(t, t.events)))
    return seen


def test_collect_reveals_nothing_until_the_last_answer_then_everything(registry):
    """A collect group of 4 seats: before the last answer no view or event shows any other
    seat's pledge (each seat sees its own); the last answer reveals all four at once."""
    t = lab(registry)
    assert sorted(p.seat for p in t.state.prompts) == [0, 1, 2, 3] and len(t.state.groups) == 1
    answers = {2: 3, 0: 1, 3: 2}
    for answered, seen in pledges_then(t, answers):
        for viewer, text in seen.items():
            data = json.loads(text)
            group = data[0]["groups"][0]
            assert group["answered"] == sorted(s for s in answers if list(answers).index(s) <= list(answers).index(answered))
            assert ("mine" in group) == (viewer in answers and list(answers).index(viewer) <= list(answers).index(answered))
            assert data[0]["pledges"] == {} and data[0]["coins"] == [5, 5, 5, 5]
            for event in data[1]:
                assert event["type"] in ("answered", "action")
                secret = event["data"].get("action") or event["data"].get("answers")
                assert secret is None or viewer == answered  # only the answering seat sees its pledge
    t.act(1, Action("pledge", {"n": 0}))
    for viewer in [None, 0, 1, 2, 3]:
        revealed = [e for e in view_events(t.events, viewer) if e["type"] == "revealed"]
        assert revealed[0]["data"]["answers"] == {"0": {"n": 1}, "1": {"n": 0}, "2": {"n": 3}, "3": {"n": 2}}
        assert t.view(viewer)["coins"] == [4, 5, 2, 3] and t.view(viewer)["groups"] == []


def after_pledges(registry):
    t = lab(registry)
    for seat in range(4):
        t.act(seat, Action("pledge", {"n": 0}))
    return t


DEAL = {"kind": "deal", "deal": {"parts": [{"giver": 1, "taker": 0, "coins": 2}, {"giver": 0, "taker": 2, "coins": 1},
                                           {"giver": 3, "taker": 0, "coins": 1}]}}


def test_consent_takes_effect_only_when_all_three_accept_at_once(registry):
    """A consent proposal affecting seats 1-3 changes nothing while any of them has not
    accepted, then applies every part in the one action of the last acceptance."""
    t = after_pledges(registry)
    t.act(0, Action("move", DEAL))
    group = t.state.groups[0]
    assert group.mode == "consent" and group.seats == [1, 2, 3]
    consent = lambda seat, yes: Action("consent", {"proposal": group.id, "accept": yes})
    t.act(2, consent(2, True))
    t.act(1, consent(1, True))
    assert t.state.coins == [5, 5, 5, 5] and sorted(t.state.groups[0].accepted) == [1, 2]
    before = t.state.version
    t.act(3, consent(3, True))
    assert t.state.coins == [7, 3, 6, 4] and t.state.version == before + 1
    assert t.state.groups == [] and not [p for p in t.state.prompts if p.kind == "consent"]


@pytest.mark.parametrize("ender", ["decline", "withdraw"])
def test_a_declined_or_withdrawn_deal_leaves_no_trace(registry, ender):
    """One decline (after another seat accepted), or the proposer's withdrawal, drops the
    deal: the state is the one before the proposal, but for the version and prompt ids."""
    t = after_pledges(registry)
    before = copy.deepcopy(t.state)
    t.act(0, Action("move", DEAL))
    gid = t.state.groups[0].id
    t.act(1, Action("consent", {"proposal": gid, "accept": True}))
    if ender == "decline":
        t.act(3, Action("consent", {"proposal": gid, "accept": False}))
    else:
        t.act(0, Action("withdraw", {"proposal": gid}))
    assert t.state.groups == [] and t.state.coins == before.coins
    strip = lambda s: {k: v for k, v in json.loads(json.dumps(__import__("msgspec").to_builtins(s))).items()
                       if k not in ("version", "next_prompt_id", "prompts", "rng")}
    assert strip(t.state) == strip(before)
    assert [p.kind for p in t.state.prompts] == ["lab.move"]


def test_every_listed_answer_is_accepted_unchanged(registry):
    """legal_actions of a typed decision lists generated candidates; each is accepted by act."""
    t = after_pledges(registry)
    listed = legal_actions(t.state, 0, t.rules)
    assert {"kind": "end"} in [a.params for a in listed]
    assert any(a.params["kind"] == "spread" for a in listed) and any(a.params["kind"] == "deal" for a in listed)
    for action in listed:
        trial = Table(rules=t.rules, state=copy_state(t.state))
        trial.act(0, action)


answers = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["1", "2", "3", "9", "x"]), inner, max_size=3),
    max_leaves=8,
)
moves = st.fixed_dictionaries({"kind": st.sampled_from(["end", "deal", "spread", "other"])},
                              optional={"deal": st.fixed_dictionaries({"parts": st.lists(
                                  st.fixed_dictionaries({"giver": st.integers(-1, 4), "taker": st.integers(-1, 4),
                                                         "coins": st.integers(-1, 9)}), max_size=3)}) | answers,
                                        "spread": st.fixed_dictionaries({"hits": st.dictionaries(
                                            st.sampled_from(["0", "1", "2", "3", "4", "a"]), st.integers(-1, 3),
                                            max_size=4)}) | answers,
                                        "extra": answers})


@settings(max_examples=300, deadline=None)
@given(params=moves)
def test_validator_refuses_every_bad_answer_with_a_typed_error_and_changes_nothing(registry_for_hypothesis, params):
    """Malformed, out-of-domain and impossible answers are refused with an ActionRejected and
    the state does not move; an accepted answer is a legal one (a spread or the end is one the
    generator lists in full; a deal keeps to the deal rules)."""
    t = registry_for_hypothesis
    before = copy.deepcopy(t.state)
    listed = [a.params for a in legal_actions(t.state, 0, t.rules)]
    try:
        t2 = Table(rules=t.rules, state=copy_state(t.state))
        t2.act(0, Action("move", params))
    except ActionRejected:
        assert t.state == before
        assert params not in listed
    else:  # accepted: spreads and the end are listed in full; a deal must be one the rules allow
        if params["kind"] == "deal":
            parts = params["deal"]["parts"]
            assert set(params) == {"kind", "deal"} and parts
            assert all(0 in (p["giver"], p["taker"]) and p["giver"] != p["taker"] and p["coins"] >= 1
                       and 0 <= p["giver"] < 4 and 0 <= p["taker"] < 4 for p in parts)
            assert all(sum(p["coins"] for p in parts if p["giver"] == s) <= t.state.coins[s] for s in range(4))
        else:
            assert params in listed


@pytest.fixture(scope="module")
def registry_for_hypothesis(registry):
    return after_pledges(registry)


def test_a_stale_answer_is_refused_once_the_state_moved(registry):
    """A spread valid before is refused after the shields changed: nothing is matched against
    stored options."""
    t = after_pledges(registry)
    spread = {"kind": "spread", "spread": {"hits": {"1": 2, "3": 1}}}
    t.act(0, Action("move", spread))
    with pytest.raises(ActionRejected):
        t.act(0, Action("move", spread))  # seat 1 has no shield left now
