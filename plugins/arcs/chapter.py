"""The end of a chapter (digest section 11): score, clean up, check for the game's end,
name the winner, deal the next chapter."""
from __future__ import annotations

from core.errors import EngineError
from core.rng import Rng
from plugins.arcs.content import Box
from plugins.arcs.outrage import agent_returns
from plugins.arcs.plays import flip_after_chapter
from plugins.arcs.scoring import score_ambition
from plugins.arcs.placing import cover_slots
from plugins.arcs.setup import open_slots
from plugins.arcs.state import ArcsState


def score_chapter(box: Box, state: ArcsState, adjust=None) -> tuple[dict[int, int], list[str]]:
    """ARCS-246/232/235: every ambition holding markers is scored and its Power added at once.
    `adjust(box, state, ambition, gains)` changes one ambition's gains (the Leaders' scoring
    modifiers, ARCS-124). Returns (Power per seat, the ambitions scored)."""
    gained = {seat: 0 for seat in range(len(state.players))}
    scored = [a for a in box.board.ambitions if state.ambition_boxes.get(a)]
    for ambition in scored:
        gains = score_ambition(box, state, ambition)
        if adjust is not None:
            gains = adjust(box, state, ambition, gains)
        for seat, power in gains.items():
            gained[seat] += power
    for seat, power in gained.items():
        state.players[seat].power += power
    return gained, scored


def return_city(box: Box, state: ArcsState, seat: int) -> None:
    """A city goes back to the rightmost empty city slot (ARCS-249). If it covers a resource
    slot, the tokens there wait for their owner, who rearranges everything and discards
    what no longer fits (ARCS-250, ARCS-210): the placement the flow settles next."""
    player = state.players[seat]
    empty = [i for i, here in enumerate(player.cities_on_board) if not here]
    if not empty:
        return
    before = open_slots(box, player)
    player.cities_on_board[empty[-1]] = True
    cover_slots(box, state, seat, before)


# A game built on Arcs may let a player keep Captives when Tyrant is scored (the campaign's
# Vow of Survival): fn(state, seat) -> the owners of the Captives the seat keeps, or None to
# leave it to the next rule. With no rule (a base game) every Captive goes home.
CAPTIVES_KEPT: list = []


def captives_kept(state: ArcsState, seat: int) -> list[int]:
    for rule in CAPTIVES_KEPT:
        kept = rule(state, seat)
        if kept is not None:
            return list(kept)
    return []


def clean_up(box: Box, state: ArcsState, scored: list[str]) -> None:
    """ARCS-247/248: Trophies go home if Warlord was scored, Captives if Tyrant was (ships,
    starports and agents to their supplies, cities to their boards); ARCS-251: markers back,
    the lowest unflipped one flipped."""
    if "warlord" in scored:
        for holder in state.players:
            for t in holder.trophies:
                if t.owner < 0:  # a piece of no player: its game returns it first (`arcs_chapter_clean_up`)
                    raise EngineError(f"no rule returned a Trophy of owner {t.owner} ({t.kind})")
                owner = state.players[t.owner]
                if t.kind == "ship":
                    owner.ships += 1
                elif t.kind == "starport":
                    owner.starports += 1
                elif t.kind == "agent":
                    agent_returns(state, t.owner)
                else:
                    return_city(box, state, t.owner)
            holder.trophies = []
    if "tyrant" in scored:
        for seat, holder in enumerate(state.players):
            wanted, kept = captives_kept(state, seat), []
            for owner in holder.captives:
                if owner in wanted:
                    wanted.remove(owner)
                    kept.append(owner)
                else:
                    agent_returns(state, owner)
            holder.captives = kept
    markers = [*state.markers_available, *(m for ms in state.ambition_boxes.values() for m in ms)]
    order = {m.id: i for i, m in enumerate(box.board.ambition_markers)}
    markers.sort(key=lambda m: order[m.id])
    state.markers_available = flip_after_chapter(box, markers)
    state.ambition_boxes = {a: [] for a in box.board.ambitions}


def game_over(box: Box, state: ArcsState) -> bool:
    """ARCS-252/253/244: Power at the threshold for the player count, or chapter 5 scored."""
    threshold = box.board.power_to_win[str(len(state.players))]
    return state.chapter >= box.board.last_chapter or any(p.power >= threshold for p in state.players)


def winner(state: ArcsState) -> int:
    """ARCS-254: most Power; a tie goes to the tied player first in turn order from the
    initiative holder."""
    n = len(state.players)
    order = [(state.initiative + i) % n for i in range(n)]
    best = max(p.power for p in state.players)
    return next(seat for seat in order if state.players[seat].power == best)


def deal_chapter(box: Box, state: ArcsState) -> None:
    """ARCS-255: every action card of this player count shuffled, 6 dealt to each, the rest
    face down on the discard; the chapter advances (ARCS-252) and the holder keeps the
    initiative (ARCS-257)."""
    deal_chapter_from(box, state, box.action_deck(len(state.players)))


def deal_chapter_from(box: Box, state: ArcsState, deck: list[str]) -> None:
    """`deal_chapter` from these cards (a game whose action cards change during play)."""
    rng = Rng(state)
    deck = list(deck)
    rng.shuffle(deck)
    state.hands = []
    for _ in state.players:
        state.hands.append(deck[:box.board.hand_size])
        deck = deck[box.board.hand_size:]
    state.action_discard, state.action_deck = deck, []
    state.chapter += 1

