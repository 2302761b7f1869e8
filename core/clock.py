"""Turn clocks and absent seats, for every game (issue 21).

A table may have a clock (the table options below; none by default). Its account lives in
`state.module_state["clock"]` only when the table has one, so a table without a clock is
byte for byte what it was. Time comes from the server: each action is applied with the
server's timestamp `at` (milliseconds), which the log keeps, so a replay charges the same
time and rebuilds the same clocks.

- `move`: each decision has `clock_seconds`; `bank`: each seat has `clock_seconds` for the
  whole game, plus `clock_increment` seconds after each of its actions.
- A seat's clock runs while it has a blocking prompt open (several at once when the game
  asks several seats together). When it runs out, the server applies a `timeout`: the seat
  is away and a server-side bot plays for it until its player comes back (`resume`, with
  the seat's own token). The table's host may also mark a seat away (`away`).

These four are table actions, not answers to prompts; they are logged like any action.
A table without a clock gets an account of mode "none" (its away marks only) when the host
first marks a seat away. Where the game's rules allow and the table asks for it, an away
seat is skipped instead of played by a bot (`core.absence`).
"""
from __future__ import annotations

from typing import Any, Callable

from core.errors import BadOption, IllegalAction
from core.plugins import OptionSpec
from core.seats import seat_name
from core.state import Action, Event, TableState

KEY = "clock"  # its place in `module_state`
START, TIMEOUT, AWAY, RESUME = "clock_start", "timeout", "away", "resume"
TABLE_ACTIONS = (START, TIMEOUT, AWAY, RESUME)
SERVER_ONLY = (START, TIMEOUT, AWAY)  # a player's own token may only `resume`

SECONDS = (1, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200)
INCREMENTS = (0, 1, 2, 5, 10, 15, 30, 60)


def seconds_label(n: int) -> str:
    if n == 0:
        return "none"
    if n < 60:
        return f"{n} second{'s' * (n != 1)}"
    minutes = n // 60
    return f"{minutes} minute{'s' * (minutes != 1)}" if minutes < 60 else f"{minutes // 60} hour{'s' * (n >= 7200)}"


OPTIONS: dict[str, OptionSpec] = {
    "clock": OptionSpec("none", choices=("none", "move", "bank"),
                        labels=("No clock", "Time per decision", "A time bank per seat"),
                        description="Turn clock: none, a time limit per decision, or a bank per seat for the "
                                    "whole game; a seat out of time is played by a bot until its player returns"),
    "clock_seconds": OptionSpec(60, choices=SECONDS, labels=tuple(seconds_label(n) for n in SECONDS),
                                description="Time per decision (per decision clock) or in each seat's bank"),
    "clock_increment": OptionSpec(0, choices=INCREMENTS, labels=tuple(seconds_label(n) for n in INCREMENTS),
                                  description="Time added to a seat's bank after each of its actions"),
}


def split_options(options: dict) -> tuple[dict, dict]:
    """(the game's own options, the clock's), checked: the clock's never reach the game."""
    game = {k: v for k, v in options.items() if k not in OPTIONS}
    mine = {k: v for k, v in options.items() if k in OPTIONS}
    for key, value in mine.items():
        spec = OPTIONS[key]
        if value not in spec.choices or type(value) is not type(spec.default):
            raise BadOption(f"option {key!r} must be one of {list(spec.choices)}, not {value!r}")
    return game, mine


def configure(state: TableState, options: dict) -> None:
    """Give the table its clock account, if its options ask for one."""
    mode = options.get("clock", "none")
    if mode == "none":
        return
    seconds = options.get("clock_seconds", 60)
    n = len(state.seats)
    state.module_state[KEY] = {
        "mode": mode, "seconds": seconds, "increment": options.get("clock_increment", 0),
        "left_ms": [seconds * 1000] * n, "since": [None] * n, "away": [False] * n, "started": False,
    }


def account(state: TableState) -> dict | None:
    return state.module_state.get(KEY)


def open_untimed(state: TableState) -> dict:
    """The account of a table without a clock, for its away marks (`away` by the host)."""
    n = len(state.seats)
    state.module_state[KEY] = {"mode": "none", "seconds": 0, "increment": 0, "left_ms": [0] * n,
                               "since": [None] * n, "away": [False] * n, "started": True}
    return state.module_state[KEY]


def timed(clock: dict) -> bool:
    return clock["mode"] != "none"


def skipped(clock: dict, seat: int) -> bool:
    """The seat is away and skipped (`core.absence`), not played by a bot."""
    return bool(clock.get("skipped", [False] * len(clock["away"]))[seat])


def running(state: TableState) -> set[int]:
    return {p.seat for p in state.prompts if p.blocking}


def before_action(state: TableState) -> set[int]:
    """What `after_action` needs to know of the state before: the seats whose clocks ran."""
    return running(state) if KEY in state.module_state else set()


def after_action(state: TableState, seat: int | None, was_running: set[int], at: int | None) -> None:
    """Charge `seat` the time it took (with `at`, the server's time of the action) and start
    or stop the clocks of the seats whose prompts opened or closed."""
    clock = account(state)
    if clock is None or at is None or not clock["started"] or not timed(clock):
        return
    if seat is not None and clock["since"][seat] is not None:
        clock["left_ms"][seat] = max(0, clock["left_ms"][seat] - max(0, at - clock["since"][seat]))
        if clock["mode"] == "bank":
            clock["left_ms"][seat] += clock["increment"] * 1000
        clock["since"][seat] = None
    now_running = running(state)
    for s in range(len(clock["since"])):
        if s in now_running and (clock["since"][s] is None or s not in was_running):
            if clock["mode"] == "move":
                clock["left_ms"][s] = clock["seconds"] * 1000
            clock["since"][s] = at
        elif s not in now_running and clock["since"][s] is not None:
            # its prompt closed without its action (another seat's answer settled it): the
            # time it had used is charged all the same
            clock["left_ms"][s] = max(0, clock["left_ms"][s] - max(0, at - clock["since"][s]))
            clock["since"][s] = None


def remaining_ms(clock: dict, seat: int, now: int) -> int:
    left = clock["left_ms"][seat]
    since = clock["since"][seat]
    return left if since is None else max(0, left - max(0, now - since))


def deadline(state: TableState) -> int | None:
    """When the next running clock of a seat still played by its player runs out (ms)."""
    clock = account(state)
    if clock is None or state.finished or not clock["started"]:
        return None
    times = [since + clock["left_ms"][s] for s, since in enumerate(clock["since"])
             if since is not None and not clock["away"][s]]
    return min(times) if times else None


def expired(state: TableState, now: int) -> list[int]:
    """Seats still played by their players whose running clocks are out at `now`."""
    clock = account(state)
    if clock is None or state.finished or not clock["started"]:
        return []
    return [s for s, since in enumerate(clock["since"])
            if since is not None and not clock["away"][s] and remaining_ms(clock, s, now) <= 0]


def away_seats(state: TableState) -> list[int]:
    clock = account(state)
    return [] if clock is None else [s for s, away in enumerate(clock["away"]) if away]


def waiting_for_bot(state: TableState) -> list[int]:
    """Away seats with a blocking prompt open: the bot is to answer for them now. (A skipped
    seat should have none: its game closes them; if one opened, the bot answers it, so that
    no table ever waits for a player who is not there.)"""
    away = set(away_seats(state))
    return sorted({p.seat for p in state.prompts if p.blocking and p.seat in away})


Skip = Callable[[int, bool], "list[Event] | None"]


def apply_table_action(state: TableState, seat: int, action: Action, at: int | None,
                       skip: Skip | None = None) -> list[Event]:
    """A table action on `state` (the caller's working copy); refused with `IllegalAction`
    when it does not fit now. `seat` is the seat it concerns. `skip` (`core.absence.skipper`):
    for a table that skips away seats, the game's part when a seat goes away or returns."""
    clock = account(state)
    if clock is None and action.type == AWAY and not state.finished:
        clock = open_untimed(state)
    if clock is None:
        raise IllegalAction(f"{action.type!r}: this table has no clock")
    if state.finished:
        raise IllegalAction("the game is over")
    if at is None:
        raise IllegalAction(f"{action.type!r} needs the server's time")
    if action.type == START:
        if clock["started"]:
            raise IllegalAction("the clock is already running")
        clock["started"] = True
        after_action(state, None, set(), at)
        return [Event(type="clock_started", data={"at": at})]
    if action.type == TIMEOUT:
        if seat not in expired(state, at):
            raise IllegalAction(f"{seat_name(seat)}'s time has not run out")
        return _taken_over(clock, seat, "time", skip)
    if action.type == AWAY:
        if clock["away"][seat]:
            raise IllegalAction(f"{seat_name(seat)} is already away")
        return _taken_over(clock, seat, "host", skip)
    if action.type == RESUME:
        if not clock["away"][seat]:
            raise IllegalAction(f"{seat_name(seat)} is not away: there is nothing to take back")
        clock["away"][seat] = False
        if clock["since"][seat] is not None:  # its clock starts afresh from now
            if clock["mode"] == "move" or clock["left_ms"][seat] <= 0:
                clock["left_ms"][seat] = clock["seconds"] * 1000
            clock["since"][seat] = at
        events = [Event(type="returned", data={"seat": seat})]
        if skipped(clock, seat):
            clock["skipped"][seat] = False
            if skip is not None:
                events += skip(seat, False) or []
        return events
    raise IllegalAction(f"unknown table action {action.type!r}")


def _taken_over(clock: dict, seat: int, reason: str, skip: Skip | None) -> list[Event]:
    """The seat is away: skipped, where the table asks for it and the game's rules allow it
    now, else played by a bot."""
    clock["away"][seat] = True
    theirs = skip(seat, True) if skip else None
    if theirs is not None:
        clock.setdefault("skipped", [False] * len(clock["away"]))[seat] = True
    by = "bot" if theirs is None else "skip"
    return [Event(type="taken_over", data={"seat": seat, "by": by, "reason": reason}), *(theirs or [])]


def public(clock: dict | None, now: int) -> list[dict[str, Any]] | None:
    """Each seat's clock as the API shows it at `now`."""
    if clock is None:
        return None
    return [{"seat": s, "remaining_ms": remaining_ms(clock, s, now), "running": since is not None and clock["started"],
             "away": clock["away"][s], "timed": timed(clock), "skipped": skipped(clock, s)}
            for s, since in enumerate(clock["since"])]
