"""Act I setup of the campaign (rulebook "Act I Setup", BR-032..BR-065) as pure functions
of the two boxes, the state and the table's RNG.

Die rolls go through a passed-in `roll(die, faces) -> face` so the flow can route them
through `core.chance` (public events); the default draws from the table's RNG. Choices a
player makes (the Fate, the starting placements, the 2-player mulligan) are check+apply
pairs: a check raises a typed `ActionRejected` and changes nothing.
"""
from __future__ import annotations

from typing import Callable

from core.errors import BadParameter, IllegalAction, NotYourTurn
from core.rng import Rng
from core.seats import no_such_seat, seat_name
from plugins.arcs.content import Box
from plugins.arcs.setup import empty_slots, place_building, place_ships, take_resource
from plugins.arcs.state import Building, Marker, PlayerState, Ships, SystemState
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

Roll = Callable[[str, list], object]

COUNCIL = "AID01A"        # the Imperial Council, In Session side (BR-045)
ENVOYS = "AID02"          # Guild Envoys Depart, 2 players only (BR-046)
EVENT = "EVENT"           # an Event action card (the three are identical)
FATE_EVENTS = frozenset({"F515"})  # a Fate Set's own Event card (the Caretaker's Act II)


def is_event_card(card: str) -> bool:
    """One of the Event action cards: the box's three, or a Fate Set's (F515)."""
    return card == EVENT or card in FATE_EVENTS
# The campaign names planet ID symbols as the card library does; the base map its own way.
SYMBOLS = {"arrow": "arrow", "hex": "hexagon", "moon": "crescent"}


def rng_roll(rng: Rng) -> Roll:
    """A silent roll from the table's RNG (tests, or a setup that announces nothing)."""
    return lambda die, faces: faces[rng.below(len(faces))]


def chance_roll(ctx, why: str) -> Roll:
    """A roll through `core.chance.roll`: the same RNG, announced as a public event saying
    what it is for."""
    from core.chance import roll

    return lambda die, faces: faces[roll(ctx, None, {die: list(faces)}, [die], why=why)[0][1]]


def cluster_systems(box: Box, cluster: int) -> list[str]:
    c = next(c for c in box.map.clusters if c.id == cluster)
    return [c.gate, *(p.id for p in c.planets)]


def next_clockwise(box: Box, cluster: int) -> int:
    """The cluster after `cluster` clockwise: numbers rise clockwise, the last wraps to the first."""
    ids = [c.id for c in box.map.clusters]
    return ids[(ids.index(cluster) + 1) % len(ids)]


def action_deck(box: Box, cbox: CampaignBox, players: int) -> list[str]:
    """BR-037..BR-039: the 2-6 cards, the 1s and 7s with 4 players, and the Event cards."""
    setup = cbox.campaign.act_one
    numbers = set(setup.action_numbers) | (set(setup.four_player_numbers) if players == 4 else set())
    return [c.id for c in box.actions.cards if c.number in numbers] + [EVENT] * setup.event_cards[str(players)]


def set_up_table(box: Box, cbox: CampaignBox, state: BlightedReachState, rng: Rng, roll: Roll | None = None) -> None:
    """Table steps A-Q on a fresh state whose seats are set."""
    roll = roll or rng_roll(rng)
    setup, counts = cbox.campaign.act_one, cbox.box.counts
    n = len(state.seats)
    state.act, state.setup_card, state.out_of_play = 1, "", []  # BR-032: no setup card, every cluster in play
    state.supply = {r: box.board.supply_per_resource for r in box.board.resources}  # BR-035
    state.imperial_supply, state.blight_supply = counts["imperial_ships"], counts["blight"]
    state.free_city_supply, state.free_starport_supply = counts["free_cities"], counts["free_starports"]
    state.systems = {s: SystemState(ships=[Ships() for _ in range(n)]) for s in box.systems}
    state.initiative = rng.below(n)  # BR-036
    deck = action_deck(box, cbox, n)
    rng.shuffle(deck)
    state.action_deck = deck
    state.markers_available = [Marker(m.id) for m in box.board.ambition_markers]  # BR-040
    state.ambition_boxes = {a: [] for a in box.board.ambitions}
    state.chapter, state.declared, state.ambition_declared = 1, False, ""  # BR-041, BR-042
    court = sorted(cbox.court)  # BR-033: the CC cards only
    rng.shuffle(court)
    dealt = cbox.campaign.act_one.court_row[str(n)]  # BR-043
    row, court_deck = court[:dealt], court[dealt:]
    lore = sorted(box.lore)
    rng.shuffle(lore)
    court_deck += lore[:setup.lore_per_player * n]  # BR-034, BR-044: after the row is dealt
    state.lore_deck = lore[setup.lore_per_player * n:]
    rng.shuffle(court_deck)
    state.council = COUNCIL  # BR-045: leftmost, In Session
    state.court_row, state.court_deck = [COUNCIL, *row], court_deck
    state.court_agents = {c: [0] * n for c in state.court_row}
    stack = sorted(c.id for c in cbox.empire.cards if c.kind == "edict" and c.edict_number == 3)
    rng.shuffle(stack)  # BR-047: the top one is the Imperial Policy
    state.booklet = ([[ENVOYS]] if n == 2 else []) + [stack]  # BR-046
    number = int(roll("number", list(cbox.box.number_die)))  # BR-048
    state.imperial_clusters = [number, next_clockwise(box, number)]
    imperial = {s for c in state.imperial_clusters for s in cluster_systems(box, c)}
    for s in sorted(imperial):
        state.imperial[s] = Pieces(fresh=setup.imperial_ships_per_system)
        state.imperial_supply -= setup.imperial_ships_per_system
    symbol = str(roll("event", list(cbox.box.event_die_symbols)))  # BR-049
    state.rolls = {"number": str(number), "event": symbol}
    for cluster in box.map.clusters:
        if cluster.id in state.imperial_clusters:
            continue
        for planet in cluster.planets:
            if planet.symbol == SYMBOLS[symbol] and state.free_city_supply > 0:
                state.systems[planet.id].buildings.append(Building(kind="city", owner=FREE))
                state.free_city_supply -= 1
        for s in cluster_systems(box, cluster.id):  # BR-050
            state.blight[s] = Pieces(damaged=setup.damaged_blight_per_other_system)
            state.blight_supply -= setup.damaged_blight_per_other_system
    if n == 2:  # BR-051
        state.ambition_tokens = {a: [] for a in box.board.ambitions}
        for c in state.imperial_clusters:
            for planet in next(x for x in box.map.clusters if x.id == c).planets:
                state.ambition_tokens[setup.two_player_ambition_tokens[planet.type]].append(planet.type)
                state.supply[planet.type] -= 1


PLAYER_COLOURS = ("blue", "red", "yellow", "white")


def set_up_players(cbox: CampaignBox, state: BlightedReachState, rng: Rng) -> None:
    """Player steps A, B (the offers), E, F and the placement order of G-H."""
    n = len(state.seats)
    state.players = [PlayerState() for _ in range(n)]  # BR-052, BR-056: full supply, cities on the board, Power 0
    # BR-052: each player takes a colour. Reading: the table hands them out by seat, in the
    # campaign log's column order; the log sheet keeps each one for the later Acts (BR-355).
    state.colours = list(PLAYER_COLOURS[:n])
    a_fates = sorted(f.id for f in cbox.fates_by_letter(cbox.campaign.act_one.fate_letter))
    rng.shuffle(a_fates)
    k = cbox.campaign.act_one.fates_drawn  # BR-053
    state.fate_offers = [a_fates[i * k:(i + 1) * k] for i in range(n)]
    state.fates = [""] * n
    state.titles = ["regent"] * n  # BR-057
    state.first_regent = -1
    order = [(state.initiative + i) % n for i in range(n)]
    state.placement_order = order + order[::-1]  # BR-059, BR-061
    state.placements_done = 0


def set_up_act_one(box: Box, cbox: CampaignBox, state: BlightedReachState, rng: Rng | None = None,
                   roll: Roll | None = None) -> None:
    """Everything of Act I setup that needs no player's choice; the Fate choice, the
    starting placements and the hands follow (`choose_fate`, `place_start`, `deal_hands`)."""
    rng = rng or Rng(state)
    set_up_table(box, cbox, state, rng, roll)
    set_up_players(cbox, state, rng)


# -- the Fate choice (BR-053) -----------------------------------------------------------


def check_fate(state: BlightedReachState, seat: int, fate: str) -> None:
    if not 0 <= seat < len(state.fates):
        raise BadParameter(no_such_seat(seat, len(state.fates)))
    if state.fates[seat]:
        raise IllegalAction("you have already chosen your Fate")
    if fate not in state.fate_offers[seat]:
        raise BadParameter(f"{fate} is not one of the Fates you drew")


def choose_fate(state: BlightedReachState, seat: int, fate: str) -> None:
    """Keep one of the two drawn; the other goes back to the box. The choice stays out of
    views until everyone has chosen (`fates_revealed`)."""
    check_fate(state, seat, fate)
    state.fates[seat] = fate
    state.fate_offers[seat] = [fate]


def fates_revealed(state: BlightedReachState) -> list[str]:
    """What the table sees of the Fates: all of them once everyone chose, nothing before."""
    return list(state.fates) if all(state.fates) else [""] * len(state.fates)


def give_first_regent(state: BlightedReachState) -> None:
    """BR-058: after the Fates' setup, the initiative holder takes the tile if nobody did."""
    if state.first_regent < 0:
        state.first_regent = state.initiative


# -- starting placement (BR-059..BR-062) ------------------------------------------------


def check_placement(box: Box, state: BlightedReachState, seat: int, system: str, building: str) -> None:
    """Refuse a starting placement out of turn, at a planet without an Imperial ship, into
    a full planet or with a building the seat has no more of."""
    if not state.placement_order:
        raise IllegalAction("the starting placements are over")
    if seat != state.placement_order[0]:
        raise NotYourTurn(f"{seat_name(state.placement_order[0])} places next")
    planet = box.systems.get(system)
    if planet is None:
        raise BadParameter(f"{system} is not a planet")
    if building not in ("city", "starport"):
        raise BadParameter(f"{building} is not a building")
    if state.imperial.get(system, Pieces()).total <= 0:
        raise IllegalAction(f"{system} holds no Imperial ship")  # BR-060
    if len(state.systems[system].buildings) >= planet.slots:
        raise IllegalAction(f"{system} has no empty building slot")  # BR-060
    player = state.players[seat]
    if (building == "city" and True not in player.cities_on_board) or (building == "starport" and player.starports <= 0):
        raise IllegalAction(f"you have no {building} left to place")


def place_start(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, system: str, building: str) -> None:
    """BR-059: 3 ships and 1 building at the planet and 1 resource of its type (none if
    that supply is empty); the next seat in the two rounds' order places next."""
    check_placement(box, state, seat, system, building)
    rules = cbox.campaign.act_one.placement
    place_ships(state, system, seat, rules["ships"])
    place_building(state, system, seat, building)
    planet = box.systems[system]
    for _ in range(rules["resources"]):
        slots = empty_slots(box, state.players[seat])
        if slots:
            take_resource(box, state, seat, planet.type, slots[0])
    state.placement_order.pop(0)
    state.placements_done += 1
    if not state.placement_order:
        fill_free_cities(box, state)


def fill_free_cities(box: Box, state: BlightedReachState) -> None:
    """BR-062: every empty slot on a planet with an Imperial ship gets a Free city."""
    for system, pieces in state.imperial.items():
        planet = box.systems[system]
        if planet is None or pieces.total <= 0:
            continue
        while len(state.systems[system].buildings) < planet.slots and state.free_city_supply > 0:
            state.systems[system].buildings.append(Building(kind="city", owner=FREE))
            state.free_city_supply -= 1


# -- hands (BR-063..BR-065) -------------------------------------------------------------


def deal_hands(cbox: CampaignBox, state: BlightedReachState, rng: Rng) -> None:
    """BR-063: 6 cards each; with 2 players the seat without initiative may mulligan before
    the rest is discarded (`end_mulligan`); otherwise it is discarded now (BR-065)."""
    if state.placement_order:
        raise IllegalAction("the starting placements are not finished")
    size = cbox.campaign.act_one.hand_size
    state.hands = []
    for _ in state.seats:
        state.hands.append(state.action_deck[:size])
        state.action_deck = state.action_deck[size:]
    if len(state.seats) == 2:
        state.mulligan_open = 1 - state.initiative
    else:
        discard_rest(state, rng)


def check_mulligan(state: BlightedReachState, seat: int) -> None:
    if state.mulligan_open < 0:
        raise IllegalAction("no mulligan is open")
    if seat != state.mulligan_open:
        raise NotYourTurn("only the player without initiative may mulligan")


def mulligan(state: BlightedReachState, seat: int, rng: Rng) -> None:
    """BR-064: every non-Event card goes, as many are drawn anew; Events stay."""
    check_mulligan(state, seat)
    hand = state.hands[seat]
    kept = [c for c in hand if is_event_card(c)]
    gone = [c for c in hand if not is_event_card(c)]
    drawn, state.action_deck = state.action_deck[:len(gone)], state.action_deck[len(gone):]
    state.hands[seat] = kept + drawn
    state.action_discard += gone
    end_mulligan(state, seat, rng)


def end_mulligan(state: BlightedReachState, seat: int, rng: Rng) -> None:
    """Keep (or after the mulligan): the rest of the deck is discarded."""
    check_mulligan(state, seat)
    state.mulligan_open = -1
    discard_rest(state, rng)


def discard_rest(state: BlightedReachState, rng: Rng) -> None:
    """BR-065: every action card in no hand goes face down to the discard pile."""
    rest = [*state.action_discard, *state.action_deck]
    rng.shuffle(rest)
    state.action_discard, state.action_deck = rest, []
