"""Cards leaving the Court (secure, ransack) and abilities offered at the rules' trigger
points, as steps. The abilities themselves are the op registry's (`abilities.py`): this
only offers them (`arcs.use_ability`) and resolves a Vox card's effect when secured."""
from __future__ import annotations

import msgspec

from core.errors import IllegalAction
from plugins.arcs import abilities
from plugins.arcs.actions import dispose_vox, refill_court, take_court_card
from plugins.arcs.content import default_box
from plugins.arcs.tables import decisions, steps
from plugins.arcs.turn import env_for


class Choice(msgspec.Struct, forbid_unknown_fields=True):
    """Which ability to use now, with its choices; `card` "" declines (done)."""

    card: str = ""
    index: int = -1
    params: dict = {}


def offered(state, seat: int, when: str, vox: str = "", used: list | None = None) -> list[abilities.Use]:
    """The abilities open to `seat` at this trigger: a secured Vox card's own, or the held ones
    that are usable, less those already used at this trigger."""
    box = default_box()
    used = used or []
    if vox:
        found = [abilities.Use(seat, vox, i, ab) for i, ab in enumerate(box.court[vox].abilities)
                 if ab.when == "secured" and ab.do in abilities.OPS]
    else:
        found = abilities.held(state, box, seat, when)
    env = env_for(box, state)
    out = []
    for use in found:
        impl = abilities.OPS[use.ability.do]
        if [use.card, use.index] in used or (impl.usable is not None and not impl.usable(env, use)):
            continue
        out.append(use)
    return out


@steps("offer")
def offer(ctx, seat: int, when: str, vox: str = "", used: list | None = None):
    """Open `arcs.use_ability` if anything can be used at this trigger; else go on at once."""
    if offered(ctx.state, seat, when, vox, used):
        ctx.decide(seat, "arcs.use_ability", resume=offer_done, when=when, vox=vox, used=list(used or []))


@decisions.kind("use_ability", answer="use_ability", params=Choice)
def check_choice(state, seat, prompt, answer: Choice):
    """Use one of the abilities open at this trigger, or none (card "")."""
    if not answer.card:
        return
    args = prompt.args
    use = _find(state, seat, args, answer)
    trial = msgspec.convert(msgspec.to_builtins(state), type(state))
    abilities.use(env_for(default_box(), trial), use, answer.params)


@check_choice.candidates
def _choices(state, seat, prompt):
    yield {"card": "", "index": -1, "params": {}}
    args = prompt.args
    box = default_box()
    for use in offered(state, seat, args["when"], args.get("vox", ""), args.get("used")):
        impl = abilities.OPS[use.ability.do]
        options = list(impl.candidates(env_for(box, state), use)) if impl.candidates else [{}]
        for params in options:
            yield {"card": use.card, "index": use.index, "params": params}


def _find(state, seat, args, answer: Choice) -> abilities.Use:
    for use in offered(state, seat, args["when"], args.get("vox", ""), args.get("used")):
        if use.card == answer.card and use.index == answer.index:
            return use
    raise IllegalAction(f"{answer.card} has no ability {answer.index} to use now")


@steps("offer_done")
def offer_done(ctx, seat, params: Choice, when: str, vox: str = "", used: list | None = None):
    if not params.card:
        return
    use = _find(ctx.state, seat, {"when": when, "vox": vox, "used": used}, params)
    abilities.use(env_for(default_box(), ctx.state, ctx), use, params.params)
    ctx.emit("ability", seat=seat, card=use.card, index=use.index, op=use.ability.do)
    ctx.push(offer, seat=seat, when=when, vox=vox, used=[*(used or []), [use.card, use.index]])


def take(ctx, seat: int, card: str, rivals_to: str) -> None:
    """Take `card` from the Court (secure: Rival agents captured; ransack: as Trophies), then
    resolve a Vox card's effect and refill its place (ARCS-163..166)."""
    box = default_box()
    position = take_court_card(box, ctx.state, seat, card, rivals_to)
    ctx.emit("court_taken", seat=seat, card=card, how="secure" if rivals_to == "captives" else "ransack")
    if box.court[card].kind == "vox":
        ctx.push_all([(offer, {"seat": seat, "when": "secured", "vox": card}),
                      (vox_done, {"card": card, "position": position})])
    else:
        refill(ctx, position)


def refill(ctx, position: int) -> None:
    refill_court(ctx.state, position)
    if position < len(ctx.state.court_row):
        ctx.emit("court_revealed", position=position, card=ctx.state.court_row[position])


@steps("vox_done")
def vox_done(ctx, card: str, position: int):
    dispose_vox(default_box(), ctx.state, card)
    refill(ctx, position)
