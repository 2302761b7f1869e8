"""Saved New Capital states of earlier releases, brought to the current format as plain data
(`GameSpec.migrations[n]` turns format n into n + 1). The modules' pending steps live in the
same table state, so the game's migration covers theirs too."""
from __future__ import annotations

from core.errors import StateFormatError
from core.turn_order import clockwise

# Steps that walked the turn order once by position `i` (format 0) and now carry the seat
# that last acted (`after`).
ONCE_ROUND = ("nc.burn_step", "nc.bid", "nc.bribes", "dil.first_pass")
# Steps that went round and round by position `i` until every seat passed.
ROUND_AND_ROUND = ("nc.extra", "dil.reinforce")


def _phase(name: str, steps: list, before: list = ()) -> tuple:
    """A format-1 phase as stored: its `before` steps, entering, its steps, leaving."""
    return name, [*before, ("core.enter_phase", {"name": name}), *steps, ("core.exit_phase", {"name": name})]


# Format 1's phases, as stored (rounds.PHASES scheduled by core.phases): a phase's steps are all
# pending from its start, between the kernel's steps that enter and leave it, then the kernel's
# start of the next phase. In format 0 each step pushed the next when done, and the first and
# last step of a phase entered and left it.
PHASES_1 = (
    _phase("development", [("nc.draw_hands", {}), ("nc.after_draw", {}), ("nc.turn", {}), ("nc.extra", {}),
                           ("nc.burn_step", {}), ("nc.discard_hands", {})], before=[("nc.round_start", {})]),
    _phase("crisis", [("nc.crisis_start", {}), ("nc.bid", {}), ("nc.bribes", {}), ("nc.check", {"kind": "warfare"}),
                      ("nc.check", {"kind": "political"}), ("nc.crisis_collect", {})]),
    _phase("score", [("nc.score_start", {})]),
    _phase("refresh", [("nc.refresh", {}), ("nc.before_reveal", {}), ("nc.reveal_crisis", {}), ("nc.round_end", {}),
                       ("nc.pass_die", {})], before=[("nc.solo_end", {})]),
)
# Format 0's steps that format 1 replaced, by the phase and step pending in their place: the
# Score phase's last step became the kernel's leaving it (its solo end check now runs before
# the Refresh is entered).
REPLACED_0 = {"nc.score_end": ("score", ["core.exit_phase", {"name": "score"}])}


def _rest_of_phase(at: str, phase: str | None = None) -> list[list]:
    """The steps a format-1 table has pending under its phase's step `at` (in `phase`, when
    the step is one every phase has): the phase's later steps, then the start of the next
    phase. (A check is never the bottom step in format 0: both were pushed with the
    collection under them.)"""
    for i, (name_, steps) in enumerate(PHASES_1):
        names = [name for name, _ in steps]
        if at in names and at != "nc.check" and phase in (None, name_):
            later = [[name, dict(args)] for name, args in steps[names.index(at) + 1:]]
            return later + [["core.start_phase", {"name": PHASES_1[(i + 1) % len(PHASES_1)][0]}]]
    raise StateFormatError(f"a New Capital table of format 0 stopped at {at!r}, not a step of the round")


def _lap(next_step: list, players: int) -> int:
    """The lap of the turn a format-0 `next_step` follows: ("nc.turn", {"k": k}) comes after
    regular turn k - 1; ("nc.extra", ...) after an Extra Action turn (lap 0)."""
    name, args = next_step
    return (args["k"] - 1) // players + 1 if name == "nc.turn" else 0


def _turn_args(args: dict, players: int) -> dict:
    """A turn prompt's or a re-offered turn's arguments: the lap instead of the next step."""
    out = {k: v for k, v in args.items() if k != "next_step"}
    out["lap"] = _lap(args["next_step"], players)
    return out


def _round_step(raw: dict) -> str:
    """Where a format-0 table is in its round: the step at the bottom of the stack (each
    pushed its successor under anything it scheduled), or, with nothing pending, the loop an
    open turn or Extra Action prompt resumes."""
    if raw["stack"]:
        name, args = raw["stack"][0]
        if name == "nc.reoffer":  # a board action inside a turn
            return args["next_step"][0]
        return name
    for prompt in raw["prompts"]:
        if prompt["resume"] == "nc.on_turn":
            return prompt["args"]["next_step"][0]
        if prompt["resume"] == "nc.use_extra":
            return "nc.extra"
    raise StateFormatError("a New Capital table of format 0 with no step of the round pending")


def format_0_to_1(raw: dict) -> dict:
    """Format 1: the round's loops carry the seat that last acted, not a position in the turn
    order (core.turn_order); a turn prompt names its lap, not the step that follows it; and
    a phase's steps are all pending from its start, none pushing the next."""
    if raw["finished"]:
        return raw
    players = len(raw["players"])
    order = clockwise(raw["first"], players)
    at, phase = _round_step(raw), None
    if at in REPLACED_0:  # the bottom step itself is now another: the one format 1 has pending there
        phase, replacement = REPLACED_0[at]
        raw["stack"][0] = replacement
        at = replacement[0]
    later = _rest_of_phase(at, phase)
    for step in raw["stack"]:
        name, args = step[0], step[1]
        if name == "nc.turn":
            k = args["k"]
            step[1] = {} if k == 0 else {"after": order[(k - 1) % players], "lap": (k - 1) // players + 1}
        elif name in ONCE_ROUND:
            i = args["i"]
            step[1] = {} if i == 0 else {"after": order[min(i, players) - 1]}
        elif name in ROUND_AND_ROUND:
            i = args["i"]
            step[1] = {} if i == 0 else {"after": order[(i - 1) % players]}
        elif name == "nc.reoffer":
            step[1] = _turn_args(args, players)
    for prompt in raw["prompts"]:
        if prompt["resume"] == "nc.on_turn":
            prompt["args"] = _turn_args(prompt["args"], players)
        elif prompt["resume"] == "nc.use_extra":
            prompt["args"] = {k: v for k, v in prompt["args"].items() if k != "i"}
    raw["stack"] = list(reversed(later)) + raw["stack"]
    return raw


MIGRATIONS = {0: format_0_to_1}
