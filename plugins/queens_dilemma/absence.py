"""A councilor who leaves during a game, at a table that skips away seats (issue 21,
`core.absence`): from then on they are absent as the rulebook's Absences treat a player who
misses a game (QD-116..125), and they take part again when they come back.

Reading (the rulebook speaks of whole games missed; a player leaving mid-game is ours):
- What they gained before leaving stays; from then on they gain and lose no Resources,
  Hegemony, Independence or Infamy, and no group effect targets them (QD-117, QD-118).
- A Leader or Moderator token they hold goes to a random present player (QD-119).
- Their open decisions close as taking no part: a voting turn passes with no Pass Action
  (Power already on their tile stays there), a Pass Bonus, an Investment, an Agenda, a
  forced payment, a second Resource's production, an Investment draft pick or a tied
  Ideology draw is simply not taken (the cards stay where they were: an Ideology pair goes
  back unseen, a drafted hand passes on whole).
- The choices a Legacy effect still needs are made for them by the Leader, as the rulebook
  has the Leader place an absent player's Building (QD-124): where a Building goes, which
  Skill a new one covers, and a Region pick of the first game. A Crossroad Agenda is placed
  in their Treasury, as the Absences say of Agendas, and they choose its option when they
  next take part (the option would tell the Leader the secret Agenda).
- A player still away when the game ends has missed it: 3 Independence on their return
  (QD-126), as for a game missed from its setup. One back before the end has not.
- The game goes on without a player only while 3 remain (the table's own minimum): below
  that the seat is not skipped, and the table's bot plays it.
"""
from __future__ import annotations

from core import chance
from core.flow import Ctx
from plugins.queens_dilemma import voting
from plugins.queens_dilemma.content import default_box
from plugins.queens_dilemma.state import HeldAgenda, QDState

MIN_PRESENT = 3  # the fewest players a game is set up for (plugin.check_seat_lists)

# The open decisions an absent councilor does not take: the prompt is withdrawn, nothing is
# resolved for it.
NOT_TAKEN = ("pass_bonus", "invest", "agenda", "forced_payment", "produce", "investment", "ideology", "payment")
# Those the Leader takes for them (QD-124's way); a token holder's own go to the new holder.
FOR_THE_LEADER = ("build", "cover_skill", "region")
FOR_THE_MODERATOR = ("break_tie", "choose_leader")


def from_setup(state: QDState, seat: int) -> bool:
    """Absent from the whole game: listed absent at setup, or defected (QD-116, QD-128)."""
    return seat in (state.options.get("absent") or []) or state.campaign.diaries[seat].defected


def leave(ctx: Ctx, seat: int) -> bool:
    """The councilor at `seat` is absent from now on; False when too few would be left."""
    state: QDState = ctx.state
    me = state.councilors[seat]
    if me.absent:
        return True  # absent already: nothing of theirs is open
    present = [c.seat for c in state.councilors if not c.absent and c.seat != seat]
    if len(present) < MIN_PRESENT:
        return False
    me.absent = True
    ctx.emit("councilor_left", seat=seat)
    for token in ("leader", "moderator"):  # QD-119
        if getattr(state, token) == seat:
            setattr(state, token, chance.pick(ctx, present, token))
            ctx.emit(token, seat=getattr(state, token))
    if state.vote is not None and not state.vote.tiles[seat].side:
        state.vote.tiles[seat].side = voting.PASS  # out of this vote, as if absent from its start
    for prompt in [p for p in state.prompts if p.seat == seat]:
        if prompt.kind == "vote":
            state.prompts.remove(prompt)
            voting.leave_turn(ctx, seat)
        elif prompt.kind == "crossroad":
            state.prompts.remove(prompt)
            hold_crossroad(ctx, seat, prompt.args["code"])
        elif prompt.kind in FOR_THE_LEADER + FOR_THE_MODERATOR:
            chooser = state.leader if prompt.kind in FOR_THE_LEADER else state.moderator
            if prompt.kind in ("cover_skill", "region"):  # a Building's prompt names its owner already
                prompt.args["owner"] = seat
            prompt.seat = chooser
            ctx.emit("choice_handed", kind=prompt.kind, seat=seat, chooser=chooser)
        elif prompt.kind in NOT_TAKEN:
            state.prompts.remove(prompt)
            if prompt.kind == "ideology":
                me.drawn_ideology = []  # back unseen: no Ideology card this game
            ctx.emit("not_taken", seat=seat, kind=prompt.kind)
        # else: a decision this file does not know (a module's) stays open, and the table's bot
        # answers it (core.clock.waiting_for_bot): no table waits for a player who left
    if state.vote is not None:
        voting.open_payments(ctx)  # nobody may pay them now, nor they anyone
    return True


def back(ctx: Ctx, seat: int) -> None:
    """The councilor returns (unless absent from the whole game): from their next decision
    on they take part, and a Crossroad placed in their Treasury meanwhile is theirs to choose."""
    state: QDState = ctx.state
    me = state.councilors[seat]
    if not me.absent or from_setup(state, seat):
        return
    me.absent = False
    ctx.emit("councilor_back", seat=seat)
    ask_held_crossroads(ctx, seat)
    if state.vote is not None:
        voting.open_payments(ctx)


def hold_crossroad(ctx: Ctx, seat: int, code: str) -> None:
    """An absent player's Crossroad Agenda waits in their Treasury (no deadline)."""
    ctx.state.campaign.diaries[seat].agendas.append(HeldAgenda(code=code, deadline=None))
    ctx.emit("agenda_held", to=[seat], public={"seat": seat}, seat=seat, code=code)


def held_crossroads(state: QDState, seat: int) -> list[str]:
    agendas = default_box().agendas
    return [a.code for a in state.campaign.diaries[seat].agendas if agendas[a.code].kind == "crossroad"]


def ask_held_crossroads(ctx: Ctx, seat: int) -> None:
    """Each Crossroad waiting in a present player's Treasury is theirs to resolve now (QD-349)."""
    from plugins.queens_dilemma.effects import ask_crossroad  # effects builds on this module's callers

    diary = ctx.state.campaign.diaries[seat]
    for code in held_crossroads(ctx.state, seat):
        diary.agendas = [a for a in diary.agendas if a.code != code]
        ask_crossroad(ctx, seat, code)
