"""Views are built from an allow-list: the kernel's visible fields plus the fields a game's
state type declares `visible`; the seed, the RNG state, pending steps and the prompt counter
never reach a viewer, and a field nobody declared stays hidden."""
from __future__ import annotations

from typing import ClassVar

import pytest

from core import create_table
from core.engine import KERNEL_VISIBLE, view, view_fields
from core.state import TableState
from plugins.new_capital.state import NewCapitalState
from plugins.queens_dilemma.state import QDState

HIDDEN = ("seed", "rng", "stack", "next_prompt_id", "format")  # format: the server's storage detail
REDACTED = ("groups",)  # prompt groups: shown per viewer by core.engine.group_view, never whole


@pytest.mark.parametrize("game,players", [("new-capital", 2), ("new-capital", 4), ("queens-dilemma", 4)])
def test_no_view_holds_the_seed_or_the_rng_state(game, players):
    table = create_table(game, players, seed=7_123_456_789_012_345)
    assert table.state.rng and table.state.stack is not None
    for viewer in [None, *range(players)]:
        data = table.view(viewer)
        assert not set(HIDDEN) & set(data), viewer
        text = repr(data)
        assert "7123456789012345" not in text and str(table.state.rng) not in text


def test_kernel_allow_list_leaves_out_seed_rng_stack_and_prompt_counter():
    assert not set(HIDDEN) & set(KERNEL_VISIBLE)
    assert not set(REDACTED) & set(KERNEL_VISIBLE)
    assert set(KERNEL_VISIBLE) | set(HIDDEN) | set(REDACTED) == set(TableState.__struct_fields__)


def test_every_game_field_is_declared_visible_or_deliberately_hidden():
    """Today's games show every field of their own (their views redact per seat)."""
    for state_type in (NewCapitalState, QDState):
        own = set(state_type.__struct_fields__) - set(TableState.__struct_fields__)
        assert set(view_fields(state_type)) == set(KERNEL_VISIBLE) | own


class _Extended(NewCapitalState, kw_only=True):
    """A game that adds a field without declaring it: the field stays out of views."""

    shuffle_key: int = 0


def test_a_new_field_is_hidden_until_its_game_declares_it():
    fields = view_fields(_Extended)
    assert "shuffle_key" not in fields and "players" in fields  # the parent's declaration still holds
    table = create_table("new-capital", 2, seed=3)
    extended = _Extended(**{f: getattr(table.state, f) for f in NewCapitalState.__struct_fields__},
                         shuffle_key=987654321)
    for viewer in (None, 0, 1):
        data = view(table.rules, extended, viewer)
        assert "shuffle_key" not in data and "987654321" not in repr(data)
        assert data == view(table.rules, table.state, viewer)


class _Declares(TableState, kw_only=True):
    visible: ClassVar[tuple[str, ...]] = ("nope",)


class _DeclaresKernel(TableState, kw_only=True):
    visible: ClassVar[tuple[str, ...]] = ("seed",)


def test_declaring_an_unknown_or_a_kernel_field_is_a_programming_error():
    with pytest.raises(TypeError, match="unknown fields: nope"):
        view_fields(_Declares)
    with pytest.raises(TypeError, match="kernel fields: seed"):
        view_fields(_DeclaresKernel)


def test_view_still_redacts_other_seats_prompts():
    table = create_table("new-capital", 2, seed=3)
    mine = view(table.rules, table.state, 0)["prompts"]
    assert all(("options" in p) == (p["seat"] == 0) for p in mine)


def test_logged_events_are_redacted_by_the_same_rule_as_live_ones():
    """The log and subscriptions redact stored events with `core.view_events` itself: the
    plain form (`msgspec.to_builtins`, defaults left out) gives each viewer the same as the
    kernel's `Event`s."""
    import msgspec

    from core.engine import view_events
    from core.state import Event

    events = [Event(type="open", data={"n": 1}),
              Event(type="drawn", data={"card": "secret"}, to=[1], public={"seat": 1}),
              Event(type="whisper", data={"card": "other"}, to=[0, 2]),
              Event(type="bare")]
    logged = msgspec.to_builtins(events)
    assert "to" not in logged[0] and "data" not in logged[3]  # the stored form omits defaults
    for viewer in (None, 0, 1, 2):
        assert view_events(logged, viewer) == view_events(events, viewer), viewer
    assert view_events(logged, 1) == [{"type": "open", "data": {"n": 1}}, {"type": "drawn", "data": {"card": "secret"}},
                                      {"type": "bare", "data": {}}]
    assert view_events(logged, None) == [{"type": "open", "data": {"n": 1}}, {"type": "drawn", "data": {"seat": 1}},
                                         {"type": "bare", "data": {}}]
