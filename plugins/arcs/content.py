"""The Arcs box as data: map, setup cards, action cards, dice, player board, Court, Lore
and Leaders, with their schemas and the cross-file checks a schema cannot express.

Facts come from the rules digest (`shared/rules/arcs-base-digest.md`, the IDs in each
file's `note`) and the card library (names, suits, raid costs). Card effects are this
project's own structure: each card has `abilities`, each an `Ability` saying *when* it acts
(`Trigger`) and *what* it does (`Op`, with the fields that op reads). The rules engine
implements each op by name; a card whose effect fits no op gets a new one here, named
after what it does.

Ruling A-R1: adjacency, planet symbols, pips, raid costs and Leader layouts are data, so a
table can load a corrected box (`load_box(folder)`).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable, Generic, Literal, TypeVar

import msgspec

from core.content import load_json, require

DEFAULT_BOX = Path(__file__).parent / "content"

Resource = Literal["material", "fuel", "weapon", "relic", "psionic"]
Suit = Literal["administration", "aggression", "construction", "mobilization"]
ActionName = Literal["tax", "build", "repair", "move", "influence", "secure", "battle"]
Ambition = Literal["tycoon", "tyrant", "warlord", "keeper", "empath"]

# When an ability acts.
Trigger = Literal[
    "always",                 # a standing rule while the card is held
    "prelude",                # may be used in the holder's Prelude (card kept)
    "prelude_discard",        # in the Prelude, discard the card to do it
    "prelude_first_discard",  # as prelude_discard, before any other Prelude action
    "new_action",             # a new action, paid with a pip of `action`'s kind
    "secured",                # a Vox card's effect when secured
    "declare",                # when the holder declares an ambition
    "surpass_or_pivot",       # when the holder Surpasses or Pivots, before any action
    "battle",                 # when the holder battles (collecting dice)
    "battle_roll",            # after the holder rolls as attacker
    "defend",                 # when the holder defends in battle
    "after_attack",           # after a battle the holder attacked in
    "after_defend",           # after a battle the holder defended in
    "after_scoring",          # after chapter scoring
    "scoring",                # while an ambition is scored
    "outrage",                # when the holder Provokes Outrage
    "stolen",                 # when the card is stolen
    "move",                   # when the holder moves ships
    "rival_moves_in",         # when a Rival's ships move into a system of the holder's
    "setup",                  # during setup
    "copy_or_pivot_tax",      # when a Copy or Pivot pip is used to tax
    "copy_or_pivot_battle",   # ... to battle
    "copy_or_pivot_secure",   # ... to secure
]

# What an ability does; the fields it reads are in brackets.
Op = Literal[
    "keep_card",                       # not discarded by this Outrage
    "spend_any_as",                    # any resource may be spent as [resource]
    "prelude_despite_outrage",         # [resource]'s Prelude action ignores Outrage
    "place_ships",                     # place [count] ships [where]
    "attach_union",                    # attach to a played card of [suit]; take it at round end
    "hold_supply",                     # the supply of [resource] sits on the card (Tycoon only)
    "rivals_discard_all",              # every Rival discards all [resource]
    "steal",                           # steal [count] [resource]
    "gain",                            # gain [count] [resource]
    "gain_to_fill_slots",              # gain [resource] up to the empty slots; steal the shortfall
    "gain_each",                       # gain one of each of [resources]
    "gain_any",                        # gain [count] resource(s) of the holder's choice
    "extra_dice",                      # take [count] more dice when battling [where]
    "return_captives_for_resources",   # return Captives for one resource of choice each
    "captives_to_trophies",            # move Captives to Trophies
    "reroll",                          # reroll [die] dice, at most [limit]
    "abduct",                          # capture Rival agents from a Court card with fewer than [limit]
    "seize_initiative",
    "inspect_and_swap",                # look at a Rival's hand, may swap one card
    "redraw_from_discard_bottom",      # discard hand cards, draw as many from the discard's bottom
    "no_zero_marker",                  # declaring [ambitions] places no zero marker
    "steal_guild_or_resource",
    "steal_protection",                # Rivals cannot steal the holder's resources or other Guild cards
    "bury_self",                       # the card goes under the Court deck
    "trade",                           # at a controlled Rival city: swap a resource with its owner
    "convert",                         # discard a resource to gain [resource]; [limit]
    "declare_played",                  # declare the played card's ambition (no zero marker)
    "place_ship_each_system_of_cluster",
    "declare_any",
    "everyone_provokes_outrage",       # of a type the holder names
    "return_city_then_seize",          # return a controlled city to its board, then may seize
    "steal_guild",
    "reshuffle_court_discard_guilds",  # Guild cards in the Court discard go back into the deck
    "draw_discard_bottom",
    "build_ship_at_controlled_city",   # [limit]
    "fire_rifles",                     # [die] dice for fresh ships; hit a defender next door
    "extra_move_fresh",                # fresh moved ships may move once more
    "add_intercept_if_assault",
    "build_ships_fresh",
    "no_raid_dice_with_fresh_starport",
    "ignore_intercept_if_all_fresh",   # ignore [count] intercept
    "repair_attacking_ship",           # repair [count]
    "build_in_gates",                  # [building], one per gate
    "capture_agent_at_fresh_starport_gate",
    "build_city_off_slots",            # one per planet, paying a resource of its type
    "tax_loyal_city",
    "swap_starport_city",              # a replace
    "attacker_takes_hit_if_fresh_defender",  # [count] hit(s) before dice are collected
    "extra_resource_slot",             # one more slot with [raid_cost]
    "influence_if_trophies_taken",
    "rivals_cannot_ransack_you",
    "second_place_only",               # in [ambitions], first place earns only the second-place sum
    "start_outraged",                  # Outraged in [resources] from setup
    "discard_all_if_scored",           # discard all [resource] if [ambitions] was scored
    "tax_loyal_only_if_controlled",
    "move_at_most",                    # move at most [count] ships at a time
    "move_before_or_after",
    "influence_before_or_after",
    "give_guild_to_lowest_power",
    "agent_on_each_court_card",        # one agent on each of any number of Court cards
    "cannot_secure_guild_with_one_agent",
]

# The fields each op needs (checked on load, so a card cannot silently miss one).
OP_NEEDS: dict[str, tuple[str, ...]] = {
    "spend_any_as": ("resource",), "prelude_despite_outrage": ("resource",), "place_ships": ("count", "where"),
    "attach_union": ("suit",), "hold_supply": ("resource",), "rivals_discard_all": ("resource",),
    "steal": ("resource", "count"), "gain": ("resource", "count"), "gain_to_fill_slots": ("resource",),
    "gain_each": ("resources",), "gain_any": ("count",), "extra_dice": ("count", "where"),
    "reroll": ("die", "limit"), "abduct": ("limit",), "no_zero_marker": ("ambitions",), "convert": ("resource",),
    "fire_rifles": ("die",), "ignore_intercept_if_all_fresh": ("count",), "repair_attacking_ship": ("count",),
    "build_in_gates": ("building",), "attacker_takes_hit_if_fresh_defender": ("count",),
    "extra_resource_slot": ("raid_cost",), "second_place_only": ("ambitions",), "start_outraged": ("resources",),
    "discard_all_if_scored": ("resource", "ambitions"), "move_at_most": ("count",),
}


class Ability(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    when: Trigger
    do: Op
    name: str = ""                # a new action's or a Leader ability's name
    action: ActionName | None = None  # new_action: the kind of pip that pays for it
    resource: Resource | None = None
    resources: list[Resource] = []
    count: int = 0
    suit: Suit | None = None
    where: Literal["", "gate", "each_gate", "controlled_system", "any"] = ""
    die: Literal["", "assault", "skirmish", "raid"] = ""
    limit: Literal["", "once_per_turn", "weapon_icons", "fresh_attacking_ships"] = ""
    ambitions: list[Ambition] = []
    building: Literal["", "city", "starport"] = ""
    raid_cost: int = 0


T = TypeVar("T")


class CardFile(msgspec.Struct, Generic[T], forbid_unknown_fields=True):
    """A content file of cards: a note on its sources and the cards."""

    note: str
    cards: list[T]


SystemId = str  # "nG" for a gate, "n.i" for a planet (digest section 0)


class Planet(msgspec.Struct, forbid_unknown_fields=True):
    id: SystemId
    type: Resource
    slots: int
    symbol: Literal["arrow", "crescent", "hexagon"]


class Cluster(msgspec.Struct, forbid_unknown_fields=True):
    id: int
    gate: SystemId
    planets: list[Planet]
    path_marker: Literal["long", "short"]


class MapData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    clusters: list[Cluster]
    edges: list[tuple[SystemId, SystemId]]


class Position(msgspec.Struct, forbid_unknown_fields=True):
    a: SystemId
    b: SystemId
    c: list[SystemId]


class SetupCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    players: int
    out_of_play: list[int]
    positions: list[Position]


class ActionCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    suit: Suit
    number: int
    pips: int
    # A "7" that Surpasses seizes the initiative (ARCS-100); a game's card whose 7 does not
    # (the campaign's Faithful cards) says False.
    seven_seizes: bool = True


class ActionData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    suits: dict[Suit, list[ActionName]]
    ambition_by_number: dict[str, Ambition | Literal["any"] | None]
    four_player_only: list[int]
    cards: list[ActionCard]


class Face(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    hit: int = 0
    building_hit: int = 0
    self_hit: int = 0
    intercept: int = 0
    key: int = 0


class Die(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["assault", "skirmish", "raid"]
    faces: list[Face]


class DiceData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    per_kind: int
    dice: list[Die]


class ResourceSlot(msgspec.Struct, forbid_unknown_fields=True):
    raid_cost: int
    covered_by_city_slot: int | None


class AmbitionMarker(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    first: int
    second: int
    flipped_first: int
    flipped_second: int


class BoardData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    resources: list[Resource]
    supply_per_resource: int
    pieces_per_player: dict[Literal["ships", "starports", "cities", "agents"], int]
    resource_slots: list[ResourceSlot]
    city_slot_bonus: dict[str, int]
    ambitions: list[Ambition]
    ambition_markers: list[AmbitionMarker]
    two_player_ambition_tokens: dict[Resource, Ambition]
    power_to_win: dict[str, int]
    last_chapter: int
    hand_size: int
    court_row: dict[str, int]
    prelude_actions: dict[Resource, list[str]]


class CourtCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    # lore: a Lore card in a game whose Court holds them (the campaign); action: an action card
    # that sits in such a Court (the campaign's Faithful cards), drawn into the hand when secured
    kind: Literal["guild", "vox", "lore", "action"]
    abilities: list[Ability]
    suit: Resource | None = None      # Guild cards only
    raid_cost: int = 0                # Guild cards only
    # Vox cards only; "bury": to the bottom of the Court deck (the campaign's cards)
    after_secured: Literal["", "discard", "shuffle_into_court", "bury"] = ""


class LoreCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    abilities: list[Ability]


class StartPlacement(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    ships: int
    building: Literal["city", "starport"] | None = None


class LeaderCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    a: StartPlacement
    b: StartPlacement
    c: StartPlacement
    resources: list[Resource]
    abilities: list[Ability]


class Box(msgspec.Struct):
    """The whole box, validated: what a table's rules read."""

    map: MapData
    setups: dict[str, SetupCard]
    actions: ActionData
    dice: dict[str, Die]
    board: BoardData
    court: dict[str, CourtCard]
    lore: dict[str, LoreCard]
    leaders: dict[str, LeaderCard]
    other_cards: dict[str, list[Ability]] = {}  # a game's held cards of other kinds, by id: their abilities

    @property
    def systems(self) -> dict[SystemId, Planet | None]:
        """Every system id: a planet's data, or None for a gate."""
        out: dict[SystemId, Planet | None] = {}
        for cluster in self.map.clusters:
            out[cluster.gate] = None
            out.update((p.id, p) for p in cluster.planets)
        return out

    def cluster_of(self, system: SystemId) -> int:
        return int(system.split(".")[0].rstrip("G"))

    def action_deck(self, players: int) -> list[str]:
        """The action cards in play: 2-6 of every suit, plus the 1s and 7s with 4 players (ARCS-042)."""
        skip = () if players == 4 else tuple(self.actions.four_player_only)
        return [c.id for c in self.actions.cards if c.number not in skip]

    def ambition_tokens(self, out_of_play: list[int]) -> dict[str, list[str]]:
        """2 players: one supply token per covered planet, set on the ambition its type feeds
        (ARCS-049): {ambition: [resource, ...]}."""
        out: dict[str, list[str]] = {a: [] for a in self.board.ambitions}
        for cluster in self.map.clusters:
            if cluster.id in out_of_play:
                for planet in cluster.planets:
                    out[self.board.two_player_ambition_tokens[planet.type]].append(planet.type)
        return out


def _unique(items: list, what: str) -> dict:
    ids = [i.id for i in items]
    require(len(ids) == len(set(ids)), f"{what} ids must be unique")
    return {i.id: i for i in items}


def _check_abilities(where: str, abilities: list[Ability]) -> None:
    require(bool(abilities), f"{where}: a card needs at least one ability")
    for ab in abilities:
        for needed in OP_NEEDS.get(ab.do, ()):
            require(bool(getattr(ab, needed)), f"{where}: {ab.do} needs {needed}")
        if ab.when == "new_action":
            require(bool(ab.name) and ab.action is not None, f"{where}: a new action needs a name and the pip it uses")


def _check_map(m: MapData) -> None:
    require([c.id for c in m.clusters] == [1, 2, 3, 4, 5, 6], "the map has clusters 1-6")  # ARCS-018
    for c in m.clusters:
        require(c.gate == f"{c.id}G", f"cluster {c.id}'s gate is {c.id}G")
        require([p.id for p in c.planets] == [f"{c.id}.{i}" for i in (1, 2, 3)], f"cluster {c.id} has planets .1-.3")
        require(sorted(p.symbol for p in c.planets) == ["arrow", "crescent", "hexagon"],
                f"cluster {c.id} has one planet of each symbol")  # ARCS-031
        require(all(p.slots in (1, 2) for p in c.planets), f"cluster {c.id}: planets have 1 or 2 slots")  # ARCS-029
    systems = {c.gate for c in m.clusters} | {p.id for c in m.clusters for p in c.planets}
    seen = set()
    for a, b in m.edges:
        require(a in systems and b in systems and a != b, f"edge {a}-{b} names an unknown system")
        require(frozenset((a, b)) not in seen, f"edge {a}-{b} is listed twice")
        seen.add(frozenset((a, b)))
        if a.endswith("G") != b.endswith("G"):  # a gate borders only its own cluster's planets (ARCS-024)
            gate, planet = (a, b) if a.endswith("G") else (b, a)
            require(gate == planet.split(".")[0] + "G", f"planet {planet} cannot border another cluster's gate {gate}")


def _check_setups(cards: dict[str, SetupCard], systems: set[str]) -> None:
    for players in (2, 3, 4):  # ARCS-004, ARCS-035
        mine = [c for c in cards.values() if c.players == players]
        require(len(mine) == 4, f"4 setup cards for {players} players, not {len(mine)}")
        for c in mine:
            require(len(c.out_of_play) == (1 if players == 4 else 2), f"{c.id}: wrong number of out-of-play clusters")
            require(len(c.positions) == players, f"{c.id}: one position per player")
            for pos in c.positions:
                require(len(pos.c) == (2 if players == 2 else 1), f"{c.id}: C systems per position")
                for s in (pos.a, pos.b, *pos.c):
                    require(s in systems, f"{c.id}: unknown system {s}")
                    cluster = int(s.split(".")[0].rstrip("G"))
                    require(cluster not in c.out_of_play, f"{c.id}: {s} is out of play")  # ARCS-064


def _check_actions(a: ActionData) -> None:
    pairs = sorted((c.suit, c.number) for c in a.cards)
    require(pairs == sorted((s, n) for s in a.suits for n in range(1, 8)),
            "28 action cards: each suit once with each number 1-7")  # ARCS-003, ARCS-067
    require(sorted(a.ambition_by_number) == [str(n) for n in range(1, 8)], "an ambition entry per number 1-7")


def _check_dice(dice: dict[str, Die], per_kind: int) -> None:
    require(sorted(dice) == ["assault", "raid", "skirmish"], "three kinds of battle dice")
    require(per_kind == 6, "six dice of each kind")  # ARCS-008
    require(all(len(d.faces) == 6 for d in dice.values()), "every die has six faces")
    require(all(f.hit == 0 for f in dice["raid"].faces), "raid dice never roll a hit")


def _check_court(court: dict[str, CourtCard], resources: list[str]) -> None:
    require(sorted(court) == [f"BC{n:02d}" for n in range(1, 32)], "the Court is BC01-BC31")  # ARCS-005
    for i, card in enumerate(sorted(court.values(), key=lambda c: c.id)):
        _check_abilities(card.id, card.abilities)
        if i < 25:  # ARCS-225: five Guild cards of each suit, in blocks of five
            expected = ("material", "fuel", "weapon", "psionic", "relic")[i // 5]
            require(card.kind == "guild" and card.suit == expected, f"{card.id} is a {expected} Guild card")
            require(card.raid_cost > 0 and not card.after_secured, f"{card.id}: a Guild card has a raid cost")
        else:
            require(card.kind == "vox" and card.suit is None and card.raid_cost == 0 and card.after_secured,
                    f"{card.id} is a Vox card: no suit, no raid cost, disposed of after securing")
            require(all(ab.when == "secured" for ab in card.abilities), f"{card.id}: Vox cards act when secured")


def load_box(folder: Path = DEFAULT_BOX) -> Box:
    """Load and check a box folder; raise `ContentError` naming the first problem."""
    m = load_json(folder / "map.json", MapData)
    _check_map(m)
    setups = _unique(load_json(folder / "setup.json", CardFile[SetupCard]).cards, "setup card")
    systems = {c.gate for c in m.clusters} | {p.id for c in m.clusters for p in c.planets}
    _check_setups(setups, systems)
    actions = load_json(folder / "actions.json", ActionData)
    _check_actions(actions)
    dice_data = load_json(folder / "dice.json", DiceData)
    dice = {d.kind: d for d in dice_data.dice}
    _check_dice(dice, dice_data.per_kind)
    board = load_json(folder / "board.json", BoardData)
    require(len(board.resource_slots) == 6, "a player board has 6 resource slots")  # ARCS-013
    require(sorted(board.resources) == sorted(("material", "fuel", "weapon", "relic", "psionic")), "five resources")
    court = _unique(load_json(folder / "court.json", CardFile[CourtCard]).cards, "court card")
    _check_court(court, board.resources)
    lore = _unique(load_json(folder / "lore.json", CardFile[LoreCard]).cards, "lore card")
    require(sorted(lore) == [f"L{n:02d}" for n in range(1, 15)], "the base Lore is L01-L14")  # ARCS-006
    leaders = _unique(load_json(folder / "leaders.json", CardFile[LeaderCard]).cards, "leader")
    require(sorted(leaders) == [f"LEAD{n:02d}" for n in range(1, 9)], "the base Leaders are LEAD01-LEAD08")
    for card in (*lore.values(), *leaders.values()):
        _check_abilities(card.id, card.abilities)
    for leader in leaders.values():
        require(len(leader.resources) == 2, f"{leader.id}: a Leader gives two starting resources")
    return Box(map=m, setups=setups, actions=actions, dice=dice, board=board, court=court, lore=lore, leaders=leaders)


@lru_cache(maxsize=4)
def default_box() -> Box:
    return load_box(DEFAULT_BOX)


# A game built on these rules (the campaign) plays with a box of its own: its Court, its
# action deck. The flow asks `box_for(state)` so the same rules read the right cards.
_GAME_BOXES: dict[str, Callable[[], Box]] = {}


def register_box(game: str, loader: Callable[[], Box]) -> None:
    """Make `loader()` the box of `game`'s tables (the base box otherwise)."""
    _GAME_BOXES[game] = loader


def box_for(state) -> Box:
    """The box this table plays with."""
    loader = _GAME_BOXES.get(state.game)
    return loader() if loader is not None else default_box()
