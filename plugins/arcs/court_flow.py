"""Cards leaving the Court (secure, ransack) and abilities offered at the rules' trigger
points, as steps. The abilities themselves are the op registry's (`abilities.py`): this
only offers them (`arcs.use_ability`) and resolves a Vox card's effect when secured."""
from __future__ import annotations

import msgspec

from core.errors import ActionRejected, IllegalAction
from plugins.arcs import abilities
from plugins.arcs.actions import dispose_vox, refill_court, take_court_card
from plugins.arcs.content import box_for
from plugins.arcs.tables import decisions, steps
from plugins.arcs import lore_ops
from plugins.arcs.moments import env_for, write_back
from plugins.arcs.simultaneous import after_scoring_effects, resolve_simultaneous


class Choice(msgspec.Struct, forbid_unknown_fields=True):
    """Which ability to use now, with its choices; `card` "" declines (done)."""

    card: str = ""
    index: int = -1
    params: dict = {}


FARSEERS_SWAP = "inspect_and_swap"  # offered only after its private look (`look`)


def offered(state, seat: int, when: str, vox: str = "", used: list | None = None,
            look: int = -1) -> list[abilities.Use]:
    """The abilities open to `seat` at this trigger that `abilities.can_use` allows now: a
    secured Vox card's own, or the held ones, less those already used at this trigger.
    Standing rules are never offered (the rules read them)."""
    box = box_for(state)
    used = used or []
    if vox:
        found = abilities.secured_uses(box, vox, seat)
    else:
        found = abilities.held(state, box, seat, when)
    env = env_for(box, state, seat=seat, used=used)
    open_now = [u for u in found if [u.card, u.index] not in used and abilities.can_use(env, u)
                and (u.ability.do != FARSEERS_SWAP or look >= 0)]
    return open_now[:1] if vox else open_now  # a Vox card's parts resolve in card order


def _options(state, seat: int, use: abilities.Use, used: list, look: int) -> list[dict]:
    options = abilities.candidates(env_for(box_for(state), state, seat=seat, used=used), use)
    if use.ability.do == FARSEERS_SWAP:
        return [{"rival": look}]
    return options


@steps("offer")
def offer(ctx, seat: int, when: str, vox: str = "", used: list | None = None, look: int = -1):
    """Open `arcs.use_ability` if anything can be used at this trigger; else go on at once.
    A secured Vox card's effect is not optional: its next part is asked only for the choices
    inside it (an optional part offers "nothing" among them), and applied unasked when there
    is only one way to resolve it (BC26-BC31)."""
    found = offered(ctx.state, seat, when, vox, used, look)
    if not found:
        return
    options = _options(ctx.state, seat, found[0], list(used or []), look) if vox else []
    if len(options) == 1:
        choice = Choice(card=found[0].card, index=found[0].index, params=options[0])
        ctx.call(offer_done, seat=seat, params=choice, when=when, vox=vox, used=list(used or []), look=look)
        return
    ctx.decide(seat, "arcs.use_ability", resume=offer_done, when=when, vox=vox, used=list(used or []), look=look)


@decisions.kind("use_ability", answer="use_ability", params=Choice)
def check_choice(state, seat, prompt, answer: Choice):
    """Use one of the abilities open at this trigger, or none (card ""), except for a
    secured Vox card, whose effect must be resolved."""
    args = prompt.args
    if not answer.card:
        if args.get("vox"):
            raise IllegalAction(f"{args['vox']}'s effect when secured is not optional")
        return
    use = _find(state, seat, args, answer)
    trial = msgspec.convert(msgspec.to_builtins(state), type(state))
    abilities.use(env_for(box_for(state), trial, seat=seat, used=args.get("used") or []), use, answer.params)
    if args.get("when") == "copy_or_pivot_battle" and not _battle_still_legal(trial, seat):
        # The card library's FAQ (Tactical): a move before the battle must leave a legal
        # battle to fight, or it cannot be made.
        raise IllegalAction(f"{use.card}: that move leaves no legal battle to fight")


def _battle_still_legal(state, seat: int) -> bool:
    """Whether the battle a Copy/Pivot pip holds back for its window (still pending on the
    stack) can be fought in `state`: attacking ships there and a defending piece."""
    from plugins.arcs.rounds import battle_if_able  # rounds imports this module

    pending = next((step.args for step in reversed(state.stack)
                    if step.name == battle_if_able.step_name and step.args.get("seat") == seat), None)
    if pending is None:
        return True  # the battle was fought already: the window after it
    here = state.systems[pending["system"]]
    defender = pending["defender"]
    return bool(here.ships_of(seat).total) and bool(here.ships_of(defender).total
                                                     or any(b.owner == defender for b in here.buildings))


@check_choice.candidates
def _choices(state, seat, prompt):
    args = prompt.args
    if not args.get("vox"):
        yield {"card": "", "index": -1, "params": {}}
    used, look = args.get("used") or [], args.get("look", -1)
    for use in offered(state, seat, args["when"], args.get("vox", ""), used, look):
        for params in _options(state, seat, use, used, look):
            choice = {"card": use.card, "index": use.index, "params": params}
            if args["when"] == "copy_or_pivot_battle":  # only moves that leave the battle legal
                try:
                    check_choice.validate(state, seat, prompt, Choice(**choice))
                except ActionRejected:
                    continue
            yield choice


def _find(state, seat, args, answer: Choice) -> abilities.Use:
    look = args.get("look", -1)
    for use in offered(state, seat, args["when"], args.get("vox", ""), args.get("used"), look):
        if use.card == answer.card and use.index == answer.index:
            if use.ability.do == FARSEERS_SWAP and answer.params.get("rival") != look:
                raise IllegalAction(f"{use.card} swaps only with the Rival whose hand was shown")
            return use
    raise IllegalAction(f"{answer.card} has no ability {answer.index} to use now")


@steps("offer_done")
def offer_done(ctx, seat, params: Choice, when: str, vox: str = "", used: list | None = None, look: int = -1):
    if not params.card:
        return
    used = list(used or [])
    use = _find(ctx.state, seat, {"when": when, "vox": vox, "used": used, "look": look}, params)
    env = env_for(box_for(ctx.state), ctx.state, ctx, seat=seat, used=used)
    undeclared = not ctx.state.ambition_declared
    abilities.use(env, use, params.params)
    write_back(ctx.state, env.moment)
    ctx.emit("ability", seat=seat, card=use.card, index=use.index, op=use.ability.do)
    after_use(ctx, seat, use, params.params, declared=undeclared and bool(ctx.state.ambition_declared))
    ctx.push(offer, seat=seat, when=when, vox=vox, used=[*used, [use.card, use.index]], look=look)


def after_use(ctx, seat: int, use: abilities.Use, params: dict | None = None, declared: bool = False) -> None:
    """What the flow owes an effect once it went through: Fire Rifles' hits wait for the
    firer's split (then Outrage and Ransack per city, as after a battle); a declaration made
    by a card (Galactic Bards, Populist Demands) goes on like a lead card's: Generous's
    price, then Farseers, Ambitious, Bold (ARCS-124); Tactical's move is a move, whose fresh
    ships may sprint (L03, ARCS-123; a sprint itself opens no further sprint)."""
    from plugins.arcs.battle_flow import rifle_split
    from plugins.arcs.rounds import declared_by_card
    if lore_ops.pending_rifle_hits(ctx.state) is not None:
        rifle_split(ctx, seat)
    if declared:
        ctx.push(declared_by_card, seat=seat)
    if use.ability.do == "move_before_or_after" and abilities.held(ctx.state, box_for(ctx.state), seat, "move"):
        facts = lore_ops.move_facts(lore_ops.tactical_move(params or {}))
        ctx.push_all(offer_in_window(seat, "move", facts=facts))


@steps("window_open")
def window_open(ctx, seat: int, when: str, facts: dict | None = None):
    """A trigger point of a Lore or Leader ability: its abilities may be used once each."""
    lore_ops.open_window(ctx.state, box_for(ctx.state), seat, when, **(facts or {}))


@steps("window_closed")
def window_closed(ctx, seat: int, when: str):
    lore_ops.close_window(ctx.state, seat, when)


def offer_in_window(seat: int, when: str, facts: dict | None = None, **args) -> list:
    """Steps for a trigger that opens a window: open it, offer, close it."""
    return [(window_open, {"seat": seat, "when": when, "facts": facts or {}}),
            (offer, {"seat": seat, "when": when, **args}),
            (window_closed, {"seat": seat, "when": when})]


@steps("after_scoring")
def after_scoring(ctx, scored: list):
    """The mandatory effects after scoring happen together: a Cartel's holder makes every
    Rival discard that resource (ARCS-315); Lavish discards the holder's Fuel. Outside any
    turn, the initiative holder orders them when the order matters (ARCS-270)."""
    effects = after_scoring_effects(ctx.state, box_for(ctx.state), scored)
    ctx.call(resolve_simultaneous, effects=[msgspec.to_builtins(e) for e in effects])


# A game built on Arcs may let the securer refill the secured card's place otherwise (the
# campaign's Conspiracies: with a Guild card it holds): fn(ctx, seat, card, position) -> True
# when it took the refill over (it then refills the place and calls `arcs_court_secured`
# itself). Each answers False for a table it does not know.
REFILL_RULES: list = []


def _refill_taken_over(ctx, seat: int, card: str, position: int) -> bool:
    return any(rule(ctx, seat, card, position) for rule in REFILL_RULES)


def take(ctx, seat: int, card: str, rivals_to: str) -> None:
    """Take `card` from the Court (secure: Rival agents captured; ransack: as Trophies), then
    resolve a Vox card's effect and refill its place (ARCS-163..166)."""
    box = box_for(ctx.state)
    turn = ctx.state.turn
    if turn is not None and turn.seat == seat and turn.prelude:
        turn.gained.append(card)  # ARCS-117
    if ctx.hook.arcs_take_court_card(ctx=ctx, seat=seat, card=card, rivals_to=rivals_to):
        return  # a card of the game's own (the campaign's Imperial Council)
    position = take_court_card(box, ctx.state, seat, card, rivals_to)
    ctx.emit("court_taken", seat=seat, card=card, how="secure" if rivals_to == "captives" else "ransack")
    secured = seat if rivals_to == "captives" else -1
    if box.court[card].kind == "vox":
        ctx.push_all([(offer, {"seat": seat, "when": "secured", "vox": card}),
                      (vox_done, {"card": card, "position": position, "secured_by": secured})])
    else:
        if secured >= 0 and _refill_taken_over(ctx, seat, card, position):
            return
        refill(ctx, position)
        if secured >= 0:
            ctx.hook.arcs_court_secured(ctx=ctx, seat=seat, card=card, position=position)


def refill(ctx, position: int) -> None:
    refill_court(ctx.state, position)
    if position < len(ctx.state.court_row):
        ctx.emit("court_revealed", position=position, card=ctx.state.court_row[position])


# Vox cards that stay in the Court once resolved (the campaign's Passage Storms): fn(ctx,
# card, position) -> True when the rule put the card back in its place (no refill then).
STAYS: list = []


@steps("vox_done")
def vox_done(ctx, card: str, position: int, secured_by: int = -1):
    if any(rule(ctx, card, position) for rule in STAYS):
        if secured_by >= 0:
            ctx.hook.arcs_court_secured(ctx=ctx, seat=secured_by, card=card, position=position)
        return
    dispose_vox(box_for(ctx.state), ctx.state, card)
    if secured_by >= 0 and _refill_taken_over(ctx, secured_by, card, position):
        return
    refill(ctx, position)
    if secured_by >= 0:
        ctx.hook.arcs_court_secured(ctx=ctx, seat=secured_by, card=card, position=position)
