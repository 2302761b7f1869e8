"""Ambition scoring (digest section 10): what each player counts, who places, and what
each place earns with every tie rule, the city bonus and the 2-player phantom."""
from __future__ import annotations

from typing import Callable

from plugins.arcs.content import AmbitionMarker, Box
from plugins.arcs.state import ArcsState, Marker, PlayerState

# What each ambition counts among resources and Guild suits (ARCS-230, ARCS-222).
ICONS = {"tycoon": ("material", "fuel"), "keeper": ("relic",), "empath": ("psionic",)}
PHANTOM = -1  # the imaginary third competitor of a 2-player game (ARCS-241)

# A game built on Arcs may count more toward an ambition than the base rules see (the
# campaign's resources on cards, its Monopolies and scoring laws): fn(box, state, seat,
# ambition) -> what it adds (negative to take away). Each answers 0 for a table it does not
# know, so a base game counts as before.
COUNT_EXTRAS: list[Callable[[Box, ArcsState, int, str], int]] = []


def ambition_count(box: Box, state: ArcsState, player: PlayerState, ambition: str) -> int:
    count = _base_count(box, state, player, ambition)
    if COUNT_EXTRAS:
        seat = next(i for i, p in enumerate(state.players) if p is player)
        count += sum(extra(box, state, seat, ambition) for extra in COUNT_EXTRAS)
    return count


def _base_count(box: Box, state: ArcsState, player: PlayerState, ambition: str) -> int:
    if ambition == "tyrant":
        return len(player.captives)
    if ambition == "warlord":
        return len(player.trophies)
    kinds = ICONS.get(ambition, ())  # an ambition a game adds counts no icon here (its own rule counts it)
    count = sum(1 for r in player.resources if r in kinds)
    for card_id in player.guild:
        card = box.court[card_id]
        count += card.suit in kinds
        for ability in card.abilities:  # a Cartel holds its resource's whole supply (ARCS-315)
            if ability.do == "hold_supply" and ability.resource in kinds:
                count += state.supply.get(ability.resource, 0)
    return count


def marker_values(box: Box, markers: list[Marker]) -> tuple[int, int]:
    """(first-place sum, second-place sum) of the markers in one box (ARCS-233, ARCS-234)."""
    data: dict[str, AmbitionMarker] = {m.id: m for m in box.board.ambition_markers}
    first = sum(data[m.id].flipped_first if m.flipped else data[m.id].first for m in markers)
    second = sum(data[m.id].flipped_second if m.flipped else data[m.id].second for m in markers)
    return first, second


def city_bonus(player: PlayerState, box: Box) -> int:
    """ARCS-239: +2 with city slot 4 empty, +5 with slots 4 and 5 empty."""
    bonus = 0
    for slot in sorted(box.board.city_slot_bonus, key=int):
        if player.cities_on_board[int(slot) - 1]:
            break
        bonus += box.board.city_slot_bonus[slot]
    return bonus


def place_gains(counts: dict[int, int], first: int, second: int, bonus: dict[int, int]) -> dict[int, int]:
    """Power gained per real seat from one ambition, given each competitor's count.

    Zero counts cannot place (ARCS-236). A tie for first gives every tied player the
    second-place sum and nobody anything else (ARCS-237). A unique first takes the first
    sum plus its city bonus once (ARCS-239/240); a tie for second gives the tied nothing
    (ARCS-238). The phantom (seat PHANTOM) may place but never gains (ARCS-241)."""
    gains = {seat: 0 for seat in counts if seat != PHANTOM}
    placed = sorted((c for c in counts.values() if c > 0), reverse=True)
    if not placed:
        return gains
    top = placed[0]
    firsts = [s for s, c in counts.items() if c == top]
    if len(firsts) > 1:
        for s in firsts:
            if s != PHANTOM:
                gains[s] += second
        return gains
    (winner,) = firsts
    if winner != PHANTOM:
        gains[winner] += first + bonus.get(winner, 0)
    if len(placed) > 1:
        runner_up = placed[1]
        seconds = [s for s, c in counts.items() if c == runner_up and s != winner]
        if len(seconds) == 1 and seconds[0] != PHANTOM:
            gains[seconds[0]] += second
    return gains


def score_ambition(box: Box, state: ArcsState, ambition: str) -> dict[int, int]:
    """Power per seat for one ambition box at chapter end (nothing if it holds no marker)."""
    markers = state.ambition_boxes.get(ambition, [])
    if not markers:
        return {seat: 0 for seat in range(len(state.players))}
    first, second = marker_values(box, markers)
    counts = {seat: ambition_count(box, state, p, ambition) for seat, p in enumerate(state.players)}
    phantom = state.ambition_tokens.get(ambition)
    if len(state.players) == 2 and phantom is not None:
        counts[PHANTOM] = len(phantom)
    bonus = {seat: city_bonus(p, box) for seat, p in enumerate(state.players)}
    return place_gains(counts, first, second, bonus)
