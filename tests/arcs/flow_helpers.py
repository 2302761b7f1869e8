"""Building Arcs tables in a chosen position for the flow tests."""
from __future__ import annotations

from core.engine import create_table
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.rounds import round_start
from plugins.arcs.state import Ships, SystemState


def table(players: int = 3, seed: int = 1, setup_card: str = ""):
    options = {"setup_card": setup_card} if setup_card else {}
    return create_table("arcs", players, seed=seed, options=options)


def restart_round(t, hands: list[list[str]], initiative: int = 0) -> None:
    """Give the seats these hands (the rest of the cards to the discard) and start a round."""
    s = t.state
    everything = [c for h in s.hands for c in h] + s.action_discard
    used = {c for h in hands for c in h}
    s.hands = [list(h) for h in hands]
    s.action_discard = [c for c in everything if c not in used]
    s.initiative, s.prompts, s.stack = initiative, [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    run(ctx)


def clear_map(t) -> None:
    """Every piece back to its supply: a bare map for hand-built positions."""
    s = t.state
    n = len(s.players)
    for name, here in s.systems.items():
        for seat, ships in enumerate(here.ships):
            s.players[seat].ships += ships.total
        for b in here.buildings:
            if b.kind == "starport":
                s.players[b.owner].starports += 1
            else:
                slot = max(i for i, on in enumerate(s.players[b.owner].cities_on_board) if not on)
                s.players[b.owner].cities_on_board[slot] = True
        s.systems[name] = SystemState(ships=[Ships() for _ in range(n)])
    for p in s.players:  # resources on slots the returned cities now cover go back too
        for i, r in enumerate(p.resources):
            if r is not None and i >= 2:
                s.supply[r] += 1
                p.resources[i] = None


def put(t, system: str, seat: int, fresh: int = 0, damaged: int = 0) -> None:
    s = t.state
    here = s.systems[system]
    here.ships[seat] = Ships(fresh=here.ships[seat].fresh + fresh, damaged=here.ships[seat].damaged + damaged)
    s.players[seat].ships -= fresh + damaged


def answer(t, seat: int, type: str, **params):
    return t.act(seat, Action(type, params))


def act(t, seat: int, act: str, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def prompt_of(t, seat: int):
    found = [p for p in t.state.prompts if p.seat == seat]
    return found[0] if found else None


def placements(t, seat: int) -> list:
    """The listed answers of the seat's open resource placement (ARCS-209), [] if none."""
    from core.engine import legal_actions

    if not any(p.seat == seat and p.decision == "arcs.place_resources" for p in t.state.prompts):
        return []
    return [a for a in legal_actions(t.state, seat, t.rules) if a.type == "place_resources"]


def place_first(t, seat: int):
    """Answer the seat's open placement with its first listed answer (the leftmost empty
    slots; with no room, the new token discarded); it must be open."""
    listed = placements(t, seat)
    assert listed, f"seat {seat} has no placement to make"
    return t.act(seat, listed[0])


def place_waiting(state) -> None:
    """Pure-rules tests: every waiting token placed as its owner's first listed choice."""
    from plugins.arcs import placing
    from plugins.arcs.content import default_box

    for record in list(state.placing):
        placing.apply(state, record, next(placing.outcomes(default_box(), state, record)))


def set_slots(t, seat: int, resources: list) -> None:
    """The seat's resource slots hold exactly these (taken from / returned to the supply)."""
    s = t.state
    p = s.players[seat]
    for r in p.resources:
        if r:
            s.supply[r] += 1
    p.resources = list(resources) + [None] * (len(p.resources) - len(resources))
    for r in resources:
        if r:
            s.supply[r] -= 1


def follow(t, seat: int, card: str, kind: str) -> None:
    """Play a follower's card and, if it is asked, decline the seize."""
    answer(t, seat, "play", card=card, kind=kind)
    if prompt_of(t, seat).kind == "seize":
        answer(t, seat, "seize", card="")


def play_round(t, lead: str, follows: list[tuple[str, str]], ambition: str = "") -> None:
    """One whole round from seat 0's lead (declaring `ambition`, or nothing): seats 1, 2, ...
    follow with (card, kind), no seize, and every seat ends its turn at once."""
    answer(t, 0, "lead", card=lead)
    answer(t, 0, "declare", ambition=ambition)
    act(t, 0, "done")
    for seat, (card, kind) in enumerate(follows, start=1):
        follow(t, seat, card, kind)
        act(t, seat, "done")
