"""Taking back a misclick: a seat may undo its own last action while no other seat has acted
since, and only if that action revealed nothing hidden and drew no randomness (a draw, a
shuffle, a die, a revealed card). Otherwise the undo is refused with a typed code.

The undo is itself an action in the log (type `undo`), so replaying a log with undos gives
the engine's state: `apply` keeps the state before each randomness-free action, encoded, in
the state (`TableState.undo_point`, never in a view); `take_back` restores it. Whether the
action revealed anything is judged when the undo is asked for (it is rare, an action is
not): the action is played again on the kept state, and for every viewer no id that was
secret to it before may appear in its view or events after (`conclave_secrets`)."""
from __future__ import annotations

from core.errors import UndoRefused
from core.state import Event, TableState, decode_msgpack, encode_msgpack

UNDO = "undo"  # the reserved action type; no game may answer a prompt with it

NOTHING_TO_UNDO = "NOTHING_TO_UNDO"
NOT_YOUR_ACTION = "UNDO_NOT_YOURS"   # another seat acted since (or nobody acted yet)
RANDOMNESS_DRAWN = "UNDO_AFTER_CHANCE"  # a die, a shuffle: the result is known
HIDDEN_REVEALED = "UNDO_AFTER_REVEAL"   # a draw, a revealed card: someone learnt something


def clear(state: TableState) -> None:
    state.undo_point, state.undo_seat, state.undo_action = b"", -1, None


def before_action(state: TableState) -> tuple[bytes, int]:
    """What `after_action` needs: the state as it is now, without its own take-back point
    (one step back only), and its RNG position."""
    clear(state)
    return encode_msgpack(state), state.rng


def after_action(state: TableState, seat: int, action, kept: tuple[bytes, int]) -> None:
    """Keep the take-back point if the action drew no randomness and did not end the game;
    a refused undo says why (`RANDOMNESS_DRAWN`) from the action it names."""
    prior, rng = kept
    if state.finished:
        return
    state.undo_seat, state.undo_action = seat, action
    state.undo_point = prior if state.rng == rng else b""


def can_undo(state: TableState, seat: int | None) -> bool:
    """Cheap: the last action is this seat's and drew no randomness (a reveal is judged on asking)."""
    return seat is not None and state.undo_seat == seat and bool(state.undo_point) and not state.finished


def take_back(rules, state: TableState, seat: int, apply) -> tuple[TableState, list[Event]]:
    """The state before `seat`'s last action, at the next version, with an `undo` event; or a
    typed refusal. `apply` is the engine's (passed in: the engine imports this module)."""
    if state.finished:
        raise UndoRefused(NOTHING_TO_UNDO, "the game is over")
    if state.undo_seat < 0:
        raise UndoRefused(NOTHING_TO_UNDO, "there is no action to take back")
    if state.undo_seat != seat:
        raise UndoRefused(NOT_YOUR_ACTION, "only the seat that played the last action may take it back, "
                                           "and only before anyone else acts")
    if not state.undo_point:
        raise UndoRefused(RANDOMNESS_DRAWN, "that action drew randomness (a die, a shuffle): it cannot be taken back")
    prior = decode_msgpack(state.undo_point, type(state))
    rules.hook.conclave_load_content(state=prior)
    revealed = _revealed(rules, prior, seat, state.undo_action, apply)
    if revealed:
        raise UndoRefused(HIDDEN_REVEALED, "that action revealed hidden information: it cannot be taken back")
    prior.version = state.version + 1
    clear(prior)
    return prior, [Event(type="undo", data={"seat": seat, "undone": state.version})]


def _revealed(rules, prior: TableState, seat: int, action, apply) -> bool:
    """Whether playing `action` on `prior` shows any viewer a card (or other id) it could not
    see before: a drawn card, a refilled row, a card turned face up, a secret answer revealed."""
    from core.engine import view, view_events
    from core.secrets import strings

    viewers = [*range(len(prior.seats)), None]
    hidden = {v: _hidden_ids(rules, prior, v) for v in viewers}
    after, events = apply(rules, prior, seat, action)  # a copy: `prior` stays as it was
    for v in viewers:
        if not hidden[v]:
            continue
        shown = {s for _, s in strings(view(rules, after, v))} | {s for _, s in strings(view_events(events, v))}
        if shown & hidden[v]:
            return True
    return False


def _hidden_ids(rules, state: TableState, viewer: int | None) -> set[str]:
    """The ids this viewer cannot see in `state`: what its game calls secret for it, and every
    card its game can name (its glossary) that is somewhere in the state but not in the
    viewer's view (a deck whose contents are public still hides which card comes next)."""
    import msgspec

    from core.engine import view
    from core.glossary import strings_in

    seen_view = view(rules, state, viewer)
    seen = strings_in(seen_view)
    whole = msgspec.to_builtins(state)
    whole.pop("undo_point", None)
    out: set[str] = set()
    for part in rules.hook.conclave_secrets(state=state, viewer=viewer, events=[]):
        if isinstance(part, dict):
            out |= set(part.get("view", ())) | set(part.get("events", ()))
        elif part:
            out |= set(part)
    # the games name cards from the viewer's view (some read its structure): the view, with
    # the whole state's strings added under a key of the kernel's own
    for part in rules.hook.conclave_glossary(state=state, viewer=viewer, view={**seen_view, "__state__": whole}):
        out |= set(part or {}) - seen
    return out
