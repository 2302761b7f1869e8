"""What must hold after every action of an Arcs game: every piece, token and card is in
exactly one place, in the box's numbers. Returns the problems found (empty when sound);
tests and `simulate` check it after each action."""
from __future__ import annotations

from collections import Counter

from core.seats import seat_name
from plugins.arcs.content import Box
from plugins.arcs.plays import hand_id
from plugins.arcs.state import ArcsState


def problems(box: Box, state: ArcsState, in_play_cards: list[str] = (), court: bool = True,
             resources_elsewhere: list[str] = (), agents_elsewhere: list[int] = (),
             action_cards: list[str] | None = None, buildings_elsewhere: list[tuple[int, str]] = (),
             resources_added: dict[str, int] | None = None) -> list[str]:
    """`in_play_cards`: action cards lying played elsewhere (the round's own are read from
    the state: the lead, the face-up plays and the face-down cards). `court=False` leaves
    the Court cards to the caller (a game whose Court changes from game to game). A game built
    on Arcs names the resource tokens and the agents (by owner) its own components hold, and
    `action_cards` the action cards it plays with now (None: the box's deck for the count);
    a side of a double-sided card counts as its card (`plays.hand_id`). `buildings_elsewhere`:
    (owner, "city" | "starport") of a seat's buildings standing off the map and off its
    board (the campaign's Flagship boards). `resources_added`: tokens of a resource the game
    brought into play beyond the box's supply (the campaign's Witnesses turned Psionic)."""
    out: list[str] = []
    in_play_cards = [hand_id(c) for c in (*in_play_cards, *(p.card for p in state.plays if p.card), *state.facedown)]
    aside = state.turn.aside if state.turn is not None else []
    n = len(state.players)
    counts = box.board.pieces_per_player
    for seat, p in enumerate(state.players):
        on_map = {"ships": 0, "starports": 0, "cities": 0}
        for s in state.systems.values():
            mine = s.ships_of(seat)
            if mine.fresh < 0 or mine.damaged < 0:
                out.append(f"{seat_name(seat)} has negative ships somewhere")
            on_map["ships"] += mine.total
            on_map["starports"] += sum(1 for b in s.buildings if b.owner == seat and b.kind == "starport")
            on_map["cities"] += sum(1 for b in s.buildings if b.owner == seat and b.kind == "city")
        taken = Counter(t.kind for q in state.players for t in q.trophies if t.owner == seat)
        taken.update(kind for owner, kind in buildings_elsewhere if owner == seat)
        where = {
            "ships": p.ships + on_map["ships"] + taken["ship"],
            "starports": p.starports + on_map["starports"] + taken["starport"],
            "cities": sum(p.cities_on_board) + on_map["cities"] + taken["city"],
            "agents": p.agents + sum(a[seat] for a in state.court_agents.values()) + taken["agent"]
            + sum(q.captives.count(seat) for q in state.players) + len(p.outrage) - len(p.outrage_placeholders)
            + agents_elsewhere.count(seat),
        }
        for kind, total in where.items():
            if total != counts[kind]:
                out.append(f"{seat_name(seat)} has {total} {kind} in play, not {counts[kind]}")
    for resource in box.board.resources:
        held = sum(p.resources.count(resource) for p in state.players)
        held += sum(w.tokens.count(resource) for w in state.placing)  # gained, not yet placed
        on_boxes = sum(t.count(resource) for t in state.ambition_tokens.values())
        total = held + on_boxes + state.supply.get(resource, 0) + aside.count(resource) + resources_elsewhere.count(resource)
        expected = box.board.supply_per_resource + (resources_added or {}).get(resource, 0)
        if total != expected:
            out.append(f"{total} {resource} tokens in play, not {expected}")
    actions = [*state.action_deck, *state.action_discard, *state.action_discard_up, *in_play_cards, *(c for h in state.hands for c in h)]
    if sorted(actions) != sorted(box.action_deck(n) if action_cards is None else action_cards):
        out.append("the action cards are not each in exactly one place")
    court_cards = [*state.court_deck, *(c for c in state.court_row if c), *state.court_discard, *state.resolving,
             *(c for p in state.players for c in p.guild), *(u.card for u in state.unions)]
    if court and sorted(court_cards) != sorted(box.court):
        out.append("the Court cards are not each in exactly one place")
    if state.supply and any(v < 0 for v in state.supply.values()):
        out.append("a resource supply is negative")
    if set(state.court_agents) - set(state.court_row):
        out.append("agents stand on a card that is not in the Court row")
    return out
