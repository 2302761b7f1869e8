"""Flagships in battle on the Arcs battle flow (BR-271, BR-281..BR-290, BR-299, BR-303): the
campaign's `arcs_battle_resolve` (`plugins.blighted_reach.empire_battle.resolve_part`) asks
`resolve_flagships` first, and it answers only when a Flagship with pieces on its board stands in the
battle system on the side a symbol strikes; otherwise the campaign's and the base flow's
resolution goes on unchanged.

- Hits on the attacking side (self-hits, intercepts) with the attacker's Flagship there: the
  attacker chooses, as for ships (BR-282, BR-284), how many land on its other ships and which
  board slots take the rest (each on the slot's Armor while it stands, BR-281): a typed
  decision `br.flagship_hits`. Another seat's Flagship attacking with the attacker (the
  Judge's, moved into battle by Judge's Chosen: `ATTACKING_BOARDS`) is hit the same way.
- A defending Flagship deals intercept hits only with a Defense Array, one per fresh starport
  on its board (BR-287, BR-299); the other defending ships intercept as usual.
- Hits on the defender: its other ships first; once none is left, the rest strike the board
  in the fixed order (BR-289); building hits strike the board first (BR-288); hits the board
  cannot take go on to the defender's buildings on the map. Destroyed board pieces are the
  attacker's Trophies and provoke no Outrage (BR-279).
The dice an attacking Flagship collects, the Raid Dice Limit and the Tractor Beam are read
where the dice are checked (`rules.battle_dice`, `rules.raid_rule`).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter
from plugins.arcs.battle import ship_capacity
from plugins.arcs.battle_flow import ShipSplit, resolve
from plugins.arcs.content import box_for
from plugins.arcs.state import Ships
from plugins.blighted_reach import empire_battle as eb
from plugins.blighted_reach.tables import decisions, steps
from plugins.flagships import rules
from plugins.flagships.state import Flagship, board_of, flagship_system, store


class FlagshipSplit(msgspec.Struct, forbid_unknown_fields=True):
    """Hits on an attacking side with a Flagship: on its Loyal and Imperial ships and the
    Judge's ships attacking with it (as `br.side_hits`), one hit per entry of `board` on that
    slot of the attacker's Flagship board, and one per entry of `judge_board` on the Judge's
    (its Flagship attacking with the holder of Judge's Chosen)."""

    loyal: ShipSplit = msgspec.field(default_factory=ShipSplit)
    imperial: ShipSplit = msgspec.field(default_factory=ShipSplit)
    board: list[int] = []
    judge: ShipSplit = msgspec.field(default_factory=ShipSplit)
    judge_board: list[int] = []


# Another seat's Flagship attacking with the attacker (the campaign's Judge's Chosen):
# fn(state) -> that seat, or -1. Its board takes the attacking side's hits as the attacker
# chooses, as the attacker's own board does.
ATTACKING_BOARDS: list = []


def board_in_battle(state, seat: int) -> Flagship | None:
    """The seat's Flagship when it stands in the battle system with pieces on its board."""
    b = state.battle
    if seat < 0 or flagship_system(state, seat) != b.system:
        return None
    ship = board_of(state, seat)
    return ship if any(True for _ in ship.pieces()) else None


def other_board_seat(state) -> int:
    """The seat of another Flagship attacking with the attacker, its board in the battle; -1."""
    for rule in ATTACKING_BOARDS:
        seat = rule(state)
        if seat >= 0 and seat != state.battle.attacker and board_in_battle(state, seat) is not None:
            return seat
    return -1


def attacking_boards(state) -> list[tuple[int, str]]:
    """(seat, the split's field) of each board on the attacking side now."""
    out = [(state.battle.attacker, "board")] if board_in_battle(state, state.battle.attacker) is not None else []
    other = other_board_seat(state)
    return out + ([(other, "judge_board")] if other >= 0 else [])


def _capacity(state, seat: int) -> int:
    ship = board_in_battle(state, seat)
    return rules.board_capacity(ship) if ship is not None else 0


def _ship_hits(split: FlagshipSplit) -> int:
    return sum(p.damage_fresh + 2 * p.destroy_fresh + p.destroy_damaged for p in (split.loyal, split.imperial,
                                                                                   split.judge))


def _on_boards(split: FlagshipSplit) -> int:
    return len(split.board) + len(split.judge_board)


def check_split(state, hits: int, split: FlagshipSplit) -> None:
    """Every hit that can land does (ships and boards together); each board's part lands slot
    by slot on what is left there (a trial on a copy)."""
    _, loyal, imperial = eb.side_ships(state, eb.ATTACKING)
    judge = eb.side_judge(state, eb.ATTACKING)
    boards = attacking_boards(state)
    fields = {name: seat for seat, name in boards}
    for name in ("board", "judge_board"):
        if getattr(split, name) and name not in fields:
            raise BadParameter(f"no such Flagship board attacks here: {name!r} must be empty")
    room = ship_capacity(loyal) + ship_capacity(imperial) + ship_capacity(judge)
    need = min(hits, room + sum(_capacity(state, seat) for seat, _ in boards))
    on_ships = need - _on_boards(split)
    if on_ships < 0:
        raise BadParameter(f"only {need} hit(s) land, not {_on_boards(split)} on the boards")
    eb.check_side_split(loyal, imperial, on_ships, _side(split), judge)
    if _ship_hits(split) + _on_boards(split) != need:
        raise BadParameter(f"{need} hit(s) must be taken, not {_ship_hits(split) + _on_boards(split)}")
    for seat, name in boards:
        picks = list(getattr(split, name))
        if picks:
            rules.check_attacking_hits(state, seat, Ships(), len(picks), 0, picks)


def _picks(ship: Flagship, count: int) -> list[int]:
    """`count` hits on the board right to left (any order of the same slots lands alike)."""
    picks, trial = [], msgspec.convert(msgspec.to_builtins(ship), Flagship)
    for _ in range(count):
        index = next(i for i, _ in rules.defending_order(trial))
        rules.hit_piece(trial, index, "armor" if trial.slots[index].armor is not None else "upgrade")
        picks.append(index)
    return picks


def splits(state, hits: int):
    """Every split the rules accept, each board's part taken right to left."""
    _, loyal, imperial = eb.side_ships(state, eb.ATTACKING)
    judge = eb.side_judge(state, eb.ATTACKING)
    boards = dict((name, seat) for seat, name in attacking_boards(state))
    mine, other = boards.get("board", -1), boards.get("judge_board", -1)
    room = ship_capacity(loyal) + ship_capacity(imperial) + ship_capacity(judge)
    cap_mine, cap_other = _capacity(state, mine), _capacity(state, other)
    need = min(hits, room + cap_mine + cap_other)
    for on_mine in range(0, min(need, cap_mine) + 1):
        for on_other in range(0, min(need - on_mine, cap_other) + 1):
            if need - on_mine - on_other > room:
                continue
            picks = _picks(board_of(state, mine), on_mine) if on_mine else []
            theirs = _picks(board_of(state, other), on_other) if on_other else []
            for side in eb.side_splits(loyal, imperial, need - on_mine - on_other, judge):
                yield FlagshipSplit(loyal=side.loyal, imperial=side.imperial, board=picks, judge=side.judge,
                                    judge_board=theirs)


def _side(split: FlagshipSplit) -> eb.SideSplit:
    """The ships' part of the split, as the campaign applies a side's hits."""
    return eb.SideSplit(loyal=split.loyal, imperial=split.imperial, judge=split.judge)


def attacking_hits(ctx, hits: int) -> None:
    """Hits on the attacking side: with the attacker's board in the battle, its choice over
    ships and board; else the campaign's side hits."""
    state = ctx.state
    if not attacking_boards(state):
        eb.side_hits(ctx, eb.ATTACKING, hits)
        return
    options = list(splits(state, hits))
    if len(options) == 1:
        apply_split(ctx, hits, options[0])
        ctx.push(resolve)
    else:
        ctx.decide(state.battle.attacker, "br.flagship_hits", resume=flagship_hits_done, hits=hits)


@decisions.kind("flagship_hits", answer="assign_flagship_hits", params=FlagshipSplit,
                describe="Split the hits on your attacking side over your ships and your Flagship board.")
def check_flagship_hits(state, seat, prompt, answer: FlagshipSplit):
    check_split(state, prompt.args["hits"], answer)


@check_flagship_hits.candidates
def _flagship_hit_options(state, seat, prompt):
    judged = eb.side_judge(state, eb.ATTACKING).total > 0
    judge_board = other_board_seat(state) >= 0
    for split in splits(state, prompt.args["hits"]):
        answer = msgspec.to_builtins(split)
        if not judged:
            answer.pop("judge")  # no Judge's ship attacks: the answer names none
        if not judge_board:
            answer.pop("judge_board")
        yield answer


@steps("flagship_hits_done")
def flagship_hits_done(ctx, seat, params: FlagshipSplit, hits: int):
    apply_split(ctx, hits, params)
    ctx.push(resolve)


def apply_split(ctx, hits: int, split: FlagshipSplit) -> None:
    """Each board's part first (its pieces to the taker's Trophies, or home where nobody takes
    them), then the ships' part as the campaign applies a side's hits."""
    state = ctx.state
    b = state.battle
    check_split(state, hits, split)
    taker = eb.taker_of(state, eb.ATTACKING)
    for seat, name in attacking_boards(state):
        picks = list(getattr(split, name))
        if not picks:
            continue
        landed = rules.check_attacking_hits(state, seat, Ships(), len(picks), 0, picks)
        ship = board_of(state, seat)
        destroyed = [gone for index, layer in landed if (gone := rules.hit_piece(ship, index, layer)) is not None]
        store(state, seat, ship)
        rules.send_home(box_for(state), state, seat, destroyed, taker)
        ctx.emit("flagship_hit", seat=seat, system=b.system, hit=[list(x) for x in landed],
                 destroyed=[p.kind for p in destroyed])
    eb.apply_side(ctx, eb.ATTACKING, hits - _on_boards(split), _side(split))


def _board_hits(ctx, seat: int, hits: int) -> int:
    """Hits on a defending board in the fixed order; returns those it could not take."""
    state = ctx.state
    b = state.battle
    got = rules.hit_in_order(box_for(state), state, seat, hits, eb.taker_of(state, eb.DEFENDING))
    if got["hit"]:
        ctx.emit("flagship_hit", seat=seat, system=b.system, hit=got["hit"], destroyed=got["destroyed"])
    return got["lost"]


def resolve_flagships(ctx) -> bool | None:
    """The next symbol when it strikes a side with a Flagship board in the battle (True,
    its steps pushed), else None."""
    state = ctx.state
    b = state.battle
    if b is None or not rules.flagship_seats(state):
        return None
    attacking = bool(attacking_boards(state))
    defending = b.defender >= 0 and flagship_system(state, b.defender) == b.system
    if not (attacking or defending):
        return None
    if b.self_hit:
        if not attacking:
            return None
        hits, b.self_hit = b.self_hit, 0
        attacking_hits(ctx, hits)
        return True
    if b.intercept:
        array = rules.intercept_hits(state, b.defender, b.intercept) if defending else 0
        if not attacking and not array:
            return None
        b.intercept = 0
        hits = eb.defending_fresh(state) + array
        if hits:
            attacking_hits(ctx, hits)
        else:
            ctx.push(resolve)
        return True
    if b.hit and defending and board_in_battle(state, b.defender) is not None:
        hits, b.hit = b.hit, 0
        _, loyal, imperial = eb.side_ships(state, eb.DEFENDING)
        on_ships = min(hits, ship_capacity(loyal) + ship_capacity(imperial))
        b.building_hit += _board_hits(ctx, b.defender, hits - on_ships)
        eb.side_hits(ctx, eb.DEFENDING, on_ships)
        return True
    if b.building_hit and defending and board_in_battle(state, b.defender) is not None:
        b.building_hit = _board_hits(ctx, b.defender, b.building_hit)
        ctx.push(resolve)
        return True
    return None
