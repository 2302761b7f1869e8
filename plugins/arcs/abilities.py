"""The op registry: how a card's `Ability` (content.py) becomes rules.

Each op a card names is implemented once, by name (`@op("gain", params=...)`), whoever's
card uses it: Court cards in `court_ops.py`, Lore and Leaders in `lore_ops.py`. The flow
asks `held(...)` which abilities a seat may use at a trigger point and runs the chosen one
with `use(...)`, which decodes the choices strictly, checks them and applies them; an
illegal choice raises a typed `ActionRejected` and leaves the table exactly as it was.
Standing rules ("always" and similar) have no `apply`: the rules read them through
`modifiers(...)` and the small helpers beside each op.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import msgspec

from core.errors import ActionRejected, BadParameter, EngineError, IllegalAction
from core.seats import no_such_seat, seat_name
from plugins.arcs.content import Ability, Box
from plugins.arcs.state import ArcsState

# Triggers whose card is discarded face up to the Court discard once its effect is done (ARCS-118).
DISCARDING = ("prelude_discard", "prelude_first_discard")
# A card in a campaign's rules booklet with an ability of this trigger is every player's to use.
SHARED_TRIGGERS = ("prelude",)


@dataclass(frozen=True)
class OpImpl:
    op: str
    params: Any = None
    apply: Callable | None = None
    candidates: Callable | None = None
    usable: Callable | None = None


class Moment(msgspec.Struct, kw_only=True):
    """What the flow knows about the moment an ability is used that the table state does not
    keep (the round's played cards, the battle roll in progress). The flow keeps one per
    turn in its own bookkeeping and reads back what an op changed (a declaration, a reroll)."""

    face_up: list[str] = []        # action cards lying face up this round
    played: str = ""               # the action card this seat played this turn
    play: str = ""                 # how it was played: lead, surpass, copy or pivot
    acted: bool = False            # the seat has used a Prelude action or an action this turn
    declared: str = ""             # the ambition declared this round, "" when none
    zero_marker: bool = False      # whether that declaration put the zero marker on the lead card
    roll: list[tuple[str, int]] = []  # the attacker's roll (die kind, face index), for battle_roll ops
    used: list[str] = []           # "card:index" of limited abilities used this turn / this roll


@dataclass
class Env:
    """What an op may touch. `chance` is a core.flow.Ctx (or None outside a flow): every
    random draw goes through core.chance with it; `emit` takes Ctx.emit's arguments."""

    state: ArcsState
    box: Box
    chance: Any
    emit: Callable[..., None]
    moment: Moment = field(default_factory=Moment)


@dataclass(frozen=True)
class Use:
    seat: int
    card: str
    index: int
    ability: Ability


OPS: dict[str, OpImpl] = {}

# A game built on Arcs may forbid held abilities while one of its standing rules says so
# (the campaign's Guild Overseers): fn(env, use) -> the reason it is refused now, or "".
# Each answers "" for a table it does not know, so a base game is unchanged.
RESTRICTIONS: list[Callable[["Env", "Use"], str]] = []

# A game built on Arcs may put a price on harm a card's effect does outside a battle (the
# campaign's Ceasefires). Each price is a pair (refused, pay): refused(state, seat, harmed)
# says why the seat may not do that harm now, or ""; pay(env, seat, harmed) takes the price
# as the harm goes ahead. `harmed` maps each system to the owners whose pieces the effect
# would harm there (seats, or a game's names such as "empire"). Empty: harm costs nothing more.
HARM_PRICES: list[tuple[Callable[[ArcsState, int, dict], str], Callable[["Env", int, dict], None]]] = []


def harm_refused(state: ArcsState, seat: int, harmed: dict) -> str:
    """Why a price on harm forbids the seat this harm now ("" when none does)."""
    return next((why for refused, _ in HARM_PRICES if (why := refused(state, seat, harmed))), "")


def pay_for_harm(env: "Env", seat: int, harmed: dict) -> None:
    """Refuse the harm (IllegalAction) when a price forbids it, else pay every price; an op
    calls it before harming, so a refusal leaves the table as it was."""
    why = harm_refused(env.state, seat, harmed)
    if why:
        raise IllegalAction(why)
    for _, pay in HARM_PRICES:
        pay(env, seat, harmed)


# A game built on Arcs may give a seat abilities held by no card of the base rules (the
# campaign's Flagship Upgrades aid card while its Slipstream Drive is built):
# fn(state, box, seat) -> [(card id, abilities)]. Each answers [] for a table it does not
# know, so a base game holds exactly what it did.
HELD_SOURCES: list[Callable[[ArcsState, Box, int], list]] = []


def restricted(env: "Env", u: "Use") -> str:
    """Why a standing rule of the game forbids this use now ("" when none does)."""
    for rule in RESTRICTIONS:
        reason = rule(env, u)
        if reason:
            return reason
    return ""


def op(name: str, params: Any = None, candidates: Callable | None = None, usable: Callable | None = None):
    """Register `apply` as the implementation of op `name` (once: a second registration is a bug)."""
    def register(apply: Callable | None) -> Callable | None:
        if name in OPS:
            raise EngineError(f"op {name!r} is implemented twice")
        OPS[name] = OpImpl(op=name, params=params, apply=apply, candidates=candidates, usable=usable)
        return apply
    return register


def standing(*names: str) -> None:
    """Register ops that are standing rules: read through `modifiers`, never used."""
    for name in names:
        op(name)(None)


def cards_of(state: ArcsState, box: Box, seat: int) -> list[tuple[str, list[Ability]]]:
    """The seat's cards that carry abilities: Guild cards in its play area, Lore, Leader (and
    a campaign's other held cards, and the laws of its rules booklet everyone may use)."""
    player = state.players[seat]
    out = [(c, box.court[c].abilities) for c in player.guild]
    out += [(c, box.lore[c].abilities) for c in player.lore]
    if player.leader:
        out.append((player.leader, box.leaders[player.leader].abilities))
    area = getattr(state, "play_area", None)  # a campaign's other held cards (Fate abilities, titles)
    if area and seat < len(area):
        out += [(c, box.other_cards[c]) for c in area[seat]]
    booklet = getattr(state, "booklet", None)  # a campaign law with a Prelude action is everyone's (Golem Actions)
    if booklet:
        out += [(c, box.other_cards[c]) for slot in booklet for c in slot[:1]
                if any(ab.when in SHARED_TRIGGERS for ab in box.other_cards.get(c, ()))]
    for source in HELD_SOURCES:
        out += source(state, box, seat)
    return out


def held(state: ArcsState, box: Box, seat: int, when: str) -> list[Use]:
    """The seat's abilities with trigger `when` (Guild cards in play area, Lore, Leader)."""
    return [Use(seat, card, i, ab) for card, abilities in cards_of(state, box, seat)
            for i, ab in enumerate(abilities) if ab.when == when]


def modifiers(state: ArcsState, box: Box, seat: int, op: str) -> list[Use]:
    """The seat's held abilities doing `op`, whatever their trigger: a standing rule is read
    where the rules apply it (e.g. `extra_dice` when collecting dice)."""
    return [Use(seat, card, i, ab) for card, abilities in cards_of(state, box, seat)
            for i, ab in enumerate(abilities) if ab.do == op]


def secured_uses(box: Box, card: str, seat: int) -> list[Use]:
    """The `secured` abilities of a Vox card the seat has just secured, in card order."""
    return [Use(seat, card, i, ab) for i, ab in enumerate(box.court[card].abilities) if ab.when == "secured"]


def _check_real(state: ArcsState, box: Box, u: Use) -> None:
    if not 0 <= u.seat < len(state.players):
        raise BadParameter(no_such_seat(u.seat, len(state.players)))
    if u.card in box.court and box.court[u.card].kind == "vox":
        if u.card not in state.resolving:
            raise IllegalAction(f"{u.card} is not being secured now")
        abilities = box.court[u.card].abilities
    else:
        abilities = dict(cards_of(state, box, u.seat)).get(u.card)
        if abilities is None:
            raise IllegalAction(f"{seat_name(u.seat)} does not hold {u.card!r}")
    if not 0 <= u.index < len(abilities) or abilities[u.index] != u.ability:
        raise BadParameter(f"{u.card} has no such ability {u.index}")


def decode(impl: OpImpl, params: dict | None) -> Any:
    """Choices as the op's params type, strictly: unknown fields or wrong types are refused."""
    if impl.params is None:
        if params:
            raise BadParameter(f"{impl.op} takes no choices")
        return None
    try:
        return msgspec.convert(params or {}, impl.params, strict=True)
    except msgspec.ValidationError as exc:
        raise BadParameter(f"{impl.op}: {exc}") from None


def can_use(env: Env, u: Use) -> bool:
    """Whether the ability is implemented and usable now (what the flow offers)."""
    impl = OPS.get(u.ability.do)
    return (impl is not None and impl.apply is not None and (impl.usable is None or bool(impl.usable(env, u)))
            and not restricted(env, u))


def candidates(env: Env, u: Use) -> list[dict]:
    impl = OPS.get(u.ability.do)
    if not can_use(env, u):
        return []
    return list(impl.candidates(env, u)) if impl.candidates else [{}]


def use(env: Env, u: Use, params: dict | None, restrictions_checked: bool = False) -> None:
    """Decode the choices strictly, check them and apply them. A refused choice raises an
    `ActionRejected` and leaves the state (and the moment) as they were; events are only
    sent once the effect has gone through. A card whose trigger discards it goes to the
    Court discard afterwards (ARCS-118). `restrictions_checked`: a game's standing
    restrictions were judged already, as the action was chosen (before its cost was paid)."""
    _check_real(env.state, env.box, u)
    impl = OPS.get(u.ability.do)
    if impl is None or impl.apply is None:
        raise IllegalAction(f"{u.card}: {u.ability.do} is a standing rule, not something to use")
    choice = decode(impl, params)
    if impl.usable is not None and not impl.usable(env, u):
        raise IllegalAction(f"{u.card}: {u.ability.do} cannot be used now")
    reason = "" if restrictions_checked else restricted(env, u)
    if reason:
        raise IllegalAction(f"{u.card}: {reason}")
    before, moment = msgspec.json.encode(env.state), msgspec.json.encode(env.moment)
    events: list[tuple[tuple, dict]] = []
    real_emit = env.emit
    env.emit = lambda *a, **k: events.append((a, k))
    try:
        impl.apply(env, u, choice)
    except ActionRejected:
        _restore(env, before, moment)
        raise
    finally:
        env.emit = real_emit
    for a, k in events:
        real_emit(*a, **k)
    if u.ability.when in DISCARDING and u.card in env.state.players[u.seat].guild:
        env.state.players[u.seat].guild.remove(u.card)
        env.state.court_discard.append(u.card)
        env.emit("card_discarded", seat=u.seat, card=u.card)


def _restore(env: Env, state_bytes: bytes, moment_bytes: bytes) -> None:
    """A belt to the ops' braces: put every field back as it was before a refused apply."""
    old = msgspec.json.decode(state_bytes, type=type(env.state))
    for name in env.state.__struct_fields__:
        setattr(env.state, name, getattr(old, name))
    old_moment = msgspec.json.decode(moment_bytes, type=Moment)
    for name in Moment.__struct_fields__:
        setattr(env.moment, name, getattr(old_moment, name))


def usable_all(env: Env, uses: Iterable[Use]) -> list[Use]:
    return [u for u in uses if can_use(env, u)]


# The Court, Lore and Leader ops register themselves on import.
from plugins.arcs import court_ops  # noqa: E402,F401
from plugins.arcs import lore_ops  # noqa: E402,F401
