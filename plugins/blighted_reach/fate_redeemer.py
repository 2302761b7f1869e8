"""The Redeemer (FATE19, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F1901 Setup side: Resettle (`fate_c`), Provoke Relic Outrage, gain Ire of the Keepers,
  Rebuke of the Keepers into the booklet, Relic Fence on top of the Court deck, and with 2
  players the Relics on the ambition boxes back to the supply. Objective side, the final
  objective: "Subdue the Keepers", after each chapter's scoring 3 spaces if the seat won
  Keeper or nobody declared it; "Shatter the Relics", after scoring, if the seat won any
  ambition, it may scrap Relics it holds, 2 spaces each (asked before the campaign's winner
  is looked for, so a shattering that reaches 0 wins at once: BR-107).
- F1902 Ire of the Keepers (Lore): its holder never declares Keeper and taxes its own
  cities on Relic planets only where it controls the system (`fate_c.IRE`).
- F1903 Rebuke of the Keepers (Edict): Keeper declared and the Redeemer not winning it: the
  Redeemer loses Power equal to Keeper's first place; Keeper not declared: the one player
  with the most Relics may declare it (never the Redeemer: on a tie, or the Redeemer alone
  on top, nobody does).
- F1904 Relic Fence: a reprint of the base Relic Fence (BC24), whose Prelude it plays.

Readings:
- "Relics you have" / "the most Relics" are Relic tokens in resource slots.
- Shatter the Relics is offered only while the marker is still on the track above 0.
- Keeper's first place is the first-place sum of the markers in its box (ARCS-233).
"""
from __future__ import annotations

from core.state import Action
from plugins.arcs.abilities import standing
from plugins.arcs.content import box_for
from plugins.arcs.court_ops import place_ambition_marker
from plugins.arcs.scoring import marker_values
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_c import IRE, declare_barred, seat_of
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

REDEEMER = "FATE19"
IRE_OF_THE_KEEPERS = "F1902"
KEEPER = "keeper"
SHATTER = 2  # spaces per Relic scrapped

IRE[IRE_OF_THE_KEEPERS] = (KEEPER, ("relic",))
standing("cannot_declare_keeper", "no_tax_of_uncontrolled_relic_cities")


def relics(state: BlightedReachState, seat: int) -> int:
    return sum(r == "relic" for r in state.players[seat].resources)


def won_or_undeclared(ambition: str):
    """A condition: the seat wins `ambition` as it is scored now, or nobody declared it. Read
    before the boxes are cleared (at the chapter's scoring and its end)."""
    def holds(box, cbox, state, seat, score=None, amb="") -> bool:
        if not state.ambition_boxes.get(ambition):
            return True
        if score is not None:
            return score.winners.get(ambition) == seat
        return objectives.sole_first(objectives.standings(box, cbox, state, ambition)) == seat
    return holds


objectives.CONDITION_RULES["won_or_undeclared_keeper"] = won_or_undeclared(KEEPER)
objectives.COUNT_RULES["once"] = lambda box, cbox, state, seat, score, ambition: 1


# -- Shatter the Relics (F1901 objective side) ------------------------------------------------
def shatter_offer(state: BlightedReachState) -> tuple[int, int]:
    """(seat, Relics it may scrap) for the Redeemer after a chapter's scoring, (-1, 0) when
    it is not due: not Act III's objective, nothing won, no Relic, or the marker at 0."""
    seat = seat_of(state, REDEEMER)
    cbox = campaign_box()
    if seat < 0 or state.act != 3 or not objectives.uses_marker(cbox, state, seat):
        return -1, 0
    if len(state.objective_markers) <= seat or state.objective_markers[seat] <= 0:
        return -1, 0
    score = objectives.chapter_score(box_for(state), cbox, state)
    if not score.won_by(seat) or not relics(state, seat):
        return -1, 0
    return seat, relics(state, seat)


def chapter_scored(ctx) -> None:
    """`arcs_chapter_scored`: the offer, read now (the boxes still hold their markers)."""
    seat, most = shatter_offer(ctx.state)
    if seat >= 0:
        ctx.push(shatter_relics, seat=seat, most=most)


@steps("redeemer_shatter")
def shatter_relics(ctx, seat: int, most: int):
    options = [Action("shatter", {"relics": n}) for n in range(most + 1)]
    ctx.ask(seat, "shatter_relics", options, resume=relics_shattered)


@steps("redeemer_shattered")
def relics_shattered(ctx, seat, params):
    state = ctx.state
    n = params["relics"]
    row = state.players[seat].resources
    for _ in range(n):
        row[row.index("relic")] = None
    state.scrapped_resources.extend(["relic"] * n)
    moved = objectives.advance_on_event(box_for(state), campaign_box(), state, "relic_shattered", n, seat=seat) if n else {}
    ctx.emit("relics_shattered", seat=seat, relics=n, spaces=moved.get(seat, 0),
             marker=state.objective_markers[seat])


# -- F1903 Rebuke of the Keepers -----------------------------------------------------------------
@fates.handler("rebuke_of_the_keepers")
def rebuke_of_the_keepers(ctx, seat: int, card_id: str, effect) -> None:
    state, box, cbox = ctx.state, box_for(ctx.state), campaign_box()
    redeemer = seat_of(state, REDEEMER)
    markers = state.ambition_boxes.get(KEEPER, [])
    if markers:
        if redeemer < 0 or objectives.sole_first(objectives.standings(box, cbox, state, KEEPER)) == redeemer:
            ctx.emit("edict_lapsed", card=card_id, why="the Redeemer is winning Keeper" if redeemer >= 0 else "no Redeemer")
            return
        lost = marker_values(box, markers)[0]
        state.players[redeemer].power -= lost
        ctx.emit("power_lost", seat=redeemer, power=lost, why=card_id)
        return
    counts = {s: relics(state, s) for s in range(len(state.players))}
    best = max(counts.values(), default=0)
    top = [s for s, c in counts.items() if c == best]
    if best <= 0 or len(top) != 1 or declare_barred(state, top[0], KEEPER) or not state.markers_available:
        ctx.emit("edict_lapsed", card=card_id, why="nobody alone has the most Relics, or may declare Keeper")
        return
    ctx.ask(top[0], "rebuke_declare", [Action("declare", {"ambition": ""}), Action("declare", {"ambition": KEEPER})],
            resume=rebuke_declared, card=card_id)


@steps("rebuke_declared")
def rebuke_declared(ctx, seat, params, card: str):
    if not params["ambition"]:
        return
    state = ctx.state
    marker = place_ambition_marker(box_for(state), state, KEEPER)
    ctx.emit("ambition_declared", seat=seat, ambition=KEEPER, marker=marker.id, card=card)
    ctx.hook.arcs_declared_by_card(ctx=ctx, seat=seat, ambition=KEEPER)
