"""The table state: one serialisable document.

`TableState` holds what every game needs (seats, phase, prompts, pending steps, RNG,
version). A game subclasses it with its own fields; modules keep their data in
`modules[module_id]` as plain JSON-like values. Nothing about a table lives in Python
objects outside this document, so any process can load any table.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar

import msgspec

from core.errors import StateFormatError


class Action(msgspec.Struct, gc=False, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """What a seat sends: a type and its parameters. Legal actions have the same shape."""

    type: str
    params: dict[str, Any] = {}


class Prompt(msgspec.Struct, gc=False, kw_only=True):
    """A decision the rules are waiting for.

    `options` are complete actions: sending one back unchanged is accepted. `resume` names
    the step handler that receives the answer, with `args` as its keyword arguments.
    A non-blocking prompt stands open (e.g. a payment any seat may make) without holding
    up the flow. `free_text` names parameters whose value is the player's own words (a
    deal's reason): options show them as "", any string up to `FREE_TEXT_MAX` is accepted.
    """

    id: int
    seat: int
    kind: str
    options: list[Action]
    resume: str
    args: dict[str, Any] = {}
    blocking: bool = True
    prompt_text: str = ""
    free_text: list[str] = []
    decision: str = ""  # a registered decision kind: answers are checked by its validator, not listed
    group: int = 0  # the prompt group it belongs to (0: none)


FREE_TEXT_MAX = 500


class PromptGroup(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    """Several seats asked together (`core.groups`).

    `collect`: each seat's answer is held here, hidden from everyone, until the last one is
    in; then all are revealed at once and `resume` runs with them. `consent`: `proposal`
    (made by `proposer`) takes effect, through `resume`, only when every seat in `seats`
    has accepted; one decline, a withdrawal or the window closing drops it with no trace."""

    id: int
    mode: str  # "collect" | "consent"
    seats: list[int]
    resume: str
    args: dict[str, Any] = {}
    answers: dict[str, Any] = {}  # collect: seat -> its answer's params, secret until revealed
    proposer: int = -1
    proposal: dict[str, Any] = {}
    accepted: list[int] = []


class Step(msgspec.Struct, gc=False, array_like=True):
    """A named piece of pending work with its arguments: never a closure."""

    name: str
    args: dict[str, Any]


class Event(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    """Something that happened. `to` limits `data` to some seats; others see `public`."""

    type: str
    data: dict[str, Any] = {}
    to: list[int] | None = None
    public: dict[str, Any] | None = None


class Seat(msgspec.Struct, gc=False, kw_only=True):
    index: int
    name: str = ""


class TableState(msgspec.Struct, gc=False, kw_only=True):
    """Kernel fields shared by every game. Games subclass this.

    `visible` names the subclass's own fields a viewer may see (before the game's
    `conclave_view` redacts them per seat); a field it does not name stays out of every
    view, so a new field is secret until its game says otherwise. The kernel's own fields
    are allow-listed in `core.engine.KERNEL_VISIBLE` (never the seed, the RNG state, the
    pending steps or the prompt counter)."""

    visible: ClassVar[tuple[str, ...]] = ()

    game: str
    format: int = 0  # the game's state-format version it was saved in (`GameSpec.state_format`)
    modules: list[str] = []
    options: dict[str, Any] = {}
    seats: list[Seat] = []
    seed: int = 0
    rng: int = 0
    version: int = 0
    round: int = 0
    phase: str = ""
    step: str = ""
    prompts: list[Prompt] = []
    next_prompt_id: int = 1
    groups: list[PromptGroup] = []
    stack: list[Step] = []
    finished: bool = False
    result: dict[str, Any] | None = None
    module_state: dict[str, Any] = {}

    @property
    def player_count(self) -> int:
        return len(self.seats)


def copy_state(state: TableState) -> TableState:
    """A deep copy through msgpack: faster than `copy.deepcopy` and keeps the exact types."""
    return decode_msgpack(encode_msgpack(state), type(state))


def encode_msgpack(state: TableState) -> bytes:
    """Compact bytes of a state (the live store's snapshot); `decode_msgpack` reads them back."""
    return msgspec.msgpack.encode(state)


def decode_msgpack(data: bytes, state_type: type[TableState]) -> TableState:
    return msgspec.msgpack.decode(data, type=state_type)


def migrate_snapshot(data: bytes, state_type: type[TableState], current: int,
                     migrations: dict[int, Callable[[dict], dict]]) -> tuple[TableState, bool]:
    """A stored snapshot as a state of the current format: a snapshot saved by an earlier
    release (an older `format`) is brought forward as plain data, one migration per format
    (`migrations[n]` turns format n into n + 1), then typed. A snapshot from a newer format,
    or one no migration reaches, is refused: never guessed at. Says whether it migrated."""
    try:
        state = decode_msgpack(data, state_type)
        if state.format == current:
            return state, False
    except msgspec.ValidationError:
        pass  # an older shape: migrate it below
    raw = msgspec.msgpack.decode(data)
    found = raw.get("format", 0) if isinstance(raw, dict) else None
    if not isinstance(found, int) or found > current:
        raise StateFormatError(f"a state of format {found!r} cannot be read by this release (format {current})")
    while found < current:
        step = migrations.get(found)
        if step is None:
            raise StateFormatError(f"no migration from state format {found} (current {current})")
        raw = step(raw)
        found += 1
        raw["format"] = found
    try:
        return msgspec.convert(raw, state_type), True
    except msgspec.ValidationError as exc:
        raise StateFormatError(f"a migrated state does not fit format {current}: {exc}") from None


def encode_state(state: TableState) -> bytes:
    """Canonical bytes of a state: equal states give byte-identical output."""
    return msgspec.json.encode(state)


def decode_state(data: bytes, state_type: type[TableState]) -> TableState:
    return msgspec.json.decode(data, type=state_type)
