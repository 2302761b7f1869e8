"""The Guardian (FATE20, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F2001 Setup side: Resettle (`fate_c`), Provoke Fuel and Material Outrage, with 2 players
  the Material and Fuel on the ambition boxes back to the supply, the Edenguard tile by
  Tycoon (an empty ambition box `edenguard`), gain Green Vault and Ire of the Tycoons,
  Edenguard Ambition into the booklet. Objective side, the final objective: at each
  chapter's end, if the seat wins Tyrant or nobody declared it, 1 space per Material or
  Fuel in its Captives (Green Vault's); if it wins Edenguard or nobody declared it, 1 per
  Material and Fuel planet it controls.
- F2002 Green Vault (Lore): each Material or Fuel token coming to its holder (gained,
  taxed, stolen, given: every token that waits to be placed) may go into its Captives
  instead, asked before it is placed (`placing_flow.QUESTIONS`); so may one it takes for
  the Imperial Trust as First Regent (`trust_take_offer`, after the Demand's payment). They lie on the card
  (`state.card_resources`), frozen, count for Tyrant and Tycoon, and go back to the supply
  when Tyrant is scored.
- F2003 Ire of the Tycoons (Lore): its holder never declares Tycoon, gains no Power from
  it, and taxes its own cities on Material and Fuel planets only with control (`fate_c.IRE`).
- F2004 Edenguard Ambition (law): a new ambition, most Material and Fuel planets
  controlled (the First Regent counting the Empire's systems, BR-121); whoever may declare
  Tycoon with a lead card may declare Edenguard instead. Scored with the others at the
  chapter's end, its markers back with theirs.

Readings:
- Edenguard is declared instead of Tycoon with a lead card; a card's "declare any
  ambition" (Populist Demands) names the box's five, so not Edenguard.
- Green Vault offers every token that comes to the holder's resource row, and a Material
  or Fuel the holder, as First Regent, takes for the Imperial Trust from a Demand.
- Edenguard's Power is added as the chapter is scored, before the five base ambitions'.
"""
from __future__ import annotations

from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import placing_flow, scoring
from plugins.arcs.abilities import standing
from plugins.arcs.content import box_for
from plugins.arcs.scoring import score_ambition
from plugins.blighted_reach import board, card_slots, fates, objectives
from plugins.blighted_reach.fate_c import IRE, is_campaign, planets_of
from plugins.blighted_reach.fate_redeemer import won_or_undeclared
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

GUARDIAN = "FATE20"
GREEN_VAULT = "F2002"
IRE_OF_THE_TYCOONS = "F2003"
EDENGUARD_LAW = "F2004"
EDENGUARD = "edenguard"
TYCOON, TYRANT = "tycoon", "tyrant"
VAULTED = ("material", "fuel")

IRE[IRE_OF_THE_TYCOONS] = (TYCOON, VAULTED)
standing("material_and_fuel_into_captives", "cannot_declare_or_score_tycoon",
         "no_tax_of_uncontrolled_material_fuel_cities", "edenguard_ambition")


def edenguard_in_play(state) -> bool:
    return is_campaign(state) and any(EDENGUARD_LAW in slot for slot in state.booklet)


# -- F2004 Edenguard: the ambition box, declaring, counting, scoring --------------------------
@fates.handler("place_edenguard_tile")
def place_edenguard_tile(ctx, seat: int, card_id: str, effect) -> None:
    """The tile by Tycoon: an ambition box of its own, empty."""
    ctx.state.ambition_boxes.setdefault(EDENGUARD, [])
    ctx.emit("ambition_box_added", ambition=EDENGUARD, why=card_id)


@hookimpl(specname="arcs_chapter_deal", tryfirst=True)  # before the rule that deals the hands
def edenguard_box_kept(ctx):
    """The chapter's clean-up empties the boxes the base board knows; the tile stays."""
    if edenguard_in_play(ctx.state):
        ctx.state.ambition_boxes.setdefault(EDENGUARD, [])
    return None


def declarable(state, ambitions: list[str]) -> list[str]:
    """A lead card that may declare Tycoon may declare Edenguard instead."""
    if TYCOON in ambitions and EDENGUARD not in ambitions and edenguard_in_play(state):
        return [*ambitions, EDENGUARD]
    return ambitions


def edenguard_count(box, state, seat: int, ambition: str) -> int:
    """`scoring.COUNT_EXTRAS`: Edenguard counts the Material and Fuel planets controlled."""
    if ambition != EDENGUARD or not is_campaign(state):
        return 0
    return sum(board.controls_for_scoring(state, seat, p) for p in planets_of(state, VAULTED))


def vault_count(box, state, seat: int, ambition: str) -> int:
    """`scoring.COUNT_EXTRAS`: Green Vault's tokens are Captives for Tyrant (Tycoon counts
    them already, as resources on a held card)."""
    if ambition != TYRANT or not is_campaign(state) or GREEN_VAULT not in state.players[seat].lore:
        return 0
    return len(state.card_resources.get(GREEN_VAULT, []))


scoring.COUNT_EXTRAS.extend([edenguard_count, vault_count])


def score_edenguard(ctx) -> dict[int, int]:
    """`arcs_chapter_scoring`: Edenguard's Power, as any ambition's (first and second place,
    the city bonus, ARCS-233..240)."""
    state = ctx.state
    if not state.ambition_boxes.get(EDENGUARD):
        return {}
    gains = score_ambition(box_for(state), state, EDENGUARD)
    for seat, power in gains.items():
        state.players[seat].power += power
    ctx.emit("scored", chapter=state.chapter, ambitions=[EDENGUARD], power={str(s): p for s, p in gains.items()})
    return gains


def tycoon_gains(state, ambition: str, gains: dict[int, int]) -> dict[int, int] | None:
    """`arcs_ambition_gains`: the holder of Ire of the Tycoons gains nothing from Tycoon."""
    if ambition != TYCOON or not is_campaign(state):
        return None
    holders = [s for s, p in enumerate(state.players) if IRE_OF_THE_TYCOONS in p.lore and gains.get(s)]
    if not holders:
        return None
    return {s: (0 if s in holders else g) for s, g in gains.items()}


# -- F2002 Green Vault ---------------------------------------------------------------------------
def _vault_record(state: BlightedReachState):
    """The waiting placement of Green Vault's holder that holds Material or Fuel not yet
    offered, or None."""
    holder = next((s for s, p in enumerate(state.players) if GREEN_VAULT in p.lore), -1)
    if holder < 0:
        return None
    return next((r for r in state.placing if r.seat == holder and r.number not in state.vault_declined
                 and any(t in VAULTED for t in r.tokens)), None)


def vault_question(ctx):
    """`placing_flow.QUESTIONS`: one Material or Fuel into the Captives, or none (then the
    rest of that placement is placed as usual)."""
    state = ctx.state
    if not is_campaign(state) or not state.placing:
        return None
    state.vault_declined = [n for n in state.vault_declined if any(r.number == n for r in state.placing)]
    record = _vault_record(state)
    if record is None:
        return None
    kinds = [k for k in VAULTED if k in record.tokens]
    options = [Action("green_vault", {"resource": ""})] + [Action("green_vault", {"resource": k}) for k in kinds]
    return ctx.prompt(record.seat, "green_vault", options, resume=vaulted, number=record.number, question=True)


@steps("green_vaulted")
def vaulted(ctx, seat, params, number: int, question: bool = True):
    state = ctx.state
    resource = params["resource"]
    record = next((r for r in state.placing if r.number == number), None)
    if record is None:
        return
    if not resource:
        state.vault_declined.append(number)
        return
    record.tokens.remove(resource)
    if not record.tokens and not record.rearrange:
        state.placing.remove(record)
    state.card_resources.setdefault(GREEN_VAULT, []).append(resource)
    ctx.emit("resources_on_card", seat=seat, card=GREEN_VAULT, resources=[resource])


placing_flow.QUESTIONS.append(vault_question)
card_slots.holds(GREEN_VAULT, VAULTED)


def trust_take_offer(ctx, seat: int, resource: str) -> None:
    """The First Regent holding Green Vault took a Material or Fuel for the Imperial Trust
    (an Imperial Demand): it may put that token into its Captives instead."""
    state = ctx.state
    if resource not in VAULTED or GREEN_VAULT not in state.players[seat].lore or resource not in state.trust:
        return
    options = [Action("green_vault", {"resource": ""}), Action("green_vault", {"resource": resource})]
    ctx.ask(seat, "green_vault", options, resume=trust_vaulted)


@steps("green_vaulted_from_trust")
def trust_vaulted(ctx, seat, params):
    resource = params["resource"]
    if not resource:
        return
    state = ctx.state
    state.trust.remove(resource)
    state.card_resources.setdefault(GREEN_VAULT, []).append(resource)
    ctx.emit("resources_on_card", seat=seat, card=GREEN_VAULT, resources=[resource], why="trust")


@hookimpl(specname="arcs_chapter_clean_up")
def tyrant_scored(ctx, scored: list) -> None:
    """Tyrant scored: Green Vault's Captives go back to the supply with the others."""
    state = ctx.state
    if TYRANT not in scored or not is_campaign(state) or GREEN_VAULT not in state.card_resources:
        return
    gone = state.card_resources.pop(GREEN_VAULT)
    for r in gone:
        state.supply[r] = state.supply.get(r, 0) + 1
    ctx.emit("card_resources_discarded", card=GREEN_VAULT, resources=gone, why="tyrant")


# -- the final objective (F2001) ---------------------------------------------------------------
def vaulted_count(box, cbox, state, seat, score=None, ambition="") -> int:
    return vault_count(box, state, seat, TYRANT)


def vaulted_planets(box, cbox, state, seat, score=None, ambition="") -> int:
    return sum(board.controls_for_scoring(state, seat, p) for p in planets_of(state, VAULTED))


objectives.COUNT_RULES["material_fuel_in_captives"] = vaulted_count
objectives.COUNT_RULES["material_fuel_planet_controlled"] = vaulted_planets
objectives.CONDITION_RULES["won_or_undeclared_tyrant"] = won_or_undeclared(TYRANT)
objectives.CONDITION_RULES["won_or_undeclared_edenguard"] = won_or_undeclared(EDENGUARD)
