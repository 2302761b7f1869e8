"""The hidden-information check run after every bot action (`simulate`, the bot-game tests):
each game names what a viewer may not see (`conclave_secrets`); no string in that viewer's
view, nor in the last action's events as that viewer receives them, may be one of those ids.

It reads only what a client would receive (the redacted view and events), so it proves the
redaction rather than re-stating it."""
from __future__ import annotations

from typing import Iterator

from core.engine import Table, view_events
from core.seats import seat_name


def strings(obj, path: str = "$") -> Iterator[tuple[str, str]]:
    """Every (path, string) of a plain-data value: dict keys and string values alike."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.<key>", str(k)
            yield from strings(v, f"{path}.{k}")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from strings(v, f"{path}[{i}]")


def viewers(table: Table) -> list[int | None]:
    """Every seat and a spectator."""
    return [*range(len(table.state.seats)), None]


def secrets_of(table: Table, viewer: int | None) -> tuple[set[str], set[str]]:
    """(ids the view may not name, ids no event may name). A game's answer is a list of ids
    for both, or {"view": [...], "events": [...]} when a deck's content is public but not
    its order (an event may say which cards joined the deck; no view may list the deck)."""
    return secrets_in(table.rules, table.state, viewer, table.events)


def secrets_in(rules, state, viewer: int | None, events: list) -> tuple[set[str], set[str]]:
    """`secrets_of` for any state (the take-back check judges the state before an action)."""
    in_view: set[str] = set()
    in_events: set[str] = set()
    for part in rules.hook.conclave_secrets(state=state, viewer=viewer, events=events):
        if isinstance(part, dict):
            in_view |= set(part.get("view", ()))
            in_events |= set(part.get("events", ()))
        elif part:
            in_view |= set(part)
            in_events |= set(part)
    return in_view, in_events


class HiddenCheck:
    """Checks a table after each of its actions. The view may name nothing secret now; an
    event may name nothing that was secret both before and after its action (a card the
    viewer held before may be named as it goes face down; a card revealed by it may be named)."""

    def __init__(self, table: Table) -> None:
        self.before = {v: secrets_of(table, v)[1] for v in viewers(table)}

    def __call__(self, table: Table) -> list[str]:
        out = []
        for viewer in viewers(table):
            in_view, in_events = secrets_of(table, viewer)
            out += leaks(table, viewer, in_view, in_events & self.before.get(viewer, in_events))
            self.before[viewer] = in_events
        return out


def leaks(table: Table, viewer: int | None, in_view: set[str], in_events: set[str]) -> list[str]:
    """Where this viewer's view or the last action's events, as it receives them, show one of
    those ids."""
    who = seat_name(viewer)
    out = [f"{who} sees {s!r} at {p}" for p, s in strings(table.view(viewer)) if s in in_view] if in_view else []
    if in_events:
        out += [f"{who} sees {s!r} in event {p}" for p, s in strings(view_events(table.events, viewer))
                if s in in_events]
    return out
