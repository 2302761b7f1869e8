"""What the search bot needs from New Capital: how well a seat stands (`score`) and a
redeal of what a seat cannot see (`sample_hidden`).

The score follows the win condition (QNC-056, the scenario's seal target): seals first,
then what turns into seals: attribute points on the tracks (5 give a seal at the Score
phase, QNC-177), the points the province will score each remaining round (its structures
outside Rebellion, QNC-174/126), diplomacy cubes on their way to a Favored space (QNC-165)
and the Honorary objective; Hunger cards clog the deck and reserves meet the crises."""
from __future__ import annotations

import random

from core.determinize import redeal, rename_pending, whole
from plugins.new_capital.content import Pack, pack_for
from plugins.new_capital.province import card_count, favored_factions, honorary_met, province_leaders
from plugins.new_capital.state import NewCapitalState, Player

SEAL = 10.0          # the unit: the game is won on seals
TRACK_POINT = 1.6    # a seal is 5 points on a track, a little less for the points past it
INCOME_POINT = 1.2   # a point the province scores each remaining round
DIPLOMACY_STEP = 1.5  # a seal is 5 steps towards a Favored space
LEADER = 0.8
RESERVE = 0.35       # power and control meet the crises (penalties: Hunger, Rebellion)
HUNGER = 1.5
REBELLION = 1.0
ROUNDS = 6           # one crisis per level, six levels (QNC-018)
HORIZON = 3          # rounds of income counted (later ones are less sure)


def score(state: NewCapitalState, seat: int) -> float:
    pk = pack_for(state.pack)
    p = state.players[seat]
    target = pk.scenario(state.scenario).seals
    value = SEAL * min(p.seals, target) + 0.5 * SEAL * max(0, p.seals - target)
    value += TRACK_POINT * sum(min(v, pk.board.track_max) for v in p.tracks.values())
    rounds_left = max(0, ROUNDS - state.round) + (0 if state.phase in ("score", "refresh") else 1)
    value += INCOME_POINT * min(rounds_left, HORIZON) * income(pk, p)
    value += DIPLOMACY_STEP * sum(abs(d) for d in p.diplomacy if abs(d) < pk.board.favored_at)
    value += LEADER * len(province_leaders(p)) + 0.2 * card_count(p)
    value += RESERVE * (p.reserve_power + p.reserve_control + p.bid_power + p.bid_control)
    value += 0.5 * p.extra_actions
    if not p.honorary and honorary_met(state, pk, p):
        value += 0.5 * SEAL
    value -= HUNGER * sum(1 for c in (*p.hand, *p.deck, *p.discard) if c in pk.hunger)
    value -= REBELLION * sum(c.rebellion for c in p.columns)
    value += 0.3 * len(favored_factions(pk, p))
    return value


def income(pk: Pack, p: Player) -> int:
    """Attribute points the province scores at the next Score phase (structures outside Rebellion)."""
    return sum(n for col in p.columns if not col.rebellion
               for card in col.structures for n in pk.structures[card].attributes.values())


def _keep(renamed: dict[str, str], more: dict[str, str]) -> None:
    """A card redealt twice keeps the name its first place gave it (a face-down card's)."""
    for old, new in more.items():
        renamed.setdefault(old, new)


def _playable(pk: Pack, zone: list[str]) -> list[tuple[list[str], list[int]]]:
    return [(zone, [i for i, c in enumerate(zone) if c not in pk.hunger])]


def sample_hidden(state: NewCapitalState, seat: int, rng: random.Random) -> bool:
    """Redeal what `seat` may not see (`views.hidden_from`), each pool from the cards that
    could lie there: another seat's hand, deck and unrevealed face-down cards are one pool
    (that seat's own cards, Hunger never face down); each common deck and the seat's own deck alone; the crisis of
    each level among that level's face-down crises (QNC-018); the draft leaders among the
    offers not yet seen and the box. The box is then sorted: its order says nothing."""
    pk = pack_for(state.pack)
    renamed: dict[str, str] = {}
    for p in state.players:
        if p.seat == seat:
            _keep(renamed, redeal(rng, whole(p.deck)))
        else:
            # face-down crisis cards were played from the hand: never a Hunger card (QNC-201)
            if not state.revealed:
                _keep(renamed, redeal(rng, [*whole(p.face_down), *_playable(pk, p.hand), *_playable(pk, p.deck)]))
            _keep(renamed, redeal(rng, whole(p.hand, p.deck)))
    for key in sorted(state.rows):
        _keep(renamed, redeal(rng, whole(state.rows[key].deck)))
    _keep(renamed, redeal(rng, whole(state.hunger_deck)))
    box = state.box
    for level in sorted({c.level for c in pk.crises.values()}):
        at = [(state.crisis_deck, [i for i, c in enumerate(state.crisis_deck) if pk.crises[c].level == level]),
              (box, [i for i, c in enumerate(box) if c in pk.crises and pk.crises[c].level == level])]
        _keep(renamed, redeal(rng, at))
    offers = [p.draft_offer for p in state.players if p.seat != seat]
    _keep(renamed, redeal(rng, [*whole(*offers), (box, [i for i, c in enumerate(box) if c in pk.leaders and pk.leaders[c].draft])]))
    box.sort()
    rename_pending(state, renamed)
    return True
