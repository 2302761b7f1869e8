"""The Queen's Dilemma: Voting Phase, Vote Resolution and its cleanups, as flow steps.

Any game state with the `Council` fields can run it: push `begin` to hold one vote;
when it ends the vote's record is appended to `state.votes` and the flow continues with
whatever was pending. Turn order is not a cycle with a fixed end: the vote ends after the
turn of the player to the right of the Leader, and the Leader token moves during the vote.
Bargaining payments (ruling QD-R5) are standing, non-blocking prompts open to every seat
until the vote is resolved (ties included): a typed decision (`qdv.payment`), so what a seat
may give is read from its Treasury when it answers, never from a list made earlier.
"""
from __future__ import annotations

from typing import ClassVar

import msgspec

from core.decisions import DecisionTable
from core.errors import BadParameter, IllegalAction
from core.flow import Ctx, StepTable
from core.seats import seat_name
from core.state import FREE_TEXT_MAX, Action, TableState
from core.turn_order import clockwise, next_in

steps = StepTable("qdv")
decisions = DecisionTable("qdv")
AYE, NAY, PASS = "aye", "nay", "pass"
RESOURCES = ("gold", "food", "army", "materials")  # Power is not a Resource (rulebook)
GATHER, MODERATOR = "gather", "moderator"


class Tile(msgspec.Struct, gc=False, kw_only=True):
    """A Voting tile: the side chosen (or pass) and the Power placed on it."""

    side: str = ""
    power: int = 0
    pass_action: str = ""


class VotePhase(msgspec.Struct, gc=False, kw_only=True):
    tiles: list[Tile]
    moderator_taken: bool = False   # "Become Moderator" is used up for this Voting Phase
    gatherers: list[int] = []
    winner: str = ""


class Councilor(msgspec.Struct, gc=False, kw_only=True):
    seat: int
    power: int = 0
    hegemony: int = 0
    independence: int = 0
    infamy: int = 0
    resources: dict[str, int] = msgspec.field(default_factory=lambda: {r: 0 for r in RESOURCES})


class Council(TableState, kw_only=True):
    """The fields the voting rules need; a game's state subclasses this."""
    visible: ClassVar[tuple[str, ...]] = ("leader", "moderator", "power_pool", "councilors", "vote", "votes")

    leader: int = 0
    moderator: int = 0
    power_pool: int = 0
    councilors: list[Councilor] = []
    vote: VotePhase | None = None
    votes: list[dict] = []


class Payment(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    """A bargaining payment: `n` of one Resource to another councilor, with the deal's words."""

    to: int
    resource: str
    n: int
    reason: str = ""


def A(type: str, **params) -> Action:
    return Action(type=type, params=params)


def right_of(state: Council, seat: int) -> int:
    """The player to a seat's right: the one who plays just before it, clockwise."""
    return (seat - 1) % len(state.seats)


@steps("begin")
def begin(ctx: Ctx) -> None:
    state: Council = ctx.state
    # An absent player (QD-116) takes no part: their tile starts on its Pass side, no action.
    state.vote = VotePhase(tiles=[Tile(side=PASS) if getattr(c, "absent", False) else Tile()
                                  for c in state.councilors])
    ctx.emit("voting", leader=state.leader, moderator=state.moderator)
    open_payments(ctx)
    ctx.push(turn, seat=state.leader)  # the Leader takes the first turn


def open_payments(ctx: Ctx) -> None:
    """QD-R5: any seat holding a Resource may give Gold, Food, Army or Materials to another,
    with a reason. Opened again after each turn, payment and card action only so the offers
    keep their place after the seat's other prompts: the order in which `legal_actions` has
    always listed a seat's answers (what a seat may give is read when it answers)."""
    state: Council = ctx.state
    ctx.close_prompts("payment")
    for c in state.councilors:
        if _present(c) and any(c.resources[r] for r in RESOURCES):
            ctx.prompt(c.seat, "payment", [], pay, blocking=False, decision="qdv.payment",
                       text="Give Resources to another councilor (a deal's payment)")


def _present(c) -> bool:
    return not getattr(c, "absent", False)


@decisions.kind("payment", answer="pay", params=Payment)
def payment(state: Council, seat: int, prompt, answer: Payment) -> None:
    """Any amount of one Resource held, to another councilor present; the reason is free text."""
    n = len(state.councilors)
    if not (0 <= answer.to < n) or answer.to == seat or not _present(state.councilors[answer.to]):
        raise BadParameter(f"pay: {seat_name(answer.to)} is no other councilor at the table")
    if answer.resource not in RESOURCES:
        raise BadParameter(f"pay: {answer.resource!r} is not a Resource ({', '.join(RESOURCES)}); Power is never given")
    if answer.n < 1:
        raise BadParameter("pay: give at least 1")
    held = state.councilors[seat].resources[answer.resource]
    if answer.n > held:
        raise BadParameter(f"pay: {seat_name(seat)} holds {held} {answer.resource}, not {answer.n}")
    if len(answer.reason) > FREE_TEXT_MAX:
        raise BadParameter(f"'reason' must be text of at most {FREE_TEXT_MAX} characters")


@payment.candidates
def _payments(state: Council, seat: int, prompt):
    """Every payment open now, by recipient, Resource, then amount (the reason left blank)."""
    me = state.councilors[seat]
    for o in state.councilors:
        if o.seat != seat and _present(o):
            for r in RESOURCES:
                for n in range(1, me.resources[r] + 1):
                    yield {"to": o.seat, "resource": r, "n": n, "reason": ""}


@payment.domains
def _payment_domains(state: Council, seat: int, prompt) -> dict:
    return {"to": [o.seat for o in state.councilors if o.seat != seat and _present(o)],
            "resource": list(RESOURCES), "n": {r: [1, state.councilors[seat].resources[r]] for r in RESOURCES},
            "reason": {"text": FREE_TEXT_MAX}}


@steps("pay")
def pay(ctx: Ctx, seat: int, params: Payment) -> None:
    state: Council = ctx.state
    giver, taker = state.councilors[seat], state.councilors[params.to]
    giver.resources[params.resource] -= params.n
    taker.resources[params.resource] += params.n
    ctx.emit("payment", seat=seat, recipient=params.to, resource=params.resource, n=params.n,
             reason=params.reason)
    open_payments(ctx)
    # the voting turn is asked again after the offers, so a voter's answers keep the order
    # `legal_actions` has always listed them in (what is open is read when it answers)
    for p in [p for p in ctx.state.prompts if p.kind == "vote"]:
        ctx.state.prompts.remove(p)
        turn(ctx, p.seat)
    if hasattr(ctx.hook, "qd_payment_made"):
        ctx.hook.qd_payment_made(ctx=ctx, seats=[seat, params.to])


@steps("turn")
def turn(ctx: Ctx, seat: int) -> None:
    """A voting turn: one typed decision (`qdv.turn`) answered by a vote, a raise, stay or
    a Pass Action; nothing is listed in the state."""
    state: Council = ctx.state
    if state.vote.tiles[seat].side == PASS or not _present(state.councilors[seat]):
        after_turn(ctx, seat)  # a passed player is out of this Voting Phase; an absent one too
        return
    ctx.prompt(seat, "vote", [], answer, text="Vote, raise, stay or pass", decision="qdv.turn")


class Vote(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    side: str
    power: int


class Raise(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    power: int


class Stay(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    pass


class Pass(msgspec.Struct, gc=False, forbid_unknown_fields=True, omit_defaults=True):
    """A Pass Action: gather, become Moderator, or a card's (`source`, QD-154)."""

    action: str
    source: str | msgspec.UnsetType = msgspec.UNSET  # absent, not "", from the other Pass Actions


def pass_actions(state: Council, seat: int, hook) -> list[Action]:
    """The Pass Actions open to `seat` now, in the order they are listed: Gather Power, Become
    Moderator while nobody has, then the game's Special Pass Actions (QD-154)."""
    out = [A("pass", action=GATHER)]
    if not state.vote.moderator_taken:
        out.append(A("pass", action=MODERATOR))
    if hasattr(hook, "qd_pass_options"):
        for extra in hook.qd_pass_options(state=state, seat=seat, kind="pass_action"):
            out += extra
    return out


@decisions.kind("turn", answers={"vote": Vote, "raise": Raise, "stay": Stay, "pass": Pass}, hooks=True)
def turn_decision(state: Council, seat: int, prompt, type: str, answer, hook) -> None:
    """Before a side is chosen: a vote, Aye or Nay with 1 Power or more but no more than held
    (QD-141, QD-142), or a Pass Action open now (QD-150..154); after: a raise of the same side
    (QD-143) or stay (QD-144), never a pass (QD-146)."""
    voted = bool(state.vote.tiles[seat].side)
    if (type in ("raise", "stay")) != voted:
        raise IllegalAction(f"{type!r} is not legal now; {seat_name(seat)} may: "
                            f"{'raise, stay' if voted else 'pass, vote'}")
    if type == "vote" and answer.side not in (AYE, NAY):
        raise BadParameter(f"vote: the side is {AYE!r} or {NAY!r}, not {answer.side!r}")
    if type in ("vote", "raise"):
        held = state.councilors[seat].power
        if not 1 <= answer.power <= held:  # QD-142: never more than the Treasury holds; QD-144: stay adds none
            raise BadParameter(f"{type}: Power from 1 to the {held} held, not {answer.power}")
    if type == "pass" and Action("pass", msgspec.to_builtins(answer)) not in pass_actions(state, seat, hook):
        raise BadParameter(f"pass: {msgspec.to_builtins(answer)!r} is no Pass Action open to {seat_name(seat)} now")


@turn_decision.candidates
def _turn_answers(state: Council, seat: int, prompt, hook):
    """Raises then stay once a side is chosen; else votes (Aye, then Nay, by Power), then
    the Pass Actions."""
    power = state.councilors[seat].power
    if state.vote.tiles[seat].side:
        yield from (A("raise", power=n) for n in range(1, power + 1))
        yield A("stay")
        return
    for side in (AYE, NAY):
        yield from (A("vote", side=side, power=n) for n in range(1, power + 1))
    yield from pass_actions(state, seat, hook)


@steps("answer")
def answer(ctx: Ctx, seat: int, params: Vote | Raise | Stay | Pass) -> None:
    state: Council = ctx.state
    vote, me = state.vote, state.councilors[seat]
    tile = vote.tiles[seat]
    if isinstance(params, (Vote, Raise)):
        if isinstance(params, Vote):
            tile.side = params.side
        tile.power += params.power
        me.power -= params.power
    passed = msgspec.to_builtins(params) if isinstance(params, Pass) else None
    if passed is not None:
        tile.side, tile.pass_action = PASS, params.action
        if params.action == MODERATOR:
            state.moderator = seat
            vote.moderator_taken = True
        elif params.action == GATHER:
            vote.gatherers.append(seat)
    ctx.emit("vote", seat=seat, side=tile.side, power=tile.power, pass_action=tile.pass_action,
             source=(passed or {}).get("source", ""))
    # The player with strictly the most Power on their tile takes the Leader token at once.
    if tile.power > 0 and all(tile.power > t.power for i, t in enumerate(vote.tiles) if i != seat) \
            and state.leader != seat:
        state.leader = seat
        ctx.emit("leader", seat=seat)
    if passed is not None and hasattr(ctx.hook, "qd_passed"):
        # the game resolves a Special Pass Action and offers its Pass Bonus (QD-150) before
        # the next turn; the end-of-turn check runs after that
        ctx.push(after_turn_step, seat=seat)
        ctx.hook.qd_passed(ctx=ctx, seat=seat, params=passed)
        return
    after_turn(ctx, seat)


def leave_turn(ctx: Ctx, seat: int) -> None:
    """The councilor on turn has left (`absence`, which has passed a tile with no side, with
    no Pass Action); Power already on it stays, as a stay would leave it. The turn moves on."""
    tile = ctx.state.vote.tiles[seat]
    ctx.emit("vote", seat=seat, side=tile.side, power=tile.power, pass_action=tile.pass_action, source="",
             absent=True)
    after_turn(ctx, seat)


@steps("after_turn")
def after_turn_step(ctx: Ctx, seat: int) -> None:
    after_turn(ctx, seat)


def after_turn(ctx: Ctx, seat: int) -> None:
    """The Voting Phase ends after the turn of the player to the Leader's right."""
    state: Council = ctx.state
    open_payments(ctx)  # a Special Pass Action may have spent Resources: offers follow the Treasury
    following = next_in(clockwise(state.leader, len(state.seats)), seat)  # the order from the Leader now
    if following is None:
        ctx.push(resolve)
    else:
        ctx.push(turn, seat=following)


def totals(vote: VotePhase) -> dict[str, int]:
    out = {AYE: 0, NAY: 0}
    for t in vote.tiles:
        if t.side in out:
            out[t.side] += t.power
    return out


@steps("resolve")
def resolve(ctx: Ctx) -> None:
    """Most Power wins; a tie, or a vote where all passed, is decided by the Moderator."""
    state: Council = ctx.state
    counted = totals(state.vote)
    # a tile with no side had no turn (the vote ended before it: the Leader token moved, by
    # Power or by an absence): it took no part, as a pass does
    everyone_passed = all(t.side in (PASS, "") for t in state.vote.tiles)
    if everyone_passed or counted[AYE] == counted[NAY]:
        ctx.emit("moderator_decides", moderator=state.moderator, totals=counted, all_passed=everyone_passed)
        ctx.prompt(state.moderator, "break_tie", [A("decide", side=AYE), A("decide", side=NAY)], decided,
                   all_passed=everyone_passed, text="As Moderator, decide the winning side")
        return
    decided(ctx, state.moderator, {"side": AYE if counted[AYE] > counted[NAY] else NAY}, all_passed=False)


@steps("decided")
def decided(ctx: Ctx, seat: int, params: dict, all_passed: bool) -> None:
    state: Council = ctx.state
    vote = state.vote
    vote.winner = params["side"]
    ctx.emit("vote_won", side=vote.winner, totals=totals(vote))
    if all_passed:  # the Moderator takes responsibility and the Leader token
        state.leader = state.moderator
        ctx.emit("leader", seat=state.leader)
    elif vote.tiles[state.leader].side not in (vote.winner,) and vote.tiles[state.leader].side != PASS:
        # The Leader on the losing side hands the token to the winning side's top investor.
        top = max(t.power for t in vote.tiles if t.side == vote.winner)
        tied = [i for i, t in enumerate(vote.tiles) if t.side == vote.winner and t.power == top]
        if len(tied) > 1:
            ctx.prompt(state.moderator, "choose_leader", [A("leader", seat=s) for s in tied], new_leader,
                       text="As Moderator, choose the Leader among the winning side's top investors")
            return
        new_leader(ctx, state.moderator, {"seat": tied[0]})
        return
    ctx.push(cleanup)


@steps("new_leader")
def new_leader(ctx: Ctx, seat: int, params: dict) -> None:
    ctx.state.leader = params["seat"]
    ctx.emit("leader", seat=params["seat"])
    ctx.push(cleanup)


@steps("cleanup")
def cleanup(ctx: Ctx) -> None:
    """Pass Action cleanup (Power distribution, Moderator reset), then Power cleanup."""
    state: Council = ctx.state
    vote = state.vote
    ctx.close_prompts("payment")  # bargaining ends with the vote (and any tie-break)
    if vote.gatherers:  # equal shares; what cannot be shared stays in the Pool
        share = state.power_pool // len(vote.gatherers)
        for s in vote.gatherers:
            state.councilors[s].power += share
        state.power_pool -= share * len(vote.gatherers)
        ctx.emit("power_distribution", gatherers=list(vote.gatherers), each=share, left=state.power_pool)
    for s, t in enumerate(vote.tiles):
        if t.side == vote.winner:
            state.power_pool += t.power  # the winners' Power goes to the Pool
        elif t.side in (AYE, NAY):
            state.councilors[s].power += t.power  # the losers take theirs back
    state.votes.append({"winner": vote.winner, "totals": totals(vote), "leader": state.leader,
                        "moderator": state.moderator,
                        "tiles": [{"side": t.side, "power": t.power, "pass_action": t.pass_action} for t in vote.tiles]})
    ctx.emit("vote_cleanup", power_pool=state.power_pool)
    state.vote = None
