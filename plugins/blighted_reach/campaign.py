"""The campaign log sheet: everything a campaign keeps from one act to the next (rulebook
"Packing Up", BR-353..BR-360), as one JSON-safe document.

After an Intermission the table is packed into a `LogSheet` (`pack_up`); the next act is set
up from it (`later_acts.set_up_later_act`), whether the players go on at once or weeks later,
so "the same as the previous act" (BR-066) means exactly what the sheet holds. What it does
not hold starts afresh: the round, the chapter, ambition markers, hands, the Court row.

Other areas whose state outlasts an act name their fields in `CARRIED_FIELDS`; the sheet
keeps them as builtins under `extra` and puts them back with their declared types.
"""
from __future__ import annotations

from typing import Any, Literal

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import no_such_seat
from plugins.arcs.content import Box
from plugins.arcs.state import PlayerState, SystemState
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.council import IN_SESSION
from plugins.blighted_reach.fate_steps import unplayed
from plugins.blighted_reach.objectives import completed, current_objective
from plugins.blighted_reach.state import ActRecord, BlightedReachState, Pieces
from plugins.flagships.state import KEY as FLAGSHIPS

# Fields of BlightedReachState other areas keep between acts (beyond those the sheet names);
# each is packed as builtins and restored with its declared type.
CARRIED_FIELDS: list[str] = [
    "golems", "ideal_supply", "doctrine", "ideals_recorded",  # the Caretaker's Golems, the Believer's Faith
    "witness_psionic",  # the Pacifist's Witnesses turned Psionic stay in the supply (F1404)
    "scrapped_ships",  # the Blight Speaker's 2 scrapped ships never come back (F1301)
    "portal",  # the Pathfinder's Portal token stays on the map into Act III (F904)
    # the Planet Breaker's tokens on the map, the buildings on Breaking Worlds and the cards
    # under it or in the supply (F1110, F1112)
    "hammer_whole", "fragments_repaired", "hammer", "broken_worlds", "worlds_buildings", "hammer_tucked",
    "worlds_supply",
    "banners", "banner_set", "banners_scrapped", "banners_on_worlds",  # the Hegemon's Banners stay into Act III (F1005)
    "fief_seats", "seats_scrapped",  # the Warden's Seats stay on the map into Act III (F1611)
]


def size_lists(state: BlightedReachState) -> None:
    """One entry per seat in every per-seat list the between-acts rules write."""
    n = len(state.seats)
    for name, empty in (("act_log", list), ("objective_markers", lambda: -1), ("fate_results", str),
                        ("fate_picks", str), ("colours", str), ("play_area", list), ("favors", list)):
        values = getattr(state, name)
        while len(values) < n:
            values.append(empty())


class PlayerLog(msgspec.Struct, kw_only=True):
    """One player's line of the log and play area (BR-355, BR-358)."""

    seat: int
    name: str
    colour: str
    fate: str                          # the Fate to play next (or played last, once finished)
    objective_marker: int              # its progress: the marker's space, -1 off the track
    title: Literal["regent", "outlaw"]
    board: PlayerState                 # Power, Outrage, resources, cities, supplies, Guild cards, lore
    play_area: list[str]               # other Fate Set cards in play (titles, abilities...)
    favors: list[int]                  # the owners of the Rival agents on the Fate card
    fate_set: list[str]                # for the record: the Fate Set's cards not in play (a restore
                                       # finds them again as the cards no place holds)
    acts: list[ActRecord]              # one line per act played

    @property
    def power(self) -> int:
        return self.board.power

    @property
    def outrage(self) -> list[str]:
        return self.board.outrage


class LogSheet(msgspec.Struct, kw_only=True):
    """The whole campaign between two acts (BR-354): the map and supplies as the Intermission
    left them, every play area, the Court deck, the booklet and what was scrapped."""

    act: int                           # the act last played
    finished: bool                     # the campaign is over
    winner: int = -1
    players: list[PlayerLog]
    first_regent: int
    initiative: int
    systems: dict[str, SystemState]    # per planet and gate (BR-357)
    imperial: dict[str, Pieces]
    blight: dict[str, Pieces]
    supply: dict[str, int]
    imperial_supply: int
    blight_supply: int
    free_city_supply: int
    free_starport_supply: int
    free_proxies: dict[str, int] = {}  # Free buildings standing in for an empty supply (BR-182)
    trust: list[str] = []              # the Imperial Trust (empty after an Intermission)
    court_deck: list[str]
    lore_deck: list[str]
    booklet: list[list[str]]           # BR-359: the booklet's cards stay
    scrapped: list[str]
    action_cards: list[str]            # every action card the next act deals from
    extra: dict[str, Any] = {}


def record_act(state: BlightedReachState) -> None:
    """Write each player's line for the act just played: its Fate, how the objective went,
    Power and Outrage now. Reading: the line is written when the sheet would be (after the
    Intermission, or at the campaign's end), so its Power is what the next act starts with."""
    size_lists(state)
    for seat, player in enumerate(state.players):
        state.act_log[seat].append(ActRecord(
            act=state.act, fate=state.fates[seat], result=state.fate_results[seat] or "",
            power=player.power, outrage=list(player.outrage)))


def end_campaign(cbox: CampaignBox, state: BlightedReachState, winner: int) -> None:
    """The campaign is won (`objectives.campaign_winner`): Act III's log line, the winner,
    the table finished. A final objective failed costs nothing (BR-111)."""
    if state.finished:
        raise IllegalAction("the campaign is already over")
    if not 0 <= winner < len(state.players):
        raise BadParameter(no_such_seat(winner, len(state.players)))
    size_lists(state)
    for seat in range(len(state.players)):
        objective = current_objective(cbox, state, seat)
        final = objective is not None and objective.kind == "final"
        state.fate_results[seat] = "completed" if final and completed(state, seat) else ""
    record_act(state)
    state.winner = winner
    state.finished = True


def action_cards(state: BlightedReachState) -> list[str]:
    """Every action card still in the campaign, wherever the act left it: Act I's deck, the
    Fates' additions, less any scrapped. Reading: once an act is over no card is on the
    table (the last round ended), so the deck, the discard piles and the hands hold them all."""
    return sorted([*state.action_deck, *state.action_discard, *state.action_discard_up,
                   *(c for hand in state.hands for c in hand)])


def check_pack_up(cbox: CampaignBox, state: BlightedReachState) -> None:
    """A table packs up after its Intermission, or once the campaign has a winner (every
    Act's table ends, `state.finished`; only the campaign's end sets `winner`)."""
    if state.winner >= 0:
        return
    steps = list(cbox.campaign.intermission_steps)
    if state.act not in cbox.campaign.intermission_after_acts or state.intermission_done != steps:
        raise IllegalAction("pack up after the Intermission, or once the campaign is over")


def pack_up(box: Box, cbox: CampaignBox, state: BlightedReachState) -> LogSheet:
    """BR-354, BR-355: the table as the log sheet and trays keep it."""
    check_pack_up(cbox, state)
    size_lists(state)
    copy = msgspec.structs.replace
    players = [PlayerLog(
        seat=seat, name=state.seats[seat].name, colour=state.colours[seat], fate=state.fates[seat],
        objective_marker=state.objective_markers[seat], title=state.titles[seat],
        board=msgspec.convert(msgspec.to_builtins(p), PlayerState), play_area=list(state.play_area[seat]),
        favors=list(state.favors[seat]), fate_set=unplayed(cbox, state, state.fates[seat]),
        acts=[copy(r) for r in state.act_log[seat]])
        for seat, p in enumerate(state.players)]
    systems = msgspec.convert(msgspec.to_builtins(state.systems), dict[str, SystemState])
    return LogSheet(
        act=state.act, finished=state.winner >= 0, winner=state.winner, players=players,
        first_regent=state.first_regent, initiative=state.initiative, systems=systems,
        imperial={s: copy(p) for s, p in state.imperial.items()},
        blight={s: copy(p) for s, p in state.blight.items()}, supply=packed_supply(state),
        imperial_supply=state.imperial_supply, blight_supply=state.blight_supply,
        free_city_supply=state.free_city_supply, free_starport_supply=state.free_starport_supply,
        free_proxies=dict(state.free_proxies), trust=list(state.trust),
        court_deck=list(state.court_deck), lore_deck=list(state.lore_deck),
        booklet=[list(slot) for slot in state.booklet], scrapped=list(state.scrapped),
        action_cards=action_cards(state),
        extra={**{name: msgspec.to_builtins(getattr(state, name)) for name in CARRIED_FIELDS},
               **carried_flagships(state)})


def packed_supply(state: BlightedReachState) -> dict[str, int]:
    """The supply as the tray keeps it: resources still on a card (the cards keep none between
    Acts; the Intermission clears them, BR-337) go back to it, so no token is lost."""
    supply = dict(state.supply)
    for resources in state.card_resources.values():
        for resource in resources:
            supply[resource] = supply.get(resource, 0) + 1
    return supply


def carried_flagships(state: BlightedReachState) -> dict:
    """BR-356: the sheet keeps each Flagship, its piece's system and its board's Upgrades and
    Armor (the log's "CS"), so the next act has it again (BR-352: a Fate change keeps it).
    Nothing is written where nobody has one."""
    found = state.module_state.get(FLAGSHIPS)
    return {FLAGSHIPS: msgspec.to_builtins(found)} if found else {}


def to_json(log: LogSheet) -> dict:
    """The sheet as plain JSON values (what a table stores)."""
    return msgspec.to_builtins(log)


def from_json(data: dict) -> LogSheet:
    """A stored sheet, validated; a malformed one raises `BadParameter`."""
    try:
        return msgspec.convert(data, LogSheet, strict=False)
    except msgspec.ValidationError as e:
        raise BadParameter(f"not a campaign log sheet: {e}") from None


def restore(state: BlightedReachState, log: LogSheet) -> None:
    """BR-066: the next act's table starts as the sheet left the campaign (seats and RNG are
    the new table's own). The act number moves on; the rest starts fresh."""
    if len(state.seats) != len(log.players):
        raise BadParameter(f"the log sheet has {len(log.players)} players, the table {len(state.seats)}")
    if log.finished:
        raise IllegalAction("the campaign is over")
    fresh = lambda value, kind: msgspec.convert(msgspec.to_builtins(value), kind)  # noqa: E731
    ordered = sorted(log.players, key=lambda p: p.seat)
    state.act = log.act + 1
    state.players = [fresh(p.board, PlayerState) for p in ordered]
    state.fates = [p.fate for p in ordered]
    state.fate_offers = [[p.fate] for p in ordered]
    state.titles = [p.title for p in ordered]
    state.colours = [p.colour for p in ordered]
    state.objective_markers = [p.objective_marker for p in ordered]
    state.play_area = [list(p.play_area) for p in ordered]
    state.favors = [list(p.favors) for p in ordered]
    state.act_log = [fresh(p.acts, list[ActRecord]) for p in ordered]
    state.fate_results, state.fate_picks = [""] * len(ordered), [""] * len(ordered)
    state.first_regent, state.initiative = log.first_regent, log.initiative
    state.systems = fresh(log.systems, dict[str, SystemState])
    state.imperial, state.blight = fresh(log.imperial, dict[str, Pieces]), fresh(log.blight, dict[str, Pieces])
    state.supply = dict(log.supply)
    state.imperial_supply, state.blight_supply = log.imperial_supply, log.blight_supply
    state.free_city_supply, state.free_starport_supply = log.free_city_supply, log.free_starport_supply
    state.free_proxies, state.trust = dict(log.free_proxies), list(log.trust)
    state.council, state.court_row = IN_SESSION, [IN_SESSION]  # the Council is never scrapped
    state.court_agents = {IN_SESSION: [0] * len(ordered)}
    state.court_deck, state.lore_deck = list(log.court_deck), list(log.lore_deck)
    state.booklet = [list(slot) for slot in log.booklet]
    state.scrapped = list(log.scrapped)
    state.action_deck, state.action_discard = list(log.action_cards), []
    state.setup_card, state.out_of_play = "", []
    state.intermission_done, state.elimination_pending = [], []
    types = {f.name: f.type for f in msgspec.structs.fields(BlightedReachState)}
    for name in CARRIED_FIELDS:
        if name in log.extra:
            setattr(state, name, msgspec.convert(log.extra[name], types[name]))
    if FLAGSHIPS in log.extra:
        state.module_state = {**state.module_state, FLAGSHIPS: msgspec.to_builtins(log.extra[FLAGSHIPS])}
