"""The Blighted Reach table state: the Arcs state plus what the campaign adds to the table
(the Empire's ships, the Blight, the Free States, the rules booklet, titles and Fates).

Free cities and starports stand in a system's building slots like any building, owned by
`FREE` (-1): a slot is filled whoever holds it, so slot counts stay one list.
"""
from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from plugins.arcs.state import ArcsState

FREE = -1  # the owner of a Free city or Free starport


class Pieces(msgspec.Struct, array_like=True, omit_defaults=True):
    """Imperial ships or Blight in one system, by side showing."""

    fresh: int = 0
    damaged: int = 0

    @property
    def total(self) -> int:
        return self.fresh + self.damaged


# -- the campaign between acts (issue 18) --
class ActRecord(msgspec.Struct, omit_defaults=True):
    """One line of a player's campaign log for one act (BR-355): the Fate played in it, how
    its objective ended, and Power and Outrage as they stood when the line was written."""

    act: int
    fate: str
    result: Literal["", "completed", "failed"] = ""
    power: int = 0
    outrage: list[str] = []


# -- the Caretaker's Golems and the Believer's Faith (issue 18) --
class Golem(msgspec.Struct, array_like=True):
    """Where one Golem token is and the side it shows. `place`: "map:<system>", "hearth:<seat>"
    (on that seat's Golem Hearth), "held:<seat>" (in that seat's resources) or "scrapped"."""

    place: str
    awake: bool = False


class FiefSeat(msgspec.Struct, array_like=True):
    """A Seat token on the map (the Warden, F1602/F1609): the system of the city it stands
    above and that city's owner, the Lord of the Fief (the Seat's cluster)."""

    system: str
    owner: int


class BlightedReachState(ArcsState, kw_only=True):
    closed_court_cards: ClassVar[frozenset[str]] = frozenset({"AID01B"})  # the Decided Council (BR-172)
    # Public: the map's campaign pieces, the supplies, booklet and titles. Secret (absent
    # from `visible`): the base state's hands and decks, the lore deck, each player's Fate
    # offer and kept Fate (shown only through `setup.fates_revealed` once all have chosen).
    visible = ArcsState.visible + (
        "act", "imperial_clusters", "imperial", "blight", "imperial_supply", "blight_supply",
        "free_city_supply", "free_starport_supply", "council", "booklet",
        "titles", "first_regent", "placement_order", "placements_done",
        "mulligan_open", "rolls", "play_area", "scrapped",
        "free_proxies", "free_raided", "trust", "favors", "council_secured_by")
    act: int = 1
    imperial_clusters: list[int] = []          # the two clusters the number die chose (BR-048)
    imperial: dict[str, Pieces] = {}           # Imperial ships per system (only systems with some)
    blight: dict[str, Pieces] = {}             # Blight per system (only systems with some)
    imperial_supply: int = 15                  # Imperial ships off the map (BR-013)
    blight_supply: int = 24                    # Blight tokens off the map (BR-035)
    free_city_supply: int = 28                 # Free cities off the map (BR-035)
    free_starport_supply: int = 14             # Free starports off the map (BR-035)
    council: Literal["AID01A", "AID01B"] = "AID01A"  # the Imperial Council's face up side (BR-045)
    booklet: list[list[str]] = []              # rules booklet slots in order, each slot's cards top
                                               # first: Edicts in play; the Govern stack's top card
                                               # is the current Imperial Policy (BR-046, BR-047)
    lore_deck: list[str] = []                  # the lore cards not shuffled into the Court (secret)
    fate_offers: list[list[str]] = []          # per seat, the 2 A Fates drawn (secret, BR-053)
    fates: list[str] = []                      # per seat, the Fate kept (secret until all chose: `fates_revealed`)
    titles: list[Literal["regent", "outlaw"]] = []  # per seat, the title card's side up (BR-057)
    first_regent: int = -1                     # the seat with the First Regent tile, -1 nobody (BR-058)
    placement_order: list[int] = []            # seats still to place starting pieces, next first (BR-059, BR-061)
    placements_done: int = 0                   # starting placements made so far
    mulligan_open: int = -1                    # 2 players: the seat that may still mulligan (BR-064)
    rolls: dict[str, str] = {}                 # setup die results, public: "number" and "event"
    # -- the Act's flow and the Fate Sets (issue 18) --
    play_area: list[list[str]] = []            # per seat, Fate Set cards held that are neither Guild nor Lore
    scrapped: list[str] = []                   # Fate Set cards out of the campaign (BR-002: never back)
    # -- the Empire and the Free States (issue 18) --
    free_proxies: dict[str, int] = {}          # "city"/"starport" -> Free buildings placed while that
                                               # supply was empty: proxy pieces on the map or in
                                               # Trophies (BR-182); the supply never goes below zero
    free_raided: bool = False                  # the Free States were raided in the battle being
                                               # resolved: one resource per battle (BR-181)
    # -- the Empire in the Arcs flow (issue 18) --
    visible = visible + ("battle_imperial",)
    battle_imperial: Pieces = msgspec.field(default_factory=Pieces)  # the Imperial ships attacking with
                                               # a Regent in the battle being resolved (BR-135)
    visible = visible + ("battle_judge", "battle_judge_seat", "battle_judge_flagship")
    battle_judge: Pieces = msgspec.field(default_factory=Pieces)  # the Judge's Loyal ships attacking
                                               # with the holder of Judge's Chosen (F2404) in the
    battle_judge_seat: int = -1                # battle being resolved, and the Judge's seat
    battle_judge_flagship: bool = False        # ... and whether the Judge's Flagship attacks too
    # -- edicts, the Imperial Council and the Imperial Trust (issue 18) --
    trust: list[str] = []                      # the Imperial Trust: resources on the First Regent
                                               # tile, frozen (BR-260); empty while nobody holds it
    favors: list[list[int]] = []               # per seat, the owners of the Rival agents on its
                                               # Fate card (its Favors); a short list means none
    council_secured_by: int = -1               # the seat that secured the Council this round: the
                                               # card is tucked under their play until round end (BR-164)
    # -- crises and the Blight (issue 18) --
    visible = visible + ("crisis_roll", "attached")
    crisis_roll: dict[str, str] = {}           # the dice the current Crises read: "number", "symbol" (BR-220)
    attached: dict[str, str] = {}              # Court card -> the card attached above it, one at most (BR-314, BR-222)
    # -- summits (issue 18) --
    # The Summit being held is public (Favors are in the Edicts block).
    visible = visible + ("summit_caller", "summit_via", "summit_stage", "summit_done")
    summit_caller: int = -1                    # the seat who called the Summit being held, -1 none (BR-185)
    summit_via: Literal["", "event", "council"] = ""  # what let them call it (BR-154, BR-166)
    summit_stage: Literal["", "call_to_order", "negotiations"] = ""  # its part now (BR-185)
    summit_done: list[int] = []                # seats that said "done" since the last completed deal (A-R6)
    # -- the campaign between acts (issue 18) --
    visible = visible + ("colours", "objective_markers", "intermission_done", "fate_results",
                         "elimination_pending", "act_log")
    colours: list[str] = []                    # per seat, the colour played (the log sheet's, BR-355)
    objective_markers: list[int] = []          # per seat, the objective marker's Power track space,
                                               # -1 while off the track (BR-003, BR-098)
    intermission_done: list[str] = []          # the Intermission steps done so far, in order (BR-327)
    fate_results: list[str] = []               # per seat, "completed" / "failed" (Intermission A)
    elimination_pending: list[int] = []        # seats still to place 3 ships at a gate (BR-343)
    fate_picks: list[str] = []                 # per seat, the Fate picked at Intermission F (secret
                                               # until everyone picked, A-R7)
    act_log: list[list[ActRecord]] = []        # per seat, one line per act played (BR-355)
    # -- the Magnate and the Advocate (issue 18) --
    # Resources sitting on cards and the Monopoly cards in the general supply are public.
    visible = visible + ("card_resources", "monopoly_supply", "scrapped_resources")
    card_resources: dict[str, list[str]] = {}  # card -> resources on it (Merchant League F302's are
                                               # frozen but for Transfer Asset in Summits, BR-319)
    summit_gifts: list[str] = []               # the Summit being held ("summit:act:chapter:round") then
                                               # what the Magnate gave in it ("resource:<rival>:<type>",
                                               # "favor:<rival>:<owner>"), for their objective
    monopoly_supply: list[str] = []            # Monopoly cards (F313-F317) in the general supply, nobody's
    scrapped_resources: list[str] = []         # resources out of play for the campaign (the Magnate's
                                               # Act III objective scraps them)
    # -- the Caretaker's Golems and the Believer's Faith (issue 18) --
    # Golems are secret while Sleeping (their type): views show them through
    # `fate_caretaker.golem_view`, so `golems` is not in `visible`.
    visible = visible + ("faithful_stack", "ideals", "ideal_supply", "doctrine")
    golems: dict[str, Golem] = {}              # Golem type -> its place and side; empty until the
                                               # Caretaker's Act I setup places them
    stone_speakers: int = -1                   # the seat whose Stone-Speakers ended its turn as it
                                               # declared (its event die still to roll), -1 none
    faithful_stack: list[str] = []             # the Faithful action cards' stack, top first
    ideals: dict[str, str] = {}                # ambition -> the Ideal marker's side in its box ("zeal"/"wisdom")
    ideal_supply: int = 0                      # Ideal markers collected and not on an ambition box
    doctrine: str = ""                         # the Doctrine card's side, "" while not in play
    ideals_recorded: dict[str, str] = {}       # the Ideals as the log sheet recorded them after Act II
    summit_lore_given: list[tuple[int, int, str]] = []  # (giver, receiver, lore card) given in this Summit (F512B)
    scrapped_agents: list[int] = []            # owners of agents scrapped with a Court card (F521)
    golem_goals: list[str] = []                # "<chapter>:lore" / "<chapter>:golem": the Caretaker's
                                               # Act III goals chosen at that chapter's end (F520B)
    # -- the Founder and the Partisan (issue 18) --
    visible = visible + ("initiative_seen", "reminders")
    initiative_seen: int = -1                  # the initiative holder as the "each time you get the
                                               # initiative" advances last saw it (-1: not yet looked)
    reminders: list[str] = []                  # Fate Set cards tucked under the map as reminders of a
                                               # law in the booklet (no rules of their own)
    visible = visible + ("sown", "commonwealth")
    commonwealth: str = ""                     # the Commonwealth Ambition marker: "" not in play, "fate"
                                               # on the Founder's Fate card, else the ambition box it
                                               # was placed on (Founder of the Commonwealth)
    sown: list[list[int | str]] = []           # [sower, rival, resource]: the sower's agent covers that
                                               # Outrage slot of the Rival's (Sower of Division): the
                                               # Rival is Outraged in it, the slot held as a placeholder
    # -- the Steward and the Admiral (issue 18) --
    visible = visible + ("vox_agents", "sponsored", "navy_battle")
    vox_agents: int = 0                        # the securer's own agents on the Court card just
                                               # taken (Council Intrigue, Empire Falls move them on)
    sponsored: str = ""                        # the Sponsored token (Imperial Sponsor): "" not in
                                               # play, "tile" on the First Regent tile, else the
                                               # ambition box it stands on
    navy_battle: bool = False                  # the battle being fought has Imperial ships attacking
                                               # (the Admiral's objective counts its Trophies)
    # -- the Pacifist (issue 20) --
    visible = visible + ("witnesses", "witness_psionic", "empathy_battle")
    witnesses: dict[str, int] = {}             # Witness tokens on the map (spyglass side) per system;
                                               # the rest of the 4 are in the Fate Set or Psionic
    witness_psionic: int = 0                   # Witness tokens flipped to their Psionic side: Psionic
                                               # resources in play beyond the box's supply
    empathy_battle: bool = False               # Empathy for All was applied in the battle being fought
    # -- the Blight Speaker (issue 20) --
    visible = visible + ("scrapped_ships", "hunger")
    scrapped_ships: list[int] = []             # owners of Loyal ships out of the campaign (F1301 scraps 2)
    hunger: list[int] = []                     # owners of the ships on Blight Hunger (F1313): a seat, or
                                               # -2 for an Imperial ship; back to their supplies after scoring
    # -- the C Fates: the Overlord and the Guardian (issue 20) --
    visible = visible + ("sycophants_due", "sycophants_used", "vault_declined")
    sycophants_due: list[str] = []             # "<seat>:<type>": Outrage the holder of Sycophants
                                               # Provoked, its ship placement still to be asked
    sycophants_used: str = ""                  # the turn (`fate_overlord.turn_key`) Sycophants
                                               # placed ships in: once per turn
    vault_declined: list[int] = []             # resource placements (`Placing.number`) whose
                                               # Material and Fuel the Guardian kept out of Green Vault
    # -- the Pirate (issue 20) --
    visible = visible + ("fleet_raid", "rumors_up", "rumor_agents", "haven_guesses", "rumor_offered")
    fleet_raid: bool = False                   # the battle being fought collected raid dice only by
                                               # Pirate Fleet (F1203): its raid steals resources only
    # Secret (absent from `visible`): the Rumors' faces; views show them through
    # `fate_pirate_rumors.rumor_view` to those who may peek.
    rumors: dict[str, str] = {}                # planet -> the Rumor token's face there ("cluster",
                                               # "symbol", "false"), from the Pirate's Act III setup
    rumors_up: list[str] = []                  # planets whose Rumor lies face up (seen by all)
    rumor_agents: dict[str, list[int]] = {}    # planet -> owners of the agents on its Rumor
    haven_guesses: list[list[int | str]] = []  # [seat, planet]: the Rivals' guesses at Act III's end
    rumor_offered: bool = False                # the battle being fought has offered its attacker the
                                               # agent Rumors of the Haven gives for stealing
    # -- the Pathfinder (issue 20) --
    visible = visible + ("clues", "portal", "pilgrims", "pilgrims_delivered", "pilgrims_moved", "pilgrim_tucked")
    # Secret (absent from `visible`): the planet the player to the Pathfinder's right recorded
    # (F901 step 4); views show it through `fate_pathfinder.portal_view` to that player only.
    portal_secret: str = ""
    clues: dict[str, str] = {}                 # planet -> the Clue token's side there ("check", "x")
    portal: str = ""                           # the system holding the Portal token, "" off the map
    pilgrims: dict[str, int] = {}              # Pilgrim tokens on the map per system (F907)
    pilgrims_delivered: int = 0                # Pilgrim tokens on the Pathfinder's objective card (F908)
    pilgrims_moved: str = ""                   # the turn (`fate_overlord.turn_key`) the Pilgrims moved in
    pilgrim_tucked: list[str] = []             # Seek the Portal cards tucked under the Pilgrims card
    # -- the Gate Wraith (issue 20) --
    visible = visible + ("passages", "passage_die", "dead_live", "dead_trophies", "storms_drawn")
    passages: list[str] = []                   # gates holding a Passage token, out of play (F2203, F2205)
    passage_die: str = ""                      # the ID symbol the event die in the map center shows;
                                               # "" when the Twisted Passage is not in play
    dead_live: list[int] = []                  # owners of the destroyed ships on The Dead Live (F2204):
                                               # a seat, or -2 for an Imperial ship
    dead_trophies: list[int] = []              # per seat, its Trophies as the chapter began (those
                                               # after are this chapter's, F2204)
    storms_drawn: int = -1                     # the Court row place Passage Storms was just drawn
                                               # into, its host still to be chosen (F2206); -1: none
    # -- the Survivalist (issue 20) --
    visible = visible + ("bunkers", "bunker_supply", "bunkers_on_worlds", "captives_kept", "ship_captives_kept")
    bunkers: dict[str, bool] = {}              # planet -> its Bunker token is damaged (F1803: one a
                                               # planet, the Survivalist's Loyal pieces)
    bunker_supply: int = 0                     # Bunker tokens the Survivalist holds off the map (9 at setup)
    bunkers_on_worlds: int = 0                 # Bunkers removed onto Breaking Worlds (F1103, its FAQ)
    captives_kept: list[int] = []              # owners of the Captives Vow of Survival keeps when
                                               # Tyrant is scored, as the Survivalist chose them
    ship_captives_kept: list[int] = []         # and owners of the ship Captives (F1012) it keeps
    # -- the Planet Breaker (issue 20) --
    visible = visible + ("hammer_fragments", "fragments_repaired", "hammer_whole", "hammer", "broken_worlds",
                         "worlds_buildings", "hammer_tucked", "hammer_prepared", "worlds_supply", "eater_agents")
    hammer_fragments: list[str] = []           # planets holding a Hammer Fragment token (F1101)
    fragments_repaired: int = 0                # Hammer Fragment tokens on the Hammer Fragments card
    hammer_whole: bool = False                 # all 6 repaired: the card is Breaking Worlds, the tokens Hammer tokens
    hammer: str = ""                           # the planet holding the Hammer token (Prepare), "" none
    broken_worlds: list[str] = []              # planets holding a Broken World token (no building slots)
    worlds_buildings: list[list[int | str]] = []  # [owner, kind] of the buildings on Breaking Worlds
    hammer_tucked: list[str] = []              # cards tucked under Hammer Fragments / Breaking Worlds
    hammer_prepared: str = ""                  # the turn (`fate_overlord.turn_key`) of the last Prepare
    worlds_supply: list[str] = []              # Breaking Worlds in the general supply (F1110 failed)
    eater_agents: list[int] = []               # [hunter, agents]: a missed hunt's agents going back
                                               # onto Planet-Eater Loose (F1111)
    # -- the Naturalist (issue 20) --
    visible = visible + ("blight_spared",)
    blight_spared: int = -1                    # the holder of Blight Society who paid a Psionic for
                                               # the Blight Crises being resolved (-1: nobody)
    # -- the Conspirator (issue 20) --
    # Secret (absent from `visible`): every Conspiracy token's colour, on the ambition boxes
    # and in the Conspirator's supply; views show them through `fate_conspirator.conspiracy_view`
    # (the colours to the Conspirator alone, the tokens' places and counts to everyone).
    conspiracies: dict[str, list[str]] = {}    # ambition box -> the colours of the face-down
                                               # Conspiracies in it, in the order placed
    conspiracy_supply: list[str] = []          # the colours of the Conspiracies in the Conspirator's
                                               # supply (8 collected at its Act III setup: 2 per colour)
    visible = visible + ("foil_card",)
    foil_card: str = ""                        # the Court card just secured that had the
                                               # Conspirator's agents on it (Foiling Conspiracies)
    # -- the Judge (issue 20) --
    visible = visible + ("arbiter_chapter",)
    arbiter_chapter: int = 0                   # the chapter whose scoring The Arbiter's gifts
                                               # were offered at (once a chapter)
    # -- the Peacekeeper (issue 20) --
    visible = visible + ("arsenal_declined", "ceasefires")
    arsenal_declined: list[int] = []           # resource placements (`Placing.number`) whose Weapons
                                               # the holder of Arsenal Keepers kept off the card (F1503)
    ceasefires: dict[str, str] = {}            # cluster number -> its Ceasefire token's side, "peace" or
                                               # "war" (F1507; empty while not in play)
    # -- the Hegemon (issue 20) --
    visible = visible + ("banners", "banner_set", "banners_scrapped", "banners_on_worlds", "hegemon_turns", "ship_captives", "hosts_kept")
    banners: dict[str, bool] = {}              # planet -> its Banner token is damaged (F1002/F1003)
    banner_set: int = 0                        # Banner tokens the Hegemon collected (F1001 step 5: 8)
    banners_scrapped: int = 0                  # Banner tokens out of the campaign (F1005 failed)
    banners_on_worlds: int = 0                 # Banners removed onto Breaking Worlds (F1103, its FAQ)
    hegemon_turns: dict[str, str] = {}         # "call_spirits"/"call_bodies" -> the turn
                                               # (`fate_overlord.turn_key`) it was used in: once per turn
    ship_captives: dict[str, list[int]] = {}   # holder seat -> owners (a seat, or EMPIRE -2) of the
                                               # ships it captured with Pacify (Happy Hosts, F1012)
    hosts_kept: list[str] = []                 # the Captives Happy Hosts' holder chose to keep when
                                               # Tyrant is scored: "agent:<owner>" / "ship:<owner>"
    # -- the Warden (issue 20) --
    visible = visible + ("fief_seats", "seats_scrapped", "court_tokens", "levy")
    fief_seats: dict[str, FiefSeat] = {}       # cluster number -> its Seat token on the map (F1602);
                                               # the Seats not on the map are in the Warden's supply
    seats_scrapped: list[int] = []             # the clusters whose Seat (and Lord title) is out of the
                                               # campaign (F1611 failed)
    court_tokens: dict[str, str] = {}          # cluster number -> the Court card its Court token is on
                                               # (F1618; a token not here is in the supply)
    levy: list[int] = []                       # the owners of the ships on Warden's Levy (F1612)
