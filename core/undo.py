"""Taking back a misclick: a seat undoes its own last action, if the rules allow it now.

An undo is an action of its own (`{"type": "undo"}`), logged like any other, so a replay of
the log rebuilds it. It needs the state before the undone action, which the caller keeps
(`core.engine.Table` holds it for free; the service rebuilds it from its snapshot and log),
so no table state carries a copy of an earlier one: the saved format and the cost of an
ordinary action stay what they were.

The rules (issue 21): only the seat that acted last, only one step back, and never once
the action drew randomness (a die, a shuffle: the RNG moved) or showed any viewer something
that was hidden from it before (a draw, a refilled row, a card turned face up: judged by the
game's own `conclave_secrets`, the same declaration the hidden-information check uses).
Taking back such an action would let its seat try again knowing what came up.
"""
from __future__ import annotations

from dataclasses import dataclass

import msgspec

from core import clock
from core.engine import view, view_events
from core.glossary import glossary_for, strings_in
from core.errors import UndoRefused
from core.plugins import Rules
from core.secrets import secrets_in
from core.seats import seat_name
from core.state import Action, Event, TableState, copy_state

UNDO = "undo"

NOTHING_TO_UNDO = "NOTHING_TO_UNDO"
UNDO_NOT_YOURS = "UNDO_NOT_YOURS"
UNDO_AFTER_CHANCE = "UNDO_AFTER_CHANCE"
UNDO_AFTER_REVEAL = "UNDO_AFTER_REVEAL"


@dataclass(frozen=True)
class LastAction:
    """The newest entry of a table's log: who played what, at which version, raising what."""

    seat: int
    action: Action
    version: int
    events: list  # Event objects or the log's plain dicts
    by_bot: bool = False  # a server-side bot played it for the seat (api/referee.py)
    chance: bool = False  # it moved the table's RNG (the service notes it in the log entry)


def is_undo(action: Action | dict) -> bool:
    kind = action.get("type") if isinstance(action, dict) else action.type
    return kind == UNDO


def refusal(rules: Rules, before: TableState | None, current: TableState, seat: int,
            last: LastAction | None) -> UndoRefused | None:
    """Why `seat` may not take back `last` now (None: it may). `before` is the state `last`
    was played on (None when the caller has none: nothing to go back to); it is read only
    once `quick_refusal` finds nothing, so a caller may skip rebuilding it otherwise."""
    refused = quick_refusal(current, seat, last)
    if refused is not None:
        return refused
    if before is None:
        return UndoRefused(NOTHING_TO_UNDO, "nothing to take back: the state before it is gone")
    if before.rng != current.rng or before.seed != current.seed:
        return UndoRefused(UNDO_AFTER_CHANCE, "that action drew randomness (a die or a shuffle): it stands")
    shown_to = revealed_to(rules, before, current, last.events)
    if shown_to:
        whom = ", ".join("a spectator" if v is None else seat_name(v) for v in shown_to)
        return UndoRefused(UNDO_AFTER_REVEAL, f"that action showed {whom} something hidden before: it stands")
    return None


def quick_refusal(current: TableState, seat: int, last: LastAction | None) -> UndoRefused | None:
    """What can be judged from the log's last entry alone (no earlier state): the checks a
    server answers `canUndo` with on every read. The reveal check needs the state before and
    runs when the seat asks (`refusal`)."""
    if current.finished:
        return UndoRefused(NOTHING_TO_UNDO, "the game is over: nothing can be taken back")
    if last is None:
        return UndoRefused(NOTHING_TO_UNDO, "nothing to take back: no action has been played yet")
    if is_undo(last.action):
        return UndoRefused(NOTHING_TO_UNDO, "only one action can be taken back, and it just was")
    if last.action.type in clock.TABLE_ACTIONS:
        return UndoRefused(NOTHING_TO_UNDO, "the clock's own table actions (a timeout, a seat marked away or "
                                            "back) cannot be taken back")
    if last.by_bot:
        return UndoRefused(UNDO_NOT_YOURS, f"a bot played the last action for {seat_name(last.seat)}: "
                                           "only a seat's own actions can be taken back")
    if last.seat != seat:
        return UndoRefused(UNDO_NOT_YOURS, f"{seat_name(last.seat)} has acted since: only the seat that "
                                           "acted last may take its action back")
    if last.chance:
        return UndoRefused(UNDO_AFTER_CHANCE, "that action drew randomness (a die or a shuffle): it stands")
    return None


def revealed_to(rules: Rules, before: TableState, after: TableState, events: list) -> list[int | None]:
    """The viewers (seats, then None for a spectator) to whom the action showed an id its
    game hid from them before it: in their view after it, or in its events as they get them."""
    out: list[int | None] = []
    in_state = strings_in(msgspec.to_builtins(before))
    for viewer in [*range(len(before.seats)), None]:
        hidden = hidden_from(rules, before, viewer, in_state)
        if not hidden:
            continue
        shown = strings_in(view(rules, after, viewer)) | strings_in(view_events(events, viewer))
        if hidden & shown:
            out.append(viewer)
    return out


def hidden_from(rules: Rules, state: TableState, viewer: int | None, in_state: set[str]) -> set[str]:
    """The ids hidden from `viewer` in `state`: those its game declares secret, and every id
    the game's glossary can name that is somewhere in the state but not in the viewer's view
    (a card in a deck or another hand: a game need not have declared each of its hiding
    places for an undo to respect them), but for entries marked `public` (printed on the
    board: a Region, a system)."""
    hidden_view, hidden_events = secrets_in(rules, state, viewer, [])
    seen = view(rules, state, viewer)
    unseen = in_state - strings_in(seen)
    # (the games name ids from the viewer's own view, so the unseen ones ride along in it)
    named = glossary_for(rules, state, viewer, {**seen, "__unseen__": sorted(unseen)}) if unseen else {}
    named_unseen = {i for i, entry in named.items() if i in unseen and not (entry or {}).get("public")}
    return hidden_view | hidden_events | named_unseen


def take_back(rules: Rules, before: TableState | None, current: TableState, seat: int,
              last: LastAction | None) -> tuple[TableState, list[Event]]:
    """The table after `seat` undid `last`: the state `before` it, at the next version, with
    one `undo` event every viewer sees. Refused (`UndoRefused`, nothing changed) as
    `refusal` says."""
    refused = refusal(rules, before, current, seat, last)
    if refused is not None:
        raise refused
    return restore(before, current, seat, last)


def restore(before: TableState, current: TableState, seat: int, last: LastAction) -> tuple[TableState, list[Event]]:
    """`take_back` once `refusal` has found nothing (a caller that judged it already)."""
    restored = copy_state(before)
    restored.version = current.version + 1
    return restored, [Event(type=UNDO, data={"seat": seat, "undone": last.version})]
