"""The Queen's Dilemma state: the campaign (what the Save tray, the Diaries and the Treasury
boxes keep between sessions) and one game's table on top of it.

The campaign part is one typed Struct, `Campaign`, converted to and from the plain JSON the
campaign store keeps (`conclave_campaign_save` / `conclave_campaign_begin`), so what is saved
is exactly what the next game reads back.
"""
from __future__ import annotations

from typing import ClassVar

import msgspec

from plugins.queens_dilemma.scoring import IdeologyBoard
from plugins.queens_dilemma.voting import Council, Councilor, RESOURCES


class HeldAgenda(msgspec.Struct, gc=False, kw_only=True):
    code: str
    deadline: int | None = None   # the last game it can be completed in; None: ongoing


class HeldSkill(msgspec.Struct, gc=False, kw_only=True):
    code: str
    used: int = 0                 # marks on its Activation Track


class Diary(msgspec.Struct, gc=False, kw_only=True):
    """One player's campaign record: Character, Regions, Legacy stickers, points, Treasury."""

    seat: int
    character: str
    regions: list[str] = []       # Main Regions
    vassals: list[str] = []       # Vassal Regions
    buildings: dict[str, str] = {}  # Building code -> Region it stands in
    keywords: list[str] = []      # Narrative Keyword codes (Region and Character Keywords are implied)
    skills: list[HeldSkill] = []
    covered_skills: list[str] = []
    agendas: list[HeldAgenda] = []
    hegemony: int = 0
    independence: int = 0
    infamy: int = 0
    resources: dict[str, int] = msgspec.field(default_factory=lambda: {r: 0 for r in RESOURCES})
    bonus_power: int = 0          # seat-bonus Power waiting for game 1 (QD-047)
    fate: str = ""
    missed: int = 0               # games missed while absent, not yet compensated (QD-126)
    defected: bool = False


class ChronicleRecord(msgspec.Struct, gc=False, kw_only=True):
    code: str
    herald: int | None = None     # the seat that Branded it (None: no Herald or pre-printed)
    marks: int = 0                # Duration Track spaces marked


class EventRecord(msgspec.Struct, gc=False, kw_only=True):
    id: str
    games_left: int | None = None
    tokens: int = 0               # Heraldry tokens kept on it (token "keep")


class Campaign(msgspec.Struct, gc=False, kw_only=True):
    players: int
    diaries: list[Diary] = []
    leader: int = 0
    moderator: int = 0
    games_played: int = 0
    deck: list[str] = []          # the Dilemma deck (its order is set by each game's shuffle)
    stories: list[str] = []       # Story cards revealed, in the order they were read
    endings: dict[str, str] = {}  # Storyline number -> attached Ending code
    chronicle_deck: list[ChronicleRecord] = []   # the unlocked Chronicle deck (Save tray slot 3)
    events: list[EventRecord] = []
    opened: list[str] = []        # Envelopes and Mystery boxes opened
    unlocked: list[str] = []      # Legacy codes taken out of the Legacy tray (never twice)
    trashed: list[str] = []       # codes in the Trash box
    ongoing_pool: list[str] = []  # Ongoing Agenda cards still in the Legacy tray
    modules: list[str] = []       # chosen once, at campaign setup (QD-067)
    regions_chosen: bool = False  # the one-time Region choice is done
    finale_next: bool = False     # the campaign end was triggered: the next game is the Grand Finale
    finale_played: bool = False
    final: list[dict] = []        # Grand Finale scores, once played


class Chronicle(msgspec.Struct, gc=False, kw_only=True):
    """A Chronicle card in play this game."""

    code: str
    herald: int | None = None
    instant: bool = False
    slot_taken_by: int | None = None   # the Heraldry token on its slot this Voting Phase
    tokens: int = 0                    # Heraldry tokens on its Pass Action spaces


class Player(Councilor, kw_only=True):
    """One seat's in-game table: Power and points are in `Councilor` (points mirror the Diary)."""

    ideology_card: str = ""
    drawn_ideology: list[str] = []
    investment: str = ""
    heraldry: int = 6                  # free Heraldry tokens
    absent: bool = False


class QDState(Council, kw_only=True):
    # Seen by viewers; views.redact then hides the campaign's secrets and other seats' cards.
    visible: ClassVar[tuple[str, ...]] = Council.visible + (
        "campaign", "game_number", "board", "dilemma", "markers", "round_counter", "chronicles", "events_active",
        "event_slots", "aontas", "investments_left", "end_triggered", "winners", "finale", "log_notes")
    campaign: Campaign | None = None
    game_number: int = 0
    board: IdeologyBoard = msgspec.field(default_factory=IdeologyBoard)
    councilors: list[Player] = []
    dilemma: str = ""                  # the card being resolved
    markers: dict = {}                 # the Outcome markers: the card front's outcomes, public (QD-137)
    round_counter: list[list[str]] = []  # [dilemma id, winning side] per slot
    chronicles: list[Chronicle] = []   # in play: Instant stack first, then brown slots
    events_active: list[str] = []
    event_slots: dict[str, int] = {}
    aontas: list[int] = []             # Gather Power tokens on Aontas this Voting Phase   # Event card slot -> the seat whose token is on it
    investments_left: list[str] = []
    end_triggered: bool = False
    winners: list[int] = []            # the last Vote's Winners (QD-284, QD-285)
    finale: bool = False
    log_notes: list[str] = []
