"""The Arcs table state: the map's pieces, the players' boards, the cards and the round.

One msgspec document like every game's (`core.state.TableState`): no rule keeps anything
outside it. Seats index `players` and the per-owner lists in each system.
"""
from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from core.state import Prompt, TableState


class Ships(msgspec.Struct, array_like=True, omit_defaults=True):
    """One player's ships in one system."""

    fresh: int = 0
    damaged: int = 0

    @property
    def total(self) -> int:
        return self.fresh + self.damaged


class Building(msgspec.Struct, array_like=True):
    kind: Literal["city", "starport"]
    owner: int
    damaged: bool = False


class SystemState(msgspec.Struct, omit_defaults=True):
    """What stands in one in-play system: ships by owner (indexed by seat), buildings in slots."""

    ships: list[Ships] = []
    buildings: list[Building] = []

    def ships_of(self, seat: int) -> Ships:
        """An owner below 0 (a game built on Arcs: pieces of no player) has no seat's ships."""
        return self.ships[seat] if 0 <= seat < len(self.ships) else Ships()


class Trophy(msgspec.Struct, array_like=True):
    """A destroyed piece or an agent in a Trophies box: whose it was and what."""

    owner: int
    kind: Literal["ship", "city", "starport", "agent", "blight", "bunker", "banner"]  # campaign tokens: Blight, Bunkers (F1803), Banners (F1003)


class PlayerState(msgspec.Struct, omit_defaults=True):
    power: int = 0
    resources: list[str | None] = msgspec.field(default_factory=lambda: [None] * 6)  # slot 1..6
    cities_on_board: list[bool] = msgspec.field(default_factory=lambda: [True] * 5)   # city slot 1..5
    ships: int = 15       # in supply
    starports: int = 5    # in supply
    agents: int = 10      # in supply
    outrage: list[str] = []
    outrage_placeholders: list[str] = []  # Outrage slots covered by a placeholder, no agent (ARCS-194)
    trophies: list[Trophy] = []
    captives: list[int] = []  # the owners of captured agents
    guild: list[str] = []
    lore: list[str] = []
    leader: str | None = None


class Marker(msgspec.Struct, array_like=True):
    id: str
    flipped: bool = False


class Play(msgspec.Struct, omit_defaults=True):
    """One card played this round, as everyone sees it: a Copy's card is face down ("")."""

    seat: int
    kind: Literal["lead", "surpass", "copy", "pivot", "event"]  # event: a campaign Event card (blighted-reach)
    card: str = ""
    seized: bool = False  # an extra card went face down beside it (ARCS-099)


class Turn(msgspec.Struct, omit_defaults=True):
    """The turn being taken: what the played card's pips still buy and the Prelude's state."""

    seat: int
    kind: Literal["lead", "surpass", "copy", "pivot", "event"]
    pips: int
    actions: list[str]        # what a pip buys (ARCS-081, ARCS-091..094)
    lead_actions: list[str]   # what a Psionic buys (ARCS-214)
    weapon: bool = False      # a Weapon made the pips battle-capable (ARCS-215)
    prelude: bool = True      # open until the first pip is spent (ARCS-114)
    aside: list[str] = []     # resources spent in this Prelude, back to supply when it closes (ARCS-116)
    taxed: list[list] = []    # [system, building] taxed this turn (ARCS-141)
    starports_used: list[list] = []  # [system, building] that built a ship this turn (ARCS-145)
    acted: bool = False       # an action, a Prelude spend or an ability was used this turn
    gained: list[str] = []    # Court cards taken during this Prelude: no Prelude ability of theirs (ARCS-117)
    windows: list[str] = []   # "before/after" windows held open over this turn's action (Tactical, Charismatic)
    used: list[str] = []      # "card:index" of once-per-turn Court abilities used this turn (Relic Fence)


class Battle(msgspec.Struct, omit_defaults=True):
    """A battle being resolved (ARCS-176): the roll's symbols still to resolve."""

    attacker: int
    defender: int
    system: str
    hit: int = 0
    building_hit: int = 0
    self_hit: int = 0
    intercept: int = 0
    key: int = 0
    cities: int = 0  # defending cities destroyed, their Outrage and Ransack still to come
    roll: list[tuple[str, int]] = []  # the attacker's dice (kind, face index) until tallied; rerolls change it
    dice: list[str] = []              # the kinds collected (Mirror Plating reads them)
    all_fresh: bool = False           # every attacking ship was fresh at the start (Signal Breaker)
    trophies_at_start: int = 0        # the attacker's Trophies before the battle (Beloved)
    copy_pivot: bool = False          # the battle was a Copy or Pivot pip's (Tactical's window)
    joined: int = 0                   # the attacker's ships placed here mid-battle: not attacking ships
    stolen: int = 0                   # the steals made in this battle's raid so far


class AttachedUnion(msgspec.Struct, array_like=True):
    """A Union card set beside a face-up played action card: at round end its holder takes
    that card into hand and the Union is discarded (ARCS-314)."""

    card: str
    action_card: str
    seat: int
    returns: bool = False  # the card goes back to its holder's Guild cards, not the discard (The Young Light)


class Placing(msgspec.Struct, omit_defaults=True):
    """Tokens waiting for their owner to place them (ARCS-209): gained, taken, stolen or
    given, or pushed off the slots a returning city covers (`rearrange`, ARCS-250). They
    are out of the supply and in no slot until the owner's placement is applied."""

    seat: int
    number: int                # which placement this is: an answer names it, so a stale one is refused
    tokens: list[str] = []
    rearrange: bool = False    # a returning city covered a slot: everything may be moved (ARCS-210)


class ArcsState(TableState, kw_only=True):
    # Court cards of this game nobody may influence or secure while they lie in the row (a
    # game built on Arcs: the campaign's Decided Council). Game data, not table state.
    closed_court_cards: ClassVar[frozenset[str]] = frozenset()

    # What views show (the kernel's allow-list): never the hands, the decks' order or the
    # face-down cards; their sizes are added by the view hook.
    visible = ("setup_card", "out_of_play", "systems", "players", "supply", "ambition_tokens",
               "markers_available", "ambition_boxes", "initiative", "seized", "chapter", "court_row",
               "court_agents", "court_discard", "action_discard_up", "resolving", "lead", "lead_seat", "declared",
               "ambition_declared", "plays", "surpasses", "passes", "turn", "battle", "winner", "unions", "placing")
    setup_card: str = ""
    out_of_play: list[int] = []
    systems: dict[str, SystemState] = {}
    players: list[PlayerState] = []
    supply: dict[str, int] = {}           # resource -> tokens left
    ambition_tokens: dict[str, list[str]] = {}  # 2 players: the phantom's tokens per ambition
    markers_available: list[Marker] = []
    ambition_boxes: dict[str, list[Marker]] = {}
    initiative: int = 0
    seized: bool = False
    chapter: int = 1
    action_deck: list[str] = []   # face down, in order
    action_discard: list[str] = []     # face down (secret): its size only is shown
    action_discard_up: list[str] = []  # Split Discard (ARCS-283): the face-up plays, public
    court_deck: list[str] = []
    court_row: list[str] = []
    court_agents: dict[str, list[int]] = {}  # card -> agents on it, per seat
    court_discard: list[str] = []
    resolving: list[str] = []  # Vox cards secured, their effect not yet resolved
    hands: list[list[str]] = []   # per seat, secret to everyone else (ARCS-281)
    # the round (digest section 5)
    lead: str = ""                # the lead card, face up
    lead_seat: int = -1
    declared: bool = False        # the zero marker lies on the lead card (ARCS-084)
    ambition_declared: str = ""   # the ambition declared this round, with or without the zero marker
    plays: list[Play] = []        # the round's cards as the table sees them
    facedown: list[str] = []      # Copy and seize cards of this round (secret)
    queue: list[int] = []         # seats still to follow this round, in turn order
    surpasses: list[list[int]] = []  # [seat, number] of each Surpass (ARCS-106)
    passes: int = 0               # consecutive passes of the initiative (ARCS-079)
    turn: Turn | None = None
    battle: Battle | None = None
    winner: int = -1
    unions: list[AttachedUnion] = []  # Union cards waiting beside a played card until round end
    placing: list[Placing] = []   # tokens waiting for their owners' placement, first asked first
    placings: int = 0             # placements opened so far (numbers them)
    held_prompts: list[Prompt] = []  # prompts opened with a placement pending: reopened once it is done
