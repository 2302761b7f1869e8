"""Where a resource token goes when a seat gains, takes, steals or is given one, and what a
returning city pushes off its slots (ARCS-209, ARCS-210, ARCS-250). Pure rules.

A token coming to a seat first waits in a `Placing` record (out of the supply, in no slot);
the owner's answer is the final contents of their resource row. The legal answers:
- room for every waiting token: each goes into an empty open slot, the held tokens stay
  where they are (ARCS-210: no rearranging while a slot is free);
- no room (or a returning city covered a slot): any arrangement of held + waiting tokens
  over the open slots, keeping as many as fit; the rest go to the supply.
When only one answer is legal it is applied without asking (`forced`).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator

from core.errors import BadParameter, IllegalAction
from plugins.arcs.content import Box
from plugins.arcs.setup import open_slots
from plugins.arcs.state import ArcsState, Placing

Row = list  # a seat's resource row: one entry per slot, a resource or None


def waiting(state: ArcsState, seat: int) -> Placing:
    """The seat's record of tokens still to place (a new one if it has none)."""
    for record in state.placing:
        if record.seat == seat:
            return record
    state.placings += 1
    record = Placing(seat=seat, number=state.placings)
    state.placing.append(record)
    return record


def gain(state: ArcsState, seat: int, resource: str) -> bool:
    """Take one token from the supply for the seat to place; False (nothing happens) when
    that supply is empty (ARCS-207). Whether it is kept is the placement's business."""
    if state.supply.get(resource, 0) <= 0:
        return False
    state.supply[resource] -= 1
    waiting(state, seat).tokens.append(resource)
    return True


def receive(state: ArcsState, seat: int, resource: str) -> None:
    """A token that left another seat (stolen, given) comes to this seat to place (ARCS-202)."""
    waiting(state, seat).tokens.append(resource)


def cover_slots(box: Box, state: ArcsState, seat: int, before: list[int]) -> None:
    """A returned city covers slots that were open (`before`: the open slots until then):
    their tokens wait to be placed again, and everything may be rearranged (ARCS-250)."""
    player = state.players[seat]
    now = set(open_slots(box, player))
    covered = [i for i in before if i not in now]
    if not covered:
        return
    record = waiting(state, seat)
    record.rearrange = True
    for i in covered:
        if player.resources[i] is not None:
            record.tokens.append(player.resources[i])
            player.resources[i] = None


def _rearranges(box: Box, state: ArcsState, record: Placing) -> bool:
    player = state.players[record.seat]
    empty = sum(1 for i in open_slots(box, player) if player.resources[i] is None)
    return record.rearrange or len(record.tokens) > empty


def outcomes(box: Box, state: ArcsState, record: Placing) -> Iterator[Row]:
    """Every distinct legal final row, each once: first those that move no held token
    (the leftmost filling first), then the other arrangements."""
    row = state.players[record.seat].resources
    slots = open_slots(box, state.players[record.seat])
    if not _rearranges(box, state, record):
        empty = [i for i in slots if row[i] is None]
        yield from _fill(list(row), empty, Counter(record.tokens), _order(record.tokens))
        return
    pool = Counter([row[i] for i in slots if row[i] is not None] + record.tokens)
    keep = min(len(slots), sum(pool.values()))
    seen: set[tuple] = set()
    for first in _unmoved(row, slots, record.tokens, pool):
        seen.add(tuple(first))
        yield first
    base = [None] * len(row)
    for found in _fill(base, slots, pool, _order([r for r in row if r] + record.tokens), keep):
        if tuple(found) not in seen:
            yield found


def _order(tokens) -> list[str]:
    return list(dict.fromkeys(tokens))


def _fill(row: Row, slots: list[int], left: Counter, kinds: list[str], keep: int | None = None) -> Iterator[Row]:
    """Rows that put exactly `keep` (default: all) of the `left` tokens into `slots`, the
    rest of `slots` empty; tokens before blanks, so the leftmost filling comes first."""
    need = sum(left.values()) if keep is None else keep

    def walk(at: int, need: int) -> Iterator[Row]:
        if at == len(slots):
            if need == 0:
                yield list(row)
            return
        room = len(slots) - at
        if need > 0:
            for kind in kinds:
                if left[kind] > 0:
                    left[kind] -= 1
                    row[slots[at]] = kind
                    yield from walk(at + 1, need - 1)
                    left[kind] += 1
        if need < room:
            row[slots[at]] = None
            yield from walk(at + 1, need)

    yield from walk(0, need)


def _unmoved(row: Row, slots: list[int], tokens: list[str], pool: Counter) -> Iterator[Row]:
    """With no room: the answers that move nothing held, one per type that can be dropped
    (a new token of it, or a held one replaced in its slot by a new token)."""
    if len(tokens) != 1 or any(row[i] is None for i in slots):
        return
    new = tokens[0]
    yield list(row)  # the new token is the one discarded
    for i in slots:
        if row[i] != new:
            out = list(row)
            out[i] = new
            yield out


def check(box: Box, state: ArcsState, record: Placing, row: Row) -> None:
    """Refuse (typed) a final row the rules do not allow; change nothing."""
    player = state.players[record.seat]
    current = player.resources
    if len(row) != len(current):
        raise BadParameter(f"give all {len(current)} slots of the resource row (empty ones as null)")
    slots = set(open_slots(box, player))
    for i, r in enumerate(row):
        if r is not None and r not in box.board.resources:
            raise BadParameter(f"{r!r} is not a resource")
        if r is not None and i not in slots:
            raise IllegalAction(f"slot {i + 1} is covered by a city")
    placed = Counter(r for r in row if r is not None)
    held = Counter(current[i] for i in slots if current[i] is not None)
    pool = held + Counter(record.tokens)
    if placed - pool:
        extra = ", ".join(sorted((placed - pool).elements()))
        raise IllegalAction(f"no such token to place: {extra}")
    if not _rearranges(box, state, record):
        moved = [i + 1 for i in sorted(slots) if current[i] is not None and row[i] != current[i]]
        if moved:
            raise IllegalAction(f"an empty open slot is free: held tokens stay put (slot {moved[0]}, ARCS-210)")
        if placed != pool:
            raise IllegalAction("every token fits: none may be discarded (ARCS-209)")
        return
    keep = min(len(slots), sum(pool.values()))
    if sum(placed.values()) != keep:
        raise IllegalAction(f"keep {keep} token(s): discard only what cannot fit (ARCS-209)")


def apply(state: ArcsState, record: Placing, row: Row) -> dict[str, int]:
    """Set the row (already checked), send what it leaves out to the supply and close the
    record. Returns the discarded tokens by type."""
    player = state.players[record.seat]
    before = Counter(r for r in player.resources if r is not None) + Counter(record.tokens)
    after = Counter(r for r in row if r is not None)
    lost = before - after
    player.resources = list(row)
    for r, n in lost.items():
        state.supply[r] += n
    state.placing.remove(record)
    return dict(sorted(lost.items()))


def forced(box: Box, state: ArcsState, record: Placing) -> Row | None:
    """The only legal row when there is exactly one (nothing to ask), else None."""
    found = outcomes(box, state, record)
    first = next(found, None)
    if first is None or next(found, None) is not None:
        return None
    return first
