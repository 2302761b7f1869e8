"""The card-ability op registry: each `Op` of content.py that a player uses is implemented
once here by name, whatever card holds it (Court, Lore or Leader).

Minimal version written against the shared interface (arcs-interface.md) so the Lore and
Leader ops can register and be tested; the Court helper's fuller version replaces it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import msgspec

from core.errors import BadParameter, EngineError, IllegalAction
from plugins.arcs.content import Ability, Box
from plugins.arcs.state import ArcsState


@dataclass(frozen=True)
class OpImpl:
    op: str
    params: Any = None            # msgspec Struct of the choices made when using it (None: none)
    apply: Callable | None = None  # apply(env, use, params): refuses (ActionRejected) before changing anything
    candidates: Callable | None = None  # candidates(env, use) -> Iterable[dict] of complete params
    usable: Callable | None = None      # usable(env, use) -> bool


@dataclass
class Env:
    """What an op may touch: the state, the box, the chance source (a core.flow.Ctx) and events."""

    state: ArcsState
    box: Box
    chance: Any
    emit: Callable[..., None]


@dataclass(frozen=True)
class Use:
    seat: int
    card: str
    index: int
    ability: Ability


OPS: dict[str, OpImpl] = {}


def op(name: str, params: Any = None, candidates: Callable | None = None, usable: Callable | None = None):
    """Register `apply` as the implementation of op `name` (once)."""

    def register(apply: Callable) -> Callable:
        if name in OPS:
            raise EngineError(f"op {name!r} is implemented twice")
        OPS[name] = OpImpl(op=name, params=params, apply=apply, candidates=candidates, usable=usable)
        return apply

    return register


def _cards(state: ArcsState, box: Box, seat: int) -> Iterable[tuple[str, list[Ability]]]:
    """The seat's cards with abilities: Guild cards in its play area, Lore, its Leader."""
    player = state.players[seat]
    for card in player.guild:
        yield card, box.court[card].abilities
    for card in player.lore:
        yield card, box.lore[card].abilities
    if player.leader:
        yield player.leader, box.leaders[player.leader].abilities


def held(state: ArcsState, box: Box, seat: int, when: str) -> list[Use]:
    """The seat's abilities with trigger `when`, in play-area order."""
    return [Use(seat, card, i, ab) for card, abilities in _cards(state, box, seat)
            for i, ab in enumerate(abilities) if ab.when == when]


def modifiers(state: ArcsState, box: Box, seat: int, op_name: str) -> list[Use]:
    """The seat's abilities doing `op_name`, whatever their trigger (the rules read standing ones)."""
    return [Use(seat, card, i, ab) for card, abilities in _cards(state, box, seat)
            for i, ab in enumerate(abilities) if ab.do == op_name]


def use(env: Env, u: Use, params: dict) -> None:
    """Decode `params` strictly for the op, check it may be used now, apply it."""
    impl = OPS.get(u.ability.do)
    if impl is None or impl.apply is None:
        raise IllegalAction(f"{u.card}'s {u.ability.do} is not an ability one uses")
    if impl.params is None:
        if params:
            raise BadParameter(f"{u.ability.do} takes no parameters")
        decoded = None
    else:
        try:
            decoded = msgspec.convert(params, impl.params, strict=True)
        except msgspec.ValidationError as exc:
            raise BadParameter(f"{u.ability.do}: {exc}") from None
    if impl.usable is not None and not impl.usable(env, u):
        raise IllegalAction(f"{u.card}'s {u.ability.do} cannot be used now")
    impl.apply(env, u, decoded)
