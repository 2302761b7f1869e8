"""Court cards taken with what rides on them (BR-314, BR-315): a card attached above a Court
card is secured (or ransacked) with it, and a Guild card with a When Secured effect (Guild
Overseers, F403, once it is in the Court) resolves that effect as a Vox card does.

The base rules take the host card itself (`court_flow.take`); `arcs_take_court_card` calls
`take_along` first, which schedules what follows: the host's own When Secured (a Guild
card's), then the attached card's. Reading (BR-315 lets either order be chosen): the host's
effect first, then the attached card's.
"""
from __future__ import annotations

from plugins.arcs.actions import dispose_vox
from plugins.arcs.content import box_for
from plugins.arcs.court_flow import offer
from plugins.blighted_reach.tables import steps


def has_secured_effect(box, card: str) -> bool:
    return card in box.court and any(a.when == "secured" for a in box.court[card].abilities)


def take_along(ctx, seat: int, host: str, secured: bool = True) -> None:
    """`seat` is taking `host` from the Court: its attached card comes too, into its place at
    once (no card is ever between places while a choice is asked), its own effects after
    the host's; a Guild host's When Secured is offered once it is held."""
    state, box = ctx.state, box_for(ctx.state)
    above = state.attached.pop(host, None)
    if above is not None:
        follow = _take_attached(ctx, seat, above, host, secured)
        if follow:
            ctx.push_all(follow)
    if host in box.court and box.court[host].kind == "guild" and has_secured_effect(box, host):
        ctx.push(offer, seat=seat, when="secured", vox=host)


def _take_attached(ctx, seat: int, card: str, host: str, secured: bool) -> list[tuple]:
    """BR-315: the attached card is the taker's too: a Guild card joins their Guild cards, a
    lore card their lore, a Vox card is resolving (its When Secured, then disposed of as it
    says: its host's place was refilled already, so nothing slides down). Returns the steps
    its effects need, run after the host's."""
    state, box = ctx.state, box_for(ctx.state)
    turn = state.turn
    if turn is not None and turn.seat == seat and turn.prelude:
        turn.gained.append(card)  # ARCS-117, as for the host
    ctx.emit("court_taken", seat=seat, card=card, how="attached", host=host)
    kind = box.court[card].kind if card in box.court else "lore"
    if kind == "guild":
        state.players[seat].guild.append(card)
        return [(offer, {"seat": seat, "when": "secured", "vox": card})] if has_secured_effect(box, card) else []
    if kind == "lore":
        state.players[seat].lore.append(card)
        if secured:  # the Caretaker's Act II objective counts lore secured this way too (F512B)
            from plugins.blighted_reach.fate_caretaker import advance

            advance(box, state, "lore_secured", 1, seat=seat)
        return []
    if kind == "action":  # a Faithful card taught onto the host (F803): drawn into the hand (F813)
        state.hands[seat].append(card)
        return []
    state.resolving.append(card)
    return [(offer, {"seat": seat, "when": "secured", "vox": card}), (attached_vox_done, {"card": card})]


@steps("attached_taken")
def attached_taken(ctx, seat: int, card: str, host: str, secured: bool = True):
    """A table saved while this step was pending (before attached cards were taken at once)
    goes on as `take_along` now does."""
    follow = _take_attached(ctx, seat, card, host, secured)
    if follow:
        ctx.push_all(follow)


# Attached Vox cards that stay in the Court once resolved (the Gate Wraith's Passage Storms):
# fn(ctx, card) -> True when the rule kept it there.
REMAINS: list = []


@steps("attached_vox_done")
def attached_vox_done(ctx, card: str):
    if any(rule(ctx, card) for rule in REMAINS):
        return
    dispose_vox(box_for(ctx.state), ctx.state, card)
