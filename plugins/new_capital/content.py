"""The New Capital content pack: card and board data, its schema and its checks.

Facts the rulebook gives (counts, the ten starting cards, structure types and tiers,
scenario seal targets) are checked here; card faces the rulebook does not give are the
project's demo cards, marked `"demo": true` in the data (ruling QNC-R5).

Effects are a small declarative vocabulary (`Effect.op`); conditions are `Cond`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import msgspec

from core.content import load_json, require
from core.errors import ContentError

TRACKS = ("influence", "might", "morale", "wealth")
STRUCTURE_TYPES = ("settlement", "commerce", "port", "academy", "barracks")
CARD_KINDS = ("improvement", "warfare", "political")
LEADER_TYPES = ("score", "development", "crisis")
BASIC_NAMES = (
    "Research", "Recruit", "Build", "Administrate", "Mobilize Army",
    "Raise Morale", "Elite Deploy", "Intimidate", "Send Envoy", "Bribe",
)
DEFAULT_PACK = Path(__file__).parent / "content"
DEMO_PACK = "demo"  # the built-in pack's registered name

EffectOp = Literal[
    "attr",            # n points on `track` (a track of the player's choice when track is "any")
    "reserve",         # gain `power` / `control` reserve tokens
    "upgrade",         # gain an Upgrade token and place it
    "extra_action",    # gain `n` Extra Action tokens
    "hunger",          # take a Hunger card (a Rebellion token when the Hunger deck is empty)
    "rebellion",       # take a Rebellion token
    "remove_rebellion",
    "draw",            # draw `n` cards
    "burn",            # burn a hand card or the top discard card (never Hunger)
    "feather",         # one more free board action this round
    "diplomacy",       # move an unlocked diplomacy cube one space either way
    "research", "recruit", "build", "administrate", "scout", "resupply",
    "choice",          # connecting symbol: do one of `options` (each a list of effects)
]


class Effect(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    op: EffectOp
    n: int = 1
    track: str = ""
    power: int = 0
    control: int = 0
    options: list[list["Effect"]] = []


class Cond(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A condition; every field that is set must hold."""

    columns_at_least: int | None = None
    leaders_at_least: int | None = None
    has_structure_type: str | None = None
    faction_cards_at_least: dict[str, int] | None = None  # {faction: n} structures+leaders
    favored_any: bool | None = None
    in_diplomacy: bool | None = None
    no_rebellion: bool | None = None
    reserve_at_least: int | None = None  # power + control tokens held
    tier3_owned: bool | None = None


class Modifier(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A rule change a module puts in force for a while (an active Guildmaster, a lasting
    Dilemma outcome). The game applies every modifier in force at its extension points:

    - `first_play`: the first card each player plays this round whose name or kind is
      `match` also gives `effects` (QNC-214: "1st" is each player's first);
    - `block_board`: the board action `match` cannot be chosen;
    - `block_effect`: effects with op `match` do nothing (never crisis rewards or track
      bonuses: QNC-251/252);
    - `crisis_need`: the `crisis` (warfare/political/any) needs `delta` more (never below 1);
    - `crisis_add`: every player adds `add` to their total in the `crisis`;
    - `on_active`: every player, in turn order, gains `effects` when it comes into force.
    """

    kind: Literal["first_play", "block_board", "block_effect", "crisis_need", "crisis_add", "on_active"]
    match: str = ""
    crisis: str = ""
    delta: int = 0
    add: int = 0
    effects: list[Effect] = []


class Bonus(msgspec.Struct, forbid_unknown_fields=True):
    """An action card's lower row: applies only if `when` holds."""

    when: Cond
    effects: list[Effect]


class ActionCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    kind: Literal["improvement", "warfare", "political"]
    basic: bool = False
    effects: list[Effect] = []
    bonus: Bonus | None = None
    power: int = 0
    control: int = 0
    reserve_power: int = 0
    reserve_control: int = 0
    bribe: bool = False
    demo: bool = True
    text: str = ""


class Structure(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    tier: int
    type: str
    faction: str
    attributes: dict[str, int]
    draft: bool = False
    demo: bool = True


class Ability(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A leader's ability.

    trigger: `score` (Score phase, if `when` holds), `play` (owner plays an action card whose
    name or kind equals `match`), `crisis_total` (adds `add` to the owner's total in the
    `match` crisis), `crisis_reward` / `crisis_penalty` (owner gains `effects` when they win
    the reward of / take the penalty of the `match` crisis, or either when `match` is "any").
    """

    trigger: Literal["score", "play", "crisis_total", "crisis_reward", "crisis_penalty"]
    match: str = ""
    when: Cond | None = None
    effects: list[Effect] = []
    add: int = 0


class Leader(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    faction: str
    type: Literal["score", "development", "crisis"]
    ability: Ability
    alignment: list[Effect] = []
    draft: bool = False
    hero: bool = False
    demo: bool = True
    text: str = ""


class Challenge(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    mode: Literal["individual", "group"]
    penalty: Literal["hunger", "rebellion"]
    reward: list[Effect]
    value: int = 0                       # individual challenges
    values: dict[str, int] = {}          # group challenges: {"2": x, "3": y, "4": z}


class Crisis(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    level: int
    warfare: Challenge
    political: Challenge
    demo: bool = True


class HungerCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    support: list[Effect]
    demo: bool = True


class Honorary(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Honorary Seal objective (ruling QNC-R2, data)."""

    kind: Literal["tier3", "rewards", "leaders", "reserves"]
    n: int = 0
    power: int = 0
    control: int = 0


class Scenario(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    seals: int
    honorary: Honorary
    alert: list[Effect]
    solo_end_round: int = 6
    demo_values: bool = True


class Faction(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    track: int      # 0 or 1
    end: int        # -1 or +1: which end of the track is this faction's Favored space
    action: list[Effect]
    demo: bool = True


class Board(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    factions: list[Faction]
    diplomacy_action: list[Effect]
    track_bonus: dict[str, list[Effect]]
    seal_slots: list[bool]        # True where the slot shows an Alert symbol
    scenarios: list[Scenario]
    starting_deck: list[str]      # ids of the 10 basic cards
    supply: dict[str, int]        # token counts in the box; unlimited in play (ruling G-2)
    favored_at: int = 5
    track_max: int = 5
    solo_die: list[int] = msgspec.field(default_factory=lambda: [-1, 0, 1, 2, 3, 4])  # QNC-015: its faces
    demo: bool = True


class Pack(msgspec.Struct):
    """A whole validated content pack, with indexes by id."""

    board: Board
    actions: dict[str, ActionCard]
    structures: dict[str, Structure]
    leaders: dict[str, Leader]
    crises: dict[str, Crisis]
    hunger: dict[str, HungerCard]

    def card_kind(self, card_id: str) -> str:
        """Which catalogue a card id belongs to (player card ids carry a `seat:` prefix)."""
        base = base_id(card_id)
        for name in ("actions", "structures", "leaders", "crises", "hunger"):
            if base in getattr(self, name):
                return name
        raise KeyError(card_id)

    def action(self, card_id: str) -> ActionCard:
        return self.actions[base_id(card_id)]

    def faction(self, fid: str) -> Faction:
        for f in self.board.factions:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def scenario(self, sid: str) -> Scenario:
        for s in self.board.scenarios:
            if s.id == sid:
                return s
        raise KeyError(sid)


def base_id(card_id: str) -> str:
    """`"2:B-BUILD"` -> `"B-BUILD"`: basic cards are per-seat instances of one template."""
    return card_id.split(":", 1)[-1]


# What a Warfare/Political card may do when revealed: hands are already discarded then,
# so drawing, burning or a board action would make no sense.
REVEAL_OPS = {"attr", "reserve", "extra_action", "upgrade", "remove_rebellion", "diplomacy", "choice", "hunger", "rebellion"}


def _ops(effects: list[Effect]) -> set[str]:
    out = set()
    for e in effects:
        out.add(e.op)
        for opt in e.options:
            out |= _ops(opt)
    return out


def _index(items, what: str) -> dict:
    out = {}
    for item in items:
        if item.id in out:
            raise ContentError(f"duplicate {what} id {item.id!r}")
        out[item.id] = item
    return out


def _check_effects(effects: list[Effect], where: str, pack_factions: set[str]) -> None:
    for e in effects:
        if e.op == "attr":
            require(e.track in TRACKS or e.track == "any", f"{where}: attr effect needs a track, not {e.track!r}")
        if e.op == "choice":
            require(len(e.options) >= 2, f"{where}: a choice needs at least two options")
            for opt in e.options:
                _check_effects(opt, where, pack_factions)


def _check_cond(c: Cond | None, where: str, factions: set[str]) -> None:
    if c is None:
        return
    if c.has_structure_type is not None:
        require(c.has_structure_type in STRUCTURE_TYPES, f"{where}: unknown structure type {c.has_structure_type!r}")
    for f in (c.faction_cards_at_least or {}):
        require(f in factions, f"{where}: unknown faction {f!r}")


def load_pack(folder: Path) -> Pack:
    """Load and validate a pack folder; raise `ContentError` on the first problem."""
    board = load_json(folder / "board.json", Board)
    actions = _index(load_json(folder / "actions.json", list[ActionCard]), "action card")
    structures = _index(load_json(folder / "structures.json", list[Structure]), "structure")
    leaders = _index(load_json(folder / "leaders.json", list[Leader]), "leader")
    crises = _index(load_json(folder / "crises.json", list[Crisis]), "crisis")
    hunger = _index(load_json(folder / "hunger.json", list[HungerCard]), "hunger card")
    all_ids = [*actions, *structures, *leaders, *crises, *hunger]
    require(len(all_ids) == len(set(all_ids)), "card ids must be unique across the whole pack")
    require(all(":" not in i for i in all_ids), "card ids may not contain ':'")

    factions = {f.id for f in board.factions}
    require(len(board.factions) == 4, "there are 4 factions")
    require(len(board.solo_die) >= 2, "the solo die needs at least two faces")
    for track in (0, 1):
        ends = sorted(f.end for f in board.factions if f.track == track)
        require(ends == [-1, 1], f"faction track {track} needs one faction at each end")
    require(sorted(board.track_bonus) == sorted(TRACKS), "track_bonus needs exactly the four tracks")
    require({"rebellion", "extra_action", "upgrade", "reserve"} <= set(board.supply),
            "supply lists the rebellion, extra_action, upgrade and reserve token counts")
    require(len(board.seal_slots) == 9, "a player board has 9 seal slots (9 seals per player)")
    require([s.id for s in board.scenarios] == ["learning", "swift", "friendly", "uprising"],
            "the four scenarios are learning, swift, friendly, uprising")

    basics = [a for a in actions.values() if a.basic]
    require(sorted(a.name for a in basics) == sorted(BASIC_NAMES), "the 10 starting cards are the rulebook's ten")
    require(sorted(board.starting_deck) == sorted(a.id for a in basics), "starting_deck lists the 10 basic cards")
    advanced = [a for a in actions.values() if not a.basic]
    require(len(advanced) == 50, f"50 advanced action cards, not {len(advanced)}")
    for a in advanced:
        require(a.name in BASIC_NAMES, f"advanced card {a.id} must share a basic card's name, not {a.name!r}")
    for a in actions.values():
        _check_effects(a.effects, a.id, factions)
        if a.bonus:
            _check_effects(a.bonus.effects, a.id, factions)
            _check_cond(a.bonus.when, a.id, factions)
        if a.kind != "improvement":  # face-down cards act only when revealed in the Crisis phase
            used = _ops(a.effects + (a.bonus.effects if a.bonus else []))
            require(used <= REVEAL_OPS, f"{a.id}: a face-down card cannot {sorted(used - REVEAL_OPS)} at its reveal")
        if a.kind == "improvement":
            require(not (a.power or a.control or a.reserve_power or a.reserve_control or a.bribe),
                    f"{a.id}: improvement cards carry no power, control or reserve")

    regular = [s for s in structures.values() if not s.draft]
    require(len(regular) == 60, f"60 structure cards, not {len(regular)}")
    require(sum(s.draft for s in structures.values()) == 4, "4 draft structures")
    for s in structures.values():
        require(s.tier in (1, 2, 3), f"{s.id}: tier must be 1-3")
        require(s.type in STRUCTURE_TYPES, f"{s.id}: unknown structure type {s.type!r}")
        require(s.faction in factions, f"{s.id}: unknown faction {s.faction!r}")
        require(all(k in TRACKS for k in s.attributes), f"{s.id}: unknown attribute track")
        # "each providing 1 more Attribute Point than the lower tiers"
        require(sum(s.attributes.values()) == s.tier, f"{s.id}: a tier {s.tier} structure gives {s.tier} point(s)")
        require(not s.draft or s.tier == 1, f"{s.id}: draft structures are tier 1")
    for tier in (1, 2, 3):
        for t in STRUCTURE_TYPES:
            require(any(s.tier == tier and s.type == t for s in regular), f"no tier {tier} {t} in the deck")

    require(sum(1 for l in leaders.values() if not l.draft and not l.hero) == 48, "48 leader cards")
    require(sum(1 for l in leaders.values() if l.draft) == 10, "10 draft leaders")
    for l in leaders.values():
        require(l.faction in factions, f"{l.id}: unknown faction {l.faction!r}")
        trig = {"score": ("score",), "development": ("play",),
                "crisis": ("crisis_total", "crisis_reward", "crisis_penalty")}[l.type]
        require(l.ability.trigger in trig, f"{l.id}: a {l.type} leader cannot have a {l.ability.trigger!r} ability")
        _check_effects(l.ability.effects, l.id, factions)
        _check_effects(l.alignment, l.id, factions)
        _check_cond(l.ability.when, l.id, factions)
        if l.ability.trigger == "play":
            require(l.ability.match in BASIC_NAMES or l.ability.match in CARD_KINDS,
                    f"{l.id}: play trigger must match a card name or kind")
        if l.ability.trigger.startswith("crisis"):
            require(l.ability.match in ("warfare", "political", "any"), f"{l.id}: crisis match must be warfare/political/any")

    require(len(crises) == 18, "18 crisis cards")
    for level in range(1, 7):
        require(sum(1 for c in crises.values() if c.level == level) == 3, f"3 crisis cards of level {level}")
    for c in crises.values():
        for name in ("warfare", "political"):
            ch: Challenge = getattr(c, name)
            if ch.mode == "group":
                require(sorted(ch.values) == ["2", "3", "4"], f"{c.id} {name}: group values for 2, 3 and 4 players")
            else:
                require(ch.value > 0, f"{c.id} {name}: individual challenge needs a value")
            _check_effects(ch.reward, c.id, factions)
    require(len(hunger) == 17, "17 hunger cards")
    for h in hunger.values():
        _check_effects(h.support, h.id, factions)
    for f in board.factions:
        _check_effects(f.action, f.id, factions)
    return Pack(board=board, actions=actions, structures=structures, leaders=leaders, crises=crises, hunger=hunger)


def load_module_cards(pack: str, filename: str, schema, count: int, label: str) -> dict:
    """A module's cards from the table's pack folder (`state.pack`, resolved from the pack's
    name when the table was created; "" the built-in pack): the box holds the modules' cards
    too. Validated by the module's schema, `count` of them with unique ids."""
    folder = Path(pack) if pack else DEFAULT_PACK
    items = load_json(folder / filename, list[schema])
    require(len(items) == count, f"the {label} module has {count} cards, not {len(items)}")
    require(len({c.id for c in items}) == count, f"{label} card ids must be unique")
    return {c.id: c for c in items}


@lru_cache(maxsize=8)
def pack_for(path: str = "") -> Pack:
    """The pack in a table's folder (`state.pack`: "" for the built-in demo pack)."""
    return load_pack(Path(path) if path else DEFAULT_PACK)
