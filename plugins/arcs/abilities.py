"""The op registry: how card abilities plug into the Arcs flow (arcs-interface.md).

This is the interface only, so the game's flow can call it at every trigger point: no op
is registered here, `held` and `modifiers` find nothing until ops are registered. The Court,
Lore and Leader ops register themselves into `OPS` with `@op(...)` (their own modules).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import msgspec

from core.errors import BadParameter, IllegalAction
from plugins.arcs.content import Ability, Box
from plugins.arcs.state import ArcsState


@dataclass(frozen=True)
class OpImpl:
    op: str
    params: Any = None
    apply: Callable = None
    candidates: Callable | None = None
    usable: Callable | None = None


@dataclass
class Env:
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


def op(name: str, params=None, candidates=None, usable=None):
    """Decorator registering `apply` as the implementation of op `name`."""
    def register(fn):
        OPS[name] = OpImpl(op=name, params=params, apply=fn, candidates=candidates, usable=usable)
        return fn
    return register


def _cards(state: ArcsState, box: Box, seat: int):
    player = state.players[seat]
    for card in player.guild:
        yield card, box.court[card].abilities
    for card in player.lore:
        yield card, box.lore[card].abilities
    if player.leader:
        yield player.leader, box.leaders[player.leader].abilities


def held(state: ArcsState, box: Box, seat: int, when: str) -> list[Use]:
    """The seat's abilities with trigger `when` whose op is implemented."""
    return [Use(seat, card, i, ab) for card, abilities in _cards(state, box, seat)
            for i, ab in enumerate(abilities) if ab.when == when and ab.do in OPS]


def use(env: Env, use: Use, params: dict) -> None:
    """Decode the params strictly, then apply (the op refuses an illegal choice first)."""
    impl = OPS.get(use.ability.do)
    if impl is None:
        raise IllegalAction(f"{use.card}: {use.ability.do} cannot be used")
    decoded = None
    if impl.params is not None:
        try:
            decoded = msgspec.convert(params, impl.params, strict=True)
        except msgspec.ValidationError as exc:
            raise BadParameter(f"{use.card}: {exc}") from None
    elif params:
        raise BadParameter(f"{use.card}: this ability takes no choices")
    impl.apply(env, use, decoded)


def modifiers(state: ArcsState, box: Box, seat: int, op: str) -> list[Use]:
    """Standing abilities of the seat with that op (the rules read them where they apply)."""
    return [Use(seat, card, i, ab) for card, abilities in _cards(state, box, seat)
            for i, ab in enumerate(abilities) if ab.do == op and ab.when == "always" and op in OPS]
