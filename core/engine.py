"""The kernel's public operations: create a table, list legal actions, apply, view, replay.

`apply(state, seat, action)` never mutates its input: it validates against the open
prompts, then works on a copy. An illegal action raises a typed `ActionRejected`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from core.errors import (
    ActionRejected,
    BadOption,
    BadParameter,
    IncompatibleModules,
    GameOver,
    EngineError,
    IllegalAction,
    NotYourTurn,
    UnknownSeat,
)
from core import absence, clock
from core.content import PACK_OPTION
from core.flow import Ctx, run
from core.plugins import Registry, Rules, default_registry
from core.rng import seed_state
from core.seats import no_such_seat, seat_name, seat_names
from core.state import FREE_TEXT_MAX, Action, Event, Seat, TableState, copy_state, decode_msgpack


@dataclass
class Table:
    """A headless table: its rules, current state and accepted action log.

    The log is (seat, action) pairs; with the creation arguments it rebuilds the state.
    """

    rules: Rules
    state: TableState
    log: list[tuple[int, Action]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    warnings: tuple[str, ...] = ()  # advice on the configuration (e.g. discouraged modules)

    # The state before the last action and that action (`core.undo`): `apply` never changes
    # its input, so keeping them costs nothing. An undo leaves nothing more to take back.
    before: TableState | None = field(default=None, repr=False)
    last: Any = field(default=None, repr=False)

    def act(self, seat: int, action: Action | dict, at: int | None = None) -> list[Event]:
        from core.undo import LastAction, take_back  # (core.undo builds on this module)

        if not isinstance(action, Action):
            action = to_action(action)
        if action.type == "undo":
            check_seat(self.state, seat)
            state, events = take_back(self.rules, self.before, self.state, seat, self.last)
            self.before, self.last = None, LastAction(seat, action, state.version, events)
        else:
            state, events = apply(self.rules, self.state, seat, action, at=at)
            self.before, self.last = self.state, LastAction(seat, action, state.version, events)
        self.state = state
        self.log.append((seat, action) if at is None else (seat, action, at))
        self.events = events
        return events

    def legal(self, seat: int) -> list[Action]:
        return legal_actions(self.state, seat, self.rules)

    def view(self, viewer: int | None) -> dict:
        return view(self.rules, self.state, viewer)


def to_action(data: dict) -> Action:
    """Build an `Action` from plain data, refusing malformed input with `BadParameter`."""
    try:
        return msgspec.convert(data, Action)
    except msgspec.ValidationError as exc:
        raise BadParameter(f"malformed action: {exc}") from None


def create_table(
    game: str,
    players: int,
    seed: int = 0,
    modules: list[str] | None = None,
    options: dict | None = None,
    names: list[str] | None = None,
    registry: Registry | None = None,
    campaign: dict | None = None,
) -> Table:
    """Check the configuration, build the initial state, run setup up to the first decision.
    With `campaign`, the game reads the campaign state in (`conclave_campaign_begin`)."""
    registry = registry or default_registry()
    if options is not None and not isinstance(options, dict):
        raise BadOption(f"options must be an object of name: value, not {type(options).__name__}")
    if modules is not None and not (isinstance(modules, list) and all(isinstance(m, str) for m in modules)):
        raise IncompatibleModules("modules must be a list of module ids")
    modules = list(modules or [])
    options, clock_options = clock.split_options(dict(options or {}))
    warnings = registry.check_table(game, modules, players, options)
    rules = registry.rules_for(game, modules)
    seats = [Seat(index=i, name=(names[i] if names and i < len(names) else f"Player {i + 1}")) for i in range(players)]
    full_options = {k: spec.default for k, spec in rules.game.options.items()}
    full_options.update(options)
    content = registry.packs.folder(game, full_options[PACK_OPTION]) if PACK_OPTION in full_options else None
    state = rules.hook.conclave_initial_state(
        game=game, seats=seats, seed=seed, options=full_options, modules=sorted(modules), content=content
    )
    state.rng = seed_state(seed)
    state.format = rules.game.state_format
    clock.configure(state, clock_options)
    ctx = Ctx(state, rules)
    rules.hook.conclave_setup(ctx=ctx)
    if campaign is not None:
        rules.hook.conclave_campaign_begin(ctx=ctx, campaign=campaign)
    run(ctx)
    return Table(rules=rules, state=state, events=ctx.events, warnings=warnings)


def legal_actions(state: TableState, seat: int, rules: Rules | None = None) -> list[Action]:
    """The answers to this seat's open prompts: every listed option, and for a typed
    decision its generator's candidates (at most `Decision.listed_max` each; `rules` needed)."""
    out: list[Action] = []
    for p in state.prompts:
        if p.seat != seat:
            continue
        if p.decision:
            if rules is None:
                raise EngineError("listing a typed decision's answers needs the table's rules")
            out.extend(prompt_answers(rules, state, p))
        else:
            out.extend(p.options)
    return out


def prompt_answers(rules: Rules, state: TableState, prompt) -> list[Action]:
    """One prompt's answers as `legal_actions` lists them: its options, or its typed
    decision's candidates."""
    if not prompt.decision:
        return list(prompt.options)
    return rules.decisions[prompt.decision].actions(state, prompt.seat, prompt, hook=rules.hook)


def answer_types(rules: Rules, prompt) -> set[str]:
    """The action types that answer a prompt (every one a typed decision declares)."""
    if prompt.decision:
        return set(rules.decisions[prompt.decision].answers)
    return {o.type for o in prompt.options}


def _answers_with(rules: Rules, prompt, action_type: str) -> bool:
    """Whether `action_type` answers `prompt` (`answer_types` without building the set)."""
    if prompt.decision:
        return action_type in rules.decisions[prompt.decision].answers
    for option in prompt.options:  # a loop, not any(): this runs for every action
        if option.type == action_type:
            return True
    return False


def active_seats(state: TableState) -> list[int]:
    """Seats with a blocking prompt open, in seat order."""
    return sorted({p.seat for p in state.prompts if p.blocking})


def check_seat(state: TableState, seat: int) -> None:
    """A seat index outside the table is refused (`UnknownSeat`) before anything runs."""
    if not 0 <= seat < len(state.seats):
        raise UnknownSeat(no_such_seat(seat, len(state.seats)))


def _find_prompt(rules: Rules, state: TableState, seat: int, action: Action):
    if state.finished:
        raise GameOver("the game is over")
    check_seat(state, seat)
    mine = [p for p in state.prompts if p.seat == seat]
    if not mine:
        raise NotYourTurn(f"{seat_name(seat)} has no decision to make now "
                          f"(waiting for {seat_names(active_seats(state))})")
    typed = [p for p in mine if _answers_with(rules, p, action.type)]
    if not typed:
        kinds = sorted({t for p in mine for t in answer_types(rules, p)})
        raise IllegalAction(f"{action.type!r} is not legal now; {seat_name(seat)} may: {', '.join(kinds)}")
    decided = [p for p in typed if p.decision]
    if decided:  # a typed decision: its validator judges (the first prompt whose validator accepts)
        refusal = None
        for p in decided:
            try:
                return p, rules.decisions[p.decision].check(state, seat, p, dict(action.params), type=action.type,
                                                            hook=rules.hook)
            except ActionRejected as exc:
                refusal = refusal or exc
        if len(decided) == len(typed):
            raise refusal
    for p in typed:
        if p.decision:
            continue
        matched = _with_free_text(p, action)
        for option in p.options:
            if option == matched and _same_types(option.params, matched.params):
                return p, action.params
    explained = rules.hook.conclave_explain_rejection(state=state, seat=seat, action=action)
    if isinstance(explained, ActionRejected):
        raise explained
    raise BadParameter(f"{action.type} does not accept parameters {dict(action.params)!r} now")


def _with_free_text(prompt, action: Action) -> Action:
    """The action as its option shows it: the prompt's free-text parameters blanked, once
    checked to be short strings."""
    if not prompt.free_text:
        return action
    params = dict(action.params)
    for key in prompt.free_text:
        value = params.get(key, "")
        if not isinstance(value, str) or len(value) > FREE_TEXT_MAX:
            raise BadParameter(f"{key!r} must be text of at most {FREE_TEXT_MAX} characters")
        params[key] = ""
    return Action(type=action.type, params=params)


def _same_types(a: Any, b: Any) -> bool:
    """Equal values of the same JSON types: `True == 1 == 1.0` in Python, not in an action."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True


def apply(rules: Rules, state: TableState, seat: int, action: Action,
          encoded: bytes | None = None, in_place: bool = False, at: int | None = None) -> tuple[TableState, list[Event]]:
    """Apply one action; return the new state and its events. The input is not modified,
    unless `in_place`.

    `encoded`: the state's own msgpack bytes (`encode_msgpack`), when the caller keeps them.
    The working copy is then decoded from them instead of walking the state: on a busy
    server a table's state is cold in the CPU caches when its next action comes, and the
    walk cost about 99 us against 32 us warm (benchmarks/api_load.py).

    `in_place`: the caller owns `state` and gives it up: it becomes the new state, with no
    copy at all. An action refused before any rule runs (`_find_prompt`: the seat, the
    prompt, the option) leaves it untouched; if anything raises later it is in no defined
    state and the caller must discard it.

    `at`: the server's time of the action (ms), for the table's clock (`core.clock`); the
    log keeps it, so a replay charges the same time. The clock's own table actions
    (`core.clock.TABLE_ACTIONS`) answer no prompt."""
    if action.type in clock.TABLE_ACTIONS:
        check_seat(state, seat)
        new = state if in_place else copy_state(state)
        events = clock.apply_table_action(new, seat, action, at, skip=absence.skipper(rules, new, at))
        new.version += 1
        return new, events
    prompt, params = _find_prompt(rules, state, seat, action)
    was_running = clock.before_action(state)
    if in_place:
        new = state
    else:
        new = copy_state(state) if encoded is None else decode_msgpack(encoded, type(state))
    new.prompts = [p for p in new.prompts if p.id != prompt.id]
    ctx = Ctx(new, rules)
    # The action itself may name a secret (a card played face down): only its seat sees it;
    # the game's own events say publicly what others may know.
    ctx.emit("action", to=[seat], public={"seat": seat, "prompt": prompt.kind},
             seat=seat, action=msgspec.to_builtins(action), prompt=prompt.kind)
    rules.handlers[prompt.resume](ctx, seat=seat, params=params, **prompt.args)
    run(ctx)
    clock.after_action(new, seat, was_running, at)
    new.version += 1
    rules.hook.conclave_action_applied(ctx=ctx, seat=seat, action=action)
    return new, ctx.events


# The kernel's fields a viewer may see. Left out: `seed` and `rng` (they predict every
# shuffle and draw), `stack` (pending work names hidden cards) and `next_prompt_id`.
KERNEL_VISIBLE = ("game", "modules", "options", "seats", "version", "round", "phase", "step", "prompts",
                  "finished", "result", "module_state")
_view_fields: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # type -> (shown, left out)


def view_fields(state_type: type[TableState]) -> tuple[str, ...]:
    """The fields of a state type that go into views: the kernel's allow-list plus those the
    game's state type declares `visible`. A declared name that is no field of the type, or
    is one of the kernel's hidden ones, is a programming error (`TypeError`)."""
    return _fields(state_type)[0]


def _fields(state_type: type[TableState]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    cached = _view_fields.get(state_type)
    if cached is None:
        own = tuple(state_type.visible)
        names = set(state_type.__struct_fields__)
        unknown = [f for f in own if f not in names]
        if unknown:
            raise TypeError(f"{state_type.__name__}.visible names unknown fields: {', '.join(unknown)}")
        kernel = [f for f in own if f in TableState.__struct_fields__]
        if kernel:
            raise TypeError(f"{state_type.__name__}.visible names kernel fields: {', '.join(kernel)} "
                            "(the kernel decides which of its own fields are seen)")
        shown = KERNEL_VISIBLE + tuple(dict.fromkeys(own))
        cached = _view_fields[state_type] = (shown, tuple(f for f in state_type.__struct_fields__ if f not in shown))
    return cached


def view(rules: Rules, state: TableState, viewer: int | None) -> dict:
    """The state as `viewer` may see it (None = spectator): plain data, built from what the
    viewer may see (`view_fields`), then redacted per seat by the games' `conclave_view`."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    for name in _fields(type(state))[1]:  # one conversion, then out with all that is not allowed
        data.pop(name, None)              # (3 us less than converting the allowed fields one by one)
    data["prompts"] = [
        p if p["seat"] == viewer else {"id": p["id"], "seat": p["seat"], "kind": p["kind"], "blocking": p["blocking"]}
        for p in data["prompts"]
    ]
    data["groups"] = [group_view(g, viewer) for g in state.groups]  # not allow-listed: each group redacted
    data["active_seats"] = active_seats(state)
    rules.hook.conclave_view(state=state, viewer=viewer, view=data)
    return data


def group_view(group, viewer: int | None) -> dict:
    """A prompt group as `viewer` may see it: who is asked and who has answered; of the held
    answers only the viewer's own (a collect reveals the rest all at once, by event)."""
    out = {"id": group.id, "mode": group.mode, "seats": list(group.seats),
           "answered": sorted(int(s) for s in group.answers) if group.mode == "collect" else sorted(group.accepted)}
    if group.mode == "consent":
        out.update(proposer=group.proposer, proposal=msgspec.to_builtins(group.proposal))
    elif viewer is not None and str(viewer) in group.answers:
        out["mine"] = msgspec.to_builtins(group.answers[str(viewer)])
    return out


def view_events(events: list[Event] | list[dict], viewer: int | None) -> list[dict]:
    """Events as `viewer` may see them: private data only for its addressees, others get the
    public part or nothing. The one redaction of events: it takes the kernel's `Event`s or
    their logged plain form (`msgspec.to_builtins`, defaults left out), so a table's log and
    its subscription updates are redacted by the same rule as the engine's own events."""
    out = []
    for ev in events:
        if type(ev) is dict:
            kind, data, to, public = ev["type"], ev.get("data", {}), ev.get("to"), ev.get("public")
        else:
            kind, data, to, public = ev.type, ev.data, ev.to, ev.public
        if to is None or (viewer is not None and viewer in to):
            out.append({"type": kind, "data": data})
        elif public is not None:
            out.append({"type": kind, "data": public})
    return out


def replay(
    game: str,
    players: int,
    seed: int,
    log: list[tuple[int, Action]],
    modules: list[str] | None = None,
    options: dict | None = None,
    registry: Registry | None = None,
    campaign: dict | None = None,
) -> Table:
    """Rebuild a table from its creation arguments (and campaign state at its start) and action log."""
    table = create_table(game, players, seed=seed, modules=modules, options=options, registry=registry,
                         campaign=campaign)
    for seat, action, *at in log:  # (seat, action) or, on a clocked table, (seat, action, at)
        table.act(seat, action, *at)
    return table
