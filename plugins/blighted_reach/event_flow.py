"""The events as steps (rulebook "Resolving the Event", "Imperial Council", "Crises",
"Edicts"): at a round's end, a Council secured this round is resolved (BR-165..BR-171),
else, if Event cards were played, the initiative holder may call a Summit and then rolls
the event and number dice (BR-154..BR-157); the event die's face resolves the Crises
(Blight, Fate, Court, in that order: BR-212, BR-219, BR-220) or the Edicts (BR-239).

The rules are the pure modules (`council`, `crises`, `blight`, `edicts`); this module asks
the players their choices and announces what happened."""
from __future__ import annotations

from core.errors import EngineError
from core.state import Action
from plugins.arcs.content import box_for
from plugins.blighted_reach import blight, council, crises, edicts, event_cards, fate_admiral, fates
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.setup import chance_roll
from plugins.blighted_reach.tables import steps


def choose(ctx, seat: int, kind: str, options: list[dict], resume, **args) -> None:
    """`seat` picks one of `options` (taken at once when there is only one)."""
    ctx.ask(seat, kind, [Action(kind, o) for o in options], resume=resume, **args)


_EMIT_ARGS = {"type": "kind", "to": "destination", "public": "shown"}  # names `Ctx.emit` keeps for itself


def announce(ctx, results: list[dict]) -> None:
    """The pure rules' reports of what happened, as events: public, unless a report names
    its addressees (`private_to`) and what the others see of it (`public_part`), e.g. a card
    drawn into a hand."""
    for r in results:
        data = {_EMIT_ARGS.get(k, k): v for k, v in r.items() if k not in ("event", "private_to", "public_part")}
        ctx.emit(str(r.get("event", "resolved")), to=r.get("private_to"), public=r.get("public_part"), **data)


# -- the Council (BR-164, BR-165) --------------------------------------------------------------
def take_council(ctx, seat: int, card: str, rivals_to: str) -> bool:
    """`arcs_take_court_card`: securing the Council is the campaign's own rule. The flow
    checked the secure when it was chosen (`council.take_secured_council`)."""
    if not council.is_council(card):
        return False
    if rivals_to == "captives":
        council.take_secured_council(ctx.state, seat)
    else:
        council.ransack_council(ctx.state, seat)
    ctx.emit("council_secured", seat=seat, how="secure" if rivals_to == "captives" else "ransack")
    return True


def round_end(ctx) -> None:
    """`arcs_round_end`: the Council if it was secured this round (the Event cards then do
    nothing, BR-158), else the event of the round's Event cards (one, however many, BR-157)."""
    state = ctx.state
    if council.is_tucked(state):
        ctx.push(council_returns)
    elif event_cards.events_played(state):
        ctx.push_all([(summit_offer, {"seat": state.initiative, "via": "event"}), (event_dice, {})])


@steps("council_returns")
def council_returns(ctx):
    seat = council.return_council(ctx.state)
    ctx.emit("council_returned", seat=seat, side=ctx.state.council)
    ctx.push_all([(summit_offer, {"seat": seat, "via": "council"}), (council_titles, {}), (council_event, {})])


@steps("council_titles")
def council_titles(ctx):
    """BR-167, BR-168, BR-170: the securer's title as it is after the Summit."""
    state = ctx.state
    seat = state.council_secured_by
    if council.council_title_step(state) == "first_regent":
        council.become_first_regent(state, seat)
        ctx.emit("first_regent", seat=seat, why="council")
        return
    options = council.options_council_theft(box_for(state), state, seat)
    choose(ctx, seat, "steal_trust", options, resume=trust_stolen)


@steps("trust_stolen")
def trust_stolen(ctx, seat, params):
    state = ctx.state
    lost = council.apply_council_theft(box_for(state), state, seat, dict(params))
    ctx.emit("trust_stolen", seat=seat, resources=list(params["resources"]), power_lost=lost,
             first_regent=state.first_regent)


@steps("council_event")
def council_event(ctx):
    """BR-169: the securer chooses the Crises or the Edicts; the Court Crises then roll fresh dice."""
    state = ctx.state
    choose(ctx, state.council_secured_by, "council_event", council.options_council_event(state), resume=council_chose)


@steps("council_chose")
def council_chose(ctx, seat, params):
    what = council.apply_council_event(ctx.state, seat, dict(params))
    ctx.emit("council_resolves", seat=seat, what=what)
    ctx.push(crises_begin if what == "crises" else edicts_begin)


# -- the Summit (BR-154, BR-166) ---------------------------------------------------------------
@steps("summit_offer")
def summit_offer(ctx, seat: int, via: str):
    from plugins.blighted_reach import summit_flow

    summit_flow.offer(ctx, seat, via)


# -- the event dice (BR-155, BR-156, BR-159) ---------------------------------------------------
@steps("event_dice")
def event_dice(ctx):
    """Rolled by the initiative holder whether or not a Summit was called; the face decides."""
    state, cbox = ctx.state, campaign_box()
    roll = chance_roll(ctx, "event")
    face = roll("event", [list(f) for f in cbox.box.event_die_faces])
    number = int(roll("number", list(cbox.box.number_die)))
    kind, symbol = face
    ctx.emit("event_rolled", seat=state.initiative, face=kind, symbol=symbol, number=number)
    if kind == "crisis":
        ctx.push(crises_begin, number=number, symbol=symbol)
    else:
        ctx.push(edicts_begin)


# -- Crises (BR-212..BR-228) -------------------------------------------------------------------
# Questions asked before the Blight Crises (the Naturalist's Blight Society): fn(ctx, number,
# symbol) -> True when it asked; its answer pushes `crises_begin` again with `asked` true.
BEFORE_BLIGHT_CRISES: list = []


@steps("crises_begin")
def crises_begin(ctx, number: int = 0, symbol: str = "", asked: bool = False):
    """The Blight Crises, then each held card's Crisis in turn order, then the Court's Vox
    cards left to right (the list taken now: BR-222's reading in `crises`)."""
    state, cbox = ctx.state, campaign_box()
    if not asked and any(question(ctx, number, symbol) for question in BEFORE_BLIGHT_CRISES):
        return
    announce(ctx, blight.blight_crises(cbox, state))
    held = crises.fate_crisis_cards(cbox, state)
    plan = [(fate_crisis, {"seat": s, "card": c, "number": number, "symbol": symbol, "answers": {}}) for s, c in held]
    ctx.push_all([*plan, (court_crises, {"number": number, "symbol": symbol})])


def _dice(number: int, symbol: str):
    return crises.Dice(number=number, symbol=symbol) if symbol else None


def _next_decision(decisions, answers: dict):
    """The first decision still to ask (one with a single option answers itself)."""
    for d in decisions:
        if str(d.seat) not in answers and len(d.options) > 1:
            return d
    return None


def _answers(answers: dict) -> dict[int, dict]:
    return {int(k): v for k, v in answers.items()}


@steps("fate_crisis")
def fate_crisis(ctx, seat: int, card: str, number: int, symbol: str, answers: dict):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    if card not in state.players[seat].guild and card not in state.players[seat].lore:
        return  # gone since the Crises began
    dice = _dice(number, symbol)
    try:
        decisions = crises.fate_crisis_decisions(box, cbox, state, seat, card, dice)
        pending = _next_decision(decisions, answers)
        if pending is not None:
            choose(ctx, pending.seat, "crisis_choice", pending.options, resume=crisis_answered,
                   then="fate", holder=seat, card=card, number=number, symbol=symbol, answers=answers)
            return
        announce(ctx, crises.resolve_fate_crisis(box, cbox, state, seat, card, dice, _answers(answers)))
    except crises.MissingCrisisHandler as exc:  # loud: a Fate's rule not written must not pass silently
        raise EngineError(f"a Fate handler is not implemented: {exc}") from None


@steps("court_crises")
def court_crises(ctx, number: int, symbol: str):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    dice = crises.roll_court_dice(cbox, state, chance_roll(ctx, "court_crises"), _dice(number, symbol))
    cards = crises.court_crisis_cards(box, cbox, state)
    ctx.push_all([(court_crisis, {"card": c, "number": dice.number, "symbol": dice.symbol, "answers": {}})
                  for c in cards])


@steps("court_crisis")
def court_crisis(ctx, card: str, number: int, symbol: str, answers: dict):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    if not crises.in_court(state, card):
        return
    dice = crises.Dice(number=number, symbol=symbol)
    try:
        pending = _next_decision(crises.court_crisis_decisions(box, cbox, state, card, dice), answers)
        if pending is not None:
            choose(ctx, pending.seat, "crisis_choice", pending.options, resume=crisis_answered,
                   then="court", holder=-1, card=card, number=number, symbol=symbol, answers=answers)
            return
        later = crises.court_crisis_steps(box, cbox, state, card, dice)
        announce(ctx, crises.resolve_court_crisis(box, cbox, state, card, dice, _answers(answers)))
        ctx.push_all(later)
    except crises.MissingCrisisHandler as exc:
        raise EngineError(f"a Fate handler is not implemented: {exc}") from None


@steps("crisis_answered")
def crisis_answered(ctx, seat, params, then: str, holder: int, card: str, number: int, symbol: str, answers: dict):
    answers = {**answers, str(seat): dict(params)}
    if then == "fate":
        ctx.push(fate_crisis, seat=holder, card=card, number=number, symbol=symbol, answers=answers)
    else:
        ctx.push(court_crisis, card=card, number=number, symbol=symbol, answers=answers)


# -- Edicts (BR-239..BR-259) -------------------------------------------------------------------
@steps("edicts_begin")
def edicts_begin(ctx):
    """Every Edict in the booklet, by number (`edicts.resolve_edicts`)."""
    plan = [(edict, {"card": s.card, "do": s.do, "handler": s.handler}) for s in edicts.resolve_edicts(campaign_box(),
                                                                                                       ctx.state)]
    ctx.push_all(plan)


@steps("edict")
def edict(ctx, card: str, do: str, handler: str = ""):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    ctx.emit("edict", card=card)
    if do == edicts.ENVOYS_OP:
        ctx.emit("guilds_buried", cards=edicts.guild_envoys_depart(box, cbox, state), why=card)
    elif do == edicts.GOVERN_OP:
        options = edicts.options_govern(cbox, state)
        if options:  # nobody governs without a First Regent
            choose(ctx, state.first_regent, "govern", options, resume=governed)
    elif do == "handler":
        fates.run_handler(ctx, handler, state.first_regent, card)
    else:
        raise EngineError(f"{card}: Edict op {do!r} has no rule")


@steps("governed")
def governed(ctx, seat, params):
    state, cbox = ctx.state, campaign_box()
    outcome = edicts.apply_govern(cbox, state, seat, dict(params))
    ctx.emit("policy", seat=seat, outcome=outcome, policy=edicts.current_policy(cbox, state).name)
    if outcome == "enforce":  # BR-242: the Demand, then the Imperial Action
        ctx.push_all([*((demand, {"payer": p}) for p in edicts.demand_payers(cbox, state)), (imperial_action, {})])


@steps("demand")
def demand(ctx, payer: int):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    options = edicts.options_demand(box, cbox, state, payer)
    if options:  # the First Regent chooses what each Regent pays
        choose(ctx, state.first_regent, "collect_demand", options, resume=demanded, payer=payer)


@steps("demanded")
def demanded(ctx, seat, params, payer: int):
    state = ctx.state
    got = edicts.apply_demand(box_for(state), campaign_box(), state, seat, payer, dict(params))
    ctx.emit("demand_collected", seat=seat, payer=payer, **{k: v for k, v in got.items() if k not in ("seat", "payer")})
    if "trust" in got:
        from plugins.blighted_reach.fate_guardian import trust_take_offer

        trust_take_offer(ctx, seat, got["trust"])  # F2002: even a take for the Trust may go to Green Vault
        from plugins.blighted_reach import fate_peacekeeper

        fate_peacekeeper.trust_take_offer(ctx, seat, got["trust"])  # F1503: and a Weapon to Arsenal Keepers


@steps("imperial_action")
def imperial_action(ctx):
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    options = edicts.options_imperial_action(box, cbox, state)
    if options:
        choose(ctx, state.first_regent, "imperial_action", options, resume=acted)


@steps("imperial_action_taken")
def acted(ctx, seat, params):
    state = ctx.state
    done = edicts.apply_imperial_action(box_for(state), campaign_box(), state, seat, dict(params))
    ctx.emit("imperial_action", seat=seat, **{k: v for k, v in done.items() if k != "seat"})
    fate_admiral.imperial_ships_placed(state, done.get("placed", 0))  # the Admiral's objective (BR-093)
