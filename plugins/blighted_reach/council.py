"""The Imperial Council (BR-161..BR-176): a Court card with two sides, In Session (AID01A)
and Decided (AID01B). In Session it is influenced and secured like any Court card; securing
flips it to Decided and tucks it under the securer's play until the round ends. Then it
returns to the Court, Decided side up, and its securer resolves four steps, in this order
(the flow calls them):

    seat = return_council(state)                        # BR-165, at round end
    1. the Summit module: `seat` may call a Summit      # BR-166 (their choice, not initiative's)
    2./3. council_title_step(state) -> "first_regent" | "steal"   # titles as after the Summit, BR-170
       "first_regent": become_first_regent(state, seat)            # BR-167
       "steal": options_council_theft / check_council_theft / apply_council_theft  # BR-168
    4. options_council_event / check_council_event / apply_council_event -> "crises" | "edicts"

`state.council` is the side showing, and the Court row names the card by that side's id.
`state.council_secured_by` is the securer from the secure until step 4 is chosen: while it
is set, Event cards played this round give way to the Council (`council_overrides_events`).
"""
from __future__ import annotations

from collections import Counter
from itertools import product

from core.errors import BadParameter, IllegalAction, NotYourTurn
from core.seats import seat_name
from plugins.arcs import actions as arcs_actions
from plugins.arcs.content import Box
from plugins.arcs.outrage import agent_returns
from plugins.arcs.placing import receive
from plugins.arcs.setup import empty_slots
from plugins.arcs.state import Trophy
from plugins.blighted_reach.board import is_outlaw, is_regent
from plugins.blighted_reach.state import BlightedReachState

IN_SESSION = "AID01A"
DECIDED = "AID01B"
EVENTS = ("crises", "edicts")


def is_council(card: str) -> bool:
    return card in (IN_SESSION, DECIDED)


def check_removable(card: str) -> None:
    """BR-163: the Council is never buried, scrapped or discarded; rules that remove Court
    cards call this first."""
    if is_council(card):
        raise IllegalAction("the Imperial Council cannot be buried, scrapped or discarded")


def is_tucked(state: BlightedReachState) -> bool:
    """Secured this round and not yet back in the Court."""
    return state.council_secured_by >= 0 and state.council not in state.court_row


def council_overrides_events(state: BlightedReachState) -> bool:
    """An Event card played in a round the Council was secured does nothing at round end:
    the Council resolves instead."""
    return state.council_secured_by >= 0


# -- influence and secure (BR-162, BR-164, BR-172, BR-175) ------------------------------


def _closed(card: str, state: BlightedReachState) -> None:
    if is_council(card) and state.council == DECIDED:
        raise IllegalAction("the Imperial Council is Decided: nobody may influence or secure it")


def check_influence(state: BlightedReachState, seat: int, card: str) -> None:
    """Influence on the campaign Court: the base rules, and never the Decided Council."""
    _closed(card, state)
    arcs_actions.check_influence(state, seat, card)


def influence(state: BlightedReachState, seat: int, card: str) -> None:
    check_influence(state, seat, card)
    arcs_actions.do_influence(state, seat, card)


def check_secure(state: BlightedReachState, seat: int, card: str) -> None:
    _closed(card, state)
    arcs_actions.check_secure(state, seat, card)


def secure_council(state: BlightedReachState, seat: int) -> None:
    """Secure the In Session Council: the securer's agents go home, Rival agents become their
    Captives (as for any Court card), the card flips to Decided and leaves the row, tucked
    under the securer's play, and its place is refilled from the Court deck.
    # Reading: the emptied place is refilled at once like any secured card's (ARCS-166);
    # the Council comes back as an extra card at the round's end."""
    check_secure(state, seat, IN_SESSION)
    take_secured_council(state, seat)


def take_secured_council(state: BlightedReachState, seat: int) -> None:
    """The flow's take of the Council for a secure already allowed: the majority (ARCS-162)
    is checked when the secure is chosen, and what resolves before the take may change the
    agents on it. An attached Armistice (F216, BR-315) first moves every agent from it, the
    securer's too, onto other Court cards, so checking again would refuse a legal secure.
    The Decided side stays closed (BR-172)."""
    _closed(IN_SESSION, state)
    if IN_SESSION not in state.court_row:
        raise IllegalAction("the Imperial Council is not in the Court")
    _take(state, seat, rivals_to="captives")


def ransack_council(state: BlightedReachState, seat: int) -> None:
    """Ransack (ARCS-196) takes the Council like a secure, without the majority: Rival
    agents on it become the ransacker's Trophies; then it is tucked as when secured."""
    _closed(IN_SESSION, state)
    if IN_SESSION not in state.court_row:
        raise IllegalAction("the Imperial Council is not in the Court")
    _take(state, seat, rivals_to="trophies")


def _take(state: BlightedReachState, seat: int, rivals_to: str) -> None:
    agents = state.court_agents.pop(IN_SESSION)
    for owner, n in enumerate(agents):
        if owner == seat:
            agent_returns(state, seat, n)
        elif rivals_to == "captives":
            state.players[seat].captives.extend([owner] * n)
        else:
            state.players[seat].trophies.extend([Trophy(owner=owner, kind="agent")] * n)
    place = state.court_row.index(IN_SESSION)
    state.court_row[place] = ""
    arcs_actions.refill_court(state, place)
    state.council = DECIDED
    state.council_secured_by = seat


def flip_council(state: BlightedReachState, side: str) -> bool:
    """Turn the Council to `side` where it lies in the Court, agents staying on it (a Summit's
    Petition, Council Intrigue, a new Act). Returns whether anything changed.
    # Reading: a tucked Council cannot be flipped: it returns Decided whatever happened."""
    if not is_council(side):
        raise BadParameter(f"{side} is not a side of the Imperial Council")
    if is_tucked(state) or state.council == side:
        return False
    if state.council in state.court_row:
        place = state.court_row.index(state.council)
        state.court_row[place] = side
        state.court_agents[side] = state.court_agents.pop(state.council, [0] * len(state.players))
    state.council = side
    return True


def start_act(state: BlightedReachState) -> None:
    """BR-161, BR-173: each Act starts with the Council In Session."""
    state.council_secured_by = -1
    flip_council(state, IN_SESSION)


# -- at the round's end (BR-165..BR-171, BR-176) ----------------------------------------


def return_council(state: BlightedReachState) -> int:
    """The tucked Council goes back to the Court as its leftmost card, Decided side up.
    Returns the seat that now resolves it."""
    if not is_tucked(state):
        raise IllegalAction("the Imperial Council was not secured this round")
    state.council = DECIDED
    state.court_row.insert(0, DECIDED)
    state.court_agents[DECIDED] = [0] * len(state.players)
    return state.council_secured_by


def _securer(state: BlightedReachState, seat: int) -> None:
    if state.council_secured_by < 0 or is_tucked(state):
        raise IllegalAction("no returned Imperial Council is being resolved")
    if seat != state.council_secured_by:
        raise NotYourTurn(f"{seat_name(state.council_secured_by)} secured the Council and resolves it")


def council_title_step(state: BlightedReachState) -> str:
    """Steps 2 and 3 read the securer's title now, after any Summit of step 1 (BR-170)."""
    seat = state.council_secured_by
    _securer(state, seat)
    return "first_regent" if is_regent(state, seat) else "steal"


def become_first_regent(state: BlightedReachState, seat: int) -> None:
    """Step 2 (BR-167): the Regent takes the First Regent tile; the Trust lies on the tile,
    so it changes hands with it."""
    _securer(state, seat)
    if not is_regent(state, seat):
        raise IllegalAction("only a Regent becomes First Regent")
    state.first_regent = seat


def theft_limit(box: Box, state: BlightedReachState, seat: int) -> int:
    return len(empty_slots(box, state.players[seat]))


def options_council_theft(box: Box, state: BlightedReachState, seat: int) -> list[dict]:
    """Step 3 (BR-168): what the Outlaw may steal from the Trust, at most one per empty slot
    of theirs, fewest first (none at all is a choice: the rule says "up to")."""
    if not is_outlaw(state, seat):
        return []
    limit = theft_limit(box, state, seat)
    held = sorted(Counter(state.trust).items())
    kinds = [k for k, _ in held]
    out = []
    for counts in product(*(range(n + 1) for _, n in held)):
        if sum(counts) <= limit:
            out.append([k for k, c in zip(kinds, counts) for _ in range(c)])
    return [{"resources": r} for r in sorted(out, key=lambda r: (len(r), r))]


def check_council_theft(box: Box, state: BlightedReachState, seat: int, choice: dict) -> None:
    _securer(state, seat)
    if not is_outlaw(state, seat):
        raise IllegalAction("only an Outlaw steals from the Imperial Trust")
    if set(choice) != {"resources"} or not isinstance(choice["resources"], list):
        raise BadParameter("choose {'resources': [...]}")
    wanted = Counter(choice["resources"])
    if wanted - Counter(state.trust):
        raise IllegalAction("the Imperial Trust does not hold all of those")
    if sum(wanted.values()) > theft_limit(box, state, seat):
        raise IllegalAction(f"you may steal at most {theft_limit(box, state, seat)} (your empty resource slots)")


def apply_council_theft(box: Box, state: BlightedReachState, seat: int, choice: dict) -> int:
    """The stolen resources come to the Outlaw to place; whoever holds the First Regent tile
    loses 1 Power for each. Returns the Power lost.
    # Reading: Power may go below 0 (Arcs has a second Power marker for that)."""
    check_council_theft(box, state, seat, choice)
    for resource in choice["resources"]:
        state.trust.remove(resource)
        receive(state, seat, resource)
    lost = len(choice["resources"])
    if lost:
        state.players[state.first_regent].power -= lost
    return lost


def options_council_event(state: BlightedReachState) -> list[dict]:
    """Step 4 (BR-169): the securer chooses; no die is rolled."""
    return [{"resolve": e} for e in EVENTS] if state.council_secured_by >= 0 else []


def check_council_event(state: BlightedReachState, seat: int, choice: dict) -> None:
    _securer(state, seat)
    if set(choice) != {"resolve"}:
        raise BadParameter("choose {'resolve': 'crises' | 'edicts'}")
    if choice["resolve"] not in EVENTS:
        raise IllegalAction("resolve either the Crises or the Edicts")


def apply_council_event(state: BlightedReachState, seat: int, choice: dict) -> str:
    """Closes the Council's resolution and names what the flow resolves next."""
    check_council_event(state, seat, choice)
    state.council_secured_by = -1
    return choice["resolve"]
