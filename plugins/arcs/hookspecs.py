"""Arcs' own extension points for its modules (`GameSpec.hookspecs`).

Setup protocol: the game lays out the map and the Court, then calls `arcs_setup_steps`
(modules push steps, e.g. the Leaders & Lore draft; they run before the game's own
starting-piece steps), then for each seat asks `arcs_place_starting_pieces` and places
the standard pieces itself unless a module answered True.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from core.hookspecs import hookspec

if TYPE_CHECKING:
    from core.flow import Ctx


@hookspec
def arcs_setup_steps(ctx: Ctx) -> None:
    """After the map and the Court are set up, before starting pieces are placed: push the
    module's setup steps (they run before the game's placement steps)."""


@hookspec(firstresult=True)
def arcs_place_starting_pieces(ctx: Ctx, seat: int) -> bool:
    """Place `seat`'s starting pieces and resources; return True when this module did, so
    the game does not place the standard ones. First True wins."""


# -- games built on the Arcs rules (the campaign): cards that are not base action cards ----
# The base rules ask these only for a card outside the base action deck (`plays.is_action_card`),
# so a base game never pays for them.
@hookspec(firstresult=True)
def arcs_follow_kinds(state, seat: int, card: str) -> list[str] | None:
    """How a card that is not a base action card may follow the lead (e.g. ["event"]); an
    empty list: it may not follow."""


@hookspec(firstresult=True)
def arcs_may_lead(state, seat: int, card: str) -> bool | None:
    """Whether a card that is not a base action card may be led."""


@hookspec(firstresult=True)
def arcs_may_seize_with(state, seat: int, card: str) -> bool | None:
    """Whether a card that is not a base action card may go face down to seize."""


@hookspec(firstresult=True)
def arcs_play_buys(state, seat: int, kind: str, card: str) -> tuple[int, list[str]] | None:
    """(actions, from which list) a play of such a card, or of a side of a double-sided card,
    buys; None: what the base rules say."""


@hookspec
def arcs_round_end(ctx: Ctx) -> None:
    """After the initiative check and the discard of a round: push what the round's end
    resolves (the campaign's events); it runs before the next round starts."""


@hookspec(firstresult=True)
def arcs_game_over(state) -> bool | None:
    """After a chapter's clean-up: whether the game ends now (None: the base rule)."""


@hookspec(firstresult=True)
def arcs_result(ctx: Ctx) -> dict | None:
    """The finished game's result (None: the base game's most-Power winner)."""


@hookspec(firstresult=True)
def arcs_take_court_card(ctx: Ctx, seat: int, card: str, rivals_to: str) -> bool | None:
    """A seat takes `card` from the Court (secure or ransack): return True when the game
    handled the whole take itself (the campaign's Imperial Council)."""


@hookspec(firstresult=True)
def arcs_chapter_deal(ctx: Ctx) -> bool | None:
    """Deal the next chapter's hands (after the clean-up, `state.chapter` not yet advanced,
    every action card of the chapter in the deck and discard piles): return True when the
    game dealt them itself (emptying the piles it deals from)."""


@hookspec(firstresult=True)
def arcs_mulligan(ctx: Ctx, seat: int) -> bool | None:
    """2 players, a chapter's start: offer `seat` (the player without initiative) the
    mulligan the game's own way; return True when it did."""


@hookspec
def arcs_chapter_scoring(ctx: Ctx) -> None:
    """A chapter's end, before the ambitions' Power is added (what a game reads of the
    scoring as it stands: the campaign's objectives)."""


@hookspec
def arcs_chapter_scored(ctx: Ctx) -> None:
    """A chapter's end, after the ambitions' Power is added and before the clean-up; what it
    pushes runs first."""


@hookspec(firstresult=True)
def arcs_game_ending(ctx: Ctx) -> bool | None:
    """The game is over by `arcs_game_over`: return True when the game runs its own ending
    steps (and finishes the table itself), instead of the base result."""


# -- the campaign's Magnate and Advocate (Fates 03, 04) --
@hookspec
def arcs_ability_used(ctx: Ctx, seat: int, card: str, when: str) -> None:
    """`seat` used an ability of a held card in its turn (a Prelude ability or a new action,
    `when` its trigger), after its effect and after a card that discards itself went to the
    Court discard (the Advocate's objective counts these)."""


@hookspec
def arcs_summit_deal_done(ctx: Ctx, proposal, parts: list) -> None:
    """A game with Summits (the campaign): a Negotiations deal was resolved, `parts` what
    each of its Negotiation actions did (the Magnate's objective counts gifts)."""


@hookspec
def arcs_copied(ctx: Ctx, seat: int, action: str | None) -> None:
    """`seat` spent its Copy play's pip on `action` (a standard action, or a new action paid
    as one): "when you Copy to X" abilities (the campaign's Liaisons) act now."""


@hookspec
def arcs_tax_repeatable(state, seat: int, system: str, building: int) -> bool:
    """Whether the city `seat` is taxing may be taxed again this turn (ARCS-141 lifted by a
    game's rule: the campaign's Open Economy); asked as the tax is made."""


# -- the Believer (Blighted Reach FATE08): double-sided Faithful action cards and their laws --
@hookspec(firstresult=True)
def arcs_played_as(state, seat: int, card: str) -> list[str] | None:
    """The ids a card in `seat`'s hand may be led or followed as, one per side it may show
    (each an action card of the box, "<card>/<side>", `plays.hand_id`); None: the card is
    played as itself."""


@hookspec(firstresult=True)
def arcs_declarable(state, seat: int, card: str, ambitions: list[str]) -> list[str] | None:
    """The ambitions `seat` may declare with the lead card `card` when a game's laws change
    what its number allows (`ambitions`); None: unchanged."""


@hookspec
def arcs_declared(ctx: Ctx, seat: int, ambition: str) -> None:
    """An ambition was declared with a lead card (its marker placed): what a game's laws add."""


@hookspec
def arcs_city_destroyed(ctx: Ctx, attacker: int, owner: int, system: str) -> None:
    """`attacker` destroyed a city of `owner` in `system` in battle (its Outrage provoked,
    its Ransack still to come): a game's law may offer something (Breaking the Faith)."""


# -- the Caretaker (Blighted Reach FATE05): a turn a card ends as it begins ----------------------
@hookspec
def arcs_turn_begun(ctx: Ctx, seat: int) -> None:
    """`seat`'s turn has just opened (`state.turn` set, nothing taken yet): a game's card may
    end it at once (Stone-Speakers: its pips and Prelude gone) and push what follows; the
    steps it pushes run before the turn's first answer."""


@hookspec
def arcs_court_secured(ctx: Ctx, seat: int, card: str, position: int) -> None:
    """`seat` secured `card` (its effect resolved, its place refilled: `state.court_row[position]`
    is the card that refilled it, if any): a game's rules after a secure (Librarians)."""


@hookspec
def arcs_raid_options(state, thief: int, victim: int, keys: int) -> list[dict]:
    """What else a raid's keys can take from `victim` (steal answers' params, e.g. a Golem)."""


@hookspec(firstresult=True)
def arcs_raided(ctx: Ctx, thief: int, victim: int, params: dict, keys: int) -> int | None:
    """Take the piece an `arcs_raid_options` answer names: return the keys left."""


# -- the Founder (campaign Fate FATE02): an ambition scored its own way --
@hookspec(firstresult=True)
def arcs_ambition_gains(state, ambition: str, gains: dict[int, int]) -> dict[int, int] | None:
    """A chapter's end: one ambition's Power per seat as the base rules (and the Leaders) score
    it. Return what a game's own rule gives instead (the campaign's Commonwealth ambition);
    None keeps them."""


# -- the Partisan (campaign Fate FATE06): seizing by Provoking Outrage --
@hookspec(firstresult=True)
def arcs_seize_offer(ctx: Ctx, seat: int) -> bool | None:
    """`seat` just played a card and may seize (it lacks the initiative, nobody seized this
    round): offer the seize the game's own way (e.g. Provoking Outrage instead of a second card
    face down); True when it did, so the base offer is not made. Asked before the seat's hand
    is looked at: such a seize may need no card."""

# -- the Empire (campaign) --
# A game built on Arcs with pieces of no player (the campaign's Imperial ships, Free buildings
# and Blight) checks and applies the standard actions on them itself. The base rules ask these
# only from a turn's actions and battles; a game without an implementation answers None and
# the base rule stands, so a base game pays one empty hook call per check at most.
@hookspec(firstresult=True)
def arcs_check_tax(state, seat: int, system: str, building: int, taxed: list) -> bool | None:
    """Check a Tax target in place of the base check (raise an ActionRejected to refuse);
    True when the game checked it."""


@hookspec(firstresult=True)
def arcs_check_build(box, state, seat: int, system: str, what: str, starports_used: list,
                     in_gate: bool, off_slots: bool, slot: int, layer: str) -> bool | None:
    """Check a Build in place of the base check; True when the game checked it. `slot` (-1:
    none) and `layer` ("": none) name a place on a player's own board (the campaign's
    Flagship), which only a game that checks them knows."""


@hookspec(firstresult=True)
def arcs_build(state, seat: int, system: str, what: str, starports_used: list, fresh: bool, slot: int,
               layer: str) -> bool | None:
    """Place a checked Build in place of the base `do_build`: whether a piece was placed
    (False: the supply had none), None to leave it to the base rule."""


@hookspec(firstresult=True)
def arcs_check_repair(state, seat: int, system: str, piece: str, building: int | None) -> bool | None:
    """Check a Repair of a piece the base rules do not know (or do not let the seat
    repair); True when the game checked it."""


@hookspec(firstresult=True)
def arcs_repair(state, seat: int, system: str, piece: str, building: int | None) -> bool | None:
    """Apply a checked Repair the game checked itself; True when it did."""


@hookspec(firstresult=True)
def arcs_check_move(box, state, reach, seat: int, act) -> bool | None:
    """Check a move (`turn.MoveShips`, with its other pieces moving along) in place of the
    base check; True when the game checked it."""


@hookspec
def arcs_moved_along(ctx: Ctx, seat: int, act) -> None:
    """A checked move named other pieces moving with the seat's ships (the campaign's
    Imperial ships): move them. Asked only for such a move."""


@hookspec(firstresult=True)
def arcs_check_attack(box, state, seat: int, act) -> bool | None:
    """Check a battle (`turn.Attack`: the defender may be an owner below 0, other ships may
    join the attack) in place of the base check; True when the game checked it."""


@hookspec
def arcs_act_candidates(box, state, seat: int, pay: int, kinds: set) -> list | None:
    """More complete answers for a turn's actions paid by `pay` (candidates; each is still
    checked): e.g. moves and battles with the campaign's pieces."""


@hookspec
def arcs_battle_begun(ctx: Ctx, imperial_fresh: int, imperial_damaged: int, judge_fresh: int,
                      judge_damaged: int, judge_flagship: bool) -> None:
    """`state.battle` was just set up; the attack's other ships (the campaign's Imperial
    ships; another seat's Loyal ships, the campaign's Judge's Chosen) are named. Asked once
    per battle."""


@hookspec(firstresult=True)
def arcs_battle_resolve(ctx: Ctx) -> bool | None:
    """Before the base rules resolve the battle's next symbol: True when the game resolved
    it itself (it pushes `battle_flow.resolve` again when done)."""


@hookspec(firstresult=True)
def arcs_defender_present(state, system: str, defender: int) -> bool | None:
    """Whether a defender below 0 (no seat) still has pieces in `system` to battle."""


@hookspec
def arcs_chapter_clean_up(ctx: Ctx, scored: list) -> None:
    """Before the base chapter clean-up: return what the base rules cannot (Trophies of
    owners below 0) and take it out of the Trophies."""



# -- the Steward and the Admiral (campaign Fates 01, 07) --
@hookspec(firstresult=True)
def arcs_tax_captures(state, seat: int, system: str, building: int) -> bool | None:
    """Whether this Tax of a Rival's city takes one of its owner's agents Captive (ARCS-139):
    False when a card taxes it like a Loyal city (Imperial Authority); None leaves it to the
    base rule."""


@hookspec
def arcs_taxed(ctx: Ctx, seat: int, system: str, building: int, got: dict) -> None:
    """A Tax was taken (`got`: `do_tax`'s report): what a card adds to it (Tax Collectors
    may take the token from the city owner's board); what it pushes runs next."""


@hookspec
def arcs_declared_by_card(ctx: Ctx, seat: int, ambition: str) -> None:
    """An ambition was declared by a card's effect (a Prelude, a secured Vox card, Galactic
    Bards; `arcs_declared` is the lead card's): what a game's laws add (the campaign's
    Imperial Sponsor); what it pushes runs first."""
