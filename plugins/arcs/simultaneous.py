"""Effects due at the same moment that the rules leave unordered (ARCS-270): the player whose
turn it is puts them in order; outside any turn the initiative holder does.

The question (`arcs.effect_order`, listing the effects still pending) is put only when the
order can change the outcome: every order is first tried on a copy of the table, and if all
of them leave the same table the effects are applied in turn order without asking. After
each pick the rest is judged again, so a last pair that commutes is not asked about.
"""
from __future__ import annotations

from itertools import permutations

import msgspec

from core.errors import IllegalAction
from core.seats import seat_name
from plugins.arcs import abilities, lore_ops
from plugins.arcs.content import Box, box_for
from plugins.arcs.moments import env_for
from plugins.arcs.state import ArcsState
from plugins.arcs.tables import decisions, steps


class Effect(msgspec.Struct, forbid_unknown_fields=True):
    """One pending effect: the ability `index` of `card`, held by `seat`."""

    seat: int
    card: str
    index: int


def chooser(state: ArcsState) -> int:
    """ARCS-270: the seat taking a turn, else the initiative holder."""
    return state.turn.seat if state.turn is not None else state.initiative


def after_scoring_effects(state: ArcsState, box: Box, scored: list[str]) -> list[Effect]:
    """The mandatory after-scoring effects due now, in turn order from the initiative holder:
    the Cartels' discards (ARCS-315) and Lavish when its ambition was scored."""
    n = len(state.players)
    out = []
    for seat in [(state.initiative + i) % n for i in range(n)]:
        for u in abilities.held(state, box, seat, "after_scoring"):
            impl = abilities.OPS.get(u.ability.do)
            if lore_ops.lavish_due(u, scored) or (impl is not None and impl.apply is not None):
                out.append(Effect(seat=u.seat, card=u.card, index=u.index))
    return out


def _use(state: ArcsState, box: Box, e: Effect) -> abilities.Use:
    ability = dict(abilities.cards_of(state, box, e.seat))[e.card][e.index]
    return abilities.Use(e.seat, e.card, e.index, ability)


def apply_effect(state: ArcsState, box: Box, e: Effect, ctx=None) -> None:
    """Apply one effect (events through `ctx`; none on a trial copy)."""
    u = _use(state, box, e)
    if u.ability.do == "discard_all_if_scored":  # Lavish is part of the chapter's procedure
        count = lore_ops.lavish_discard(state, u)
        if ctx is not None:
            ctx.emit("resources_discarded", seat=e.seat, count=count, why="lavish")
        return
    abilities.use(env_for(box, state, ctx, seat=e.seat), u, None)
    if ctx is not None:
        ctx.emit("ability", seat=e.seat, card=e.card, index=e.index, op=u.ability.do)


def order_matters(state: ArcsState, box: Box, effects: list[Effect]) -> bool:
    """Whether two orders of `effects` leave different tables (tried on copies)."""
    if len(effects) < 2:
        return False
    seen = set()
    for order in permutations(effects):
        trial = msgspec.convert(msgspec.to_builtins(state), type(state))
        for e in order:
            apply_effect(trial, box, e)
        seen.add(msgspec.json.encode(trial))
        if len(seen) > 1:
            return True
    return False


def _pending(effects: list) -> list[Effect]:
    return [msgspec.convert(e, Effect) for e in effects]


@steps("simultaneous")
def resolve_simultaneous(ctx, effects: list):
    """Apply the pending effects, asking the chooser for the next one while the order matters."""
    state, box = ctx.state, box_for(ctx.state)
    pending = _pending(effects)
    if not order_matters(state, box, pending):
        for e in pending:
            apply_effect(state, box, e, ctx)
        return
    ctx.decide(chooser(state), "arcs.effect_order", resume=effect_chosen, effects=list(effects))


@decisions.kind("effect_order", answer="resolve_first", params=Effect,
                describe="Which of the simultaneous effects resolves next (ARCS-270).")
def check_effect_order(state, seat, prompt, answer: Effect):
    if answer not in _pending(prompt.args["effects"]):
        raise IllegalAction(f"{answer.card} ({seat_name(answer.seat)}) is not one of the effects to order")


@check_effect_order.candidates
def _effect_candidates(state, seat, prompt):
    for e in _pending(prompt.args["effects"]):
        yield msgspec.to_builtins(e)


@steps("effect_chosen")
def effect_chosen(ctx, seat, params: Effect, effects: list):
    pending = _pending(effects)
    apply_effect(ctx.state, box_for(ctx.state), params, ctx)
    pending.remove(params)
    ctx.push(resolve_simultaneous, effects=[msgspec.to_builtins(e) for e in pending])
