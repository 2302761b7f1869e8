"""The Blighted Reach box as data: components, Act setup, the Empire (laws, titles, the
Imperial Council, Policies and Edicts), the campaign Court, the Event card and the 24 Fates
with their Fate Sets, with the schemas and the cross-file checks a schema cannot express.

Facts come from the campaign rulebook (`shared/rules/arcs-blighted-reach-rulebook.txt`,
checklist IDs BR-xxx in each file's `note`) and the card library (`LederCards/cards`,
`content/card-data/arcs/en-US/blightedreach.yml` at commit
d7595fe3b72763b101a999098b9c80f3713ae522, ruling A-R8): names, numbers, suits, raid costs,
counts, acts. Effects are this project's own structure, as in `plugins.arcs.content`: an
`Effect` says *when* it acts (`Trigger`) and *what* it does (`Op`) with the fields that op
reads. Where data cannot say it, the op is `handler` and `handler` names the function the
rules engine must provide, so a later Fate is data plus small handlers.

A fact neither source gives is left out (an optional field stays unset), never guessed.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import msgspec

from core.content import load_json, require
from plugins.arcs.content import (
    ActionName,
    Ambition,
    CardFile,
    Resource,
    Suit,
    default_box as arcs_box,
)
from plugins.arcs.content import Op as ArcsOp
from plugins.arcs.content import Trigger as ArcsTrigger

DEFAULT_BOX = Path(__file__).parent / "content"

Symbol = Literal["arrow", "hex", "moon"]          # planet ID symbols as the card library names them
EventFace = Literal["crisis", "edict"]
Law = Literal["presence", "movement", "truce"]    # the Empire's three laws (BR-122..BR-133)
Letter = Literal["A", "B", "C"]

# When a campaign effect acts (beyond the base game's, which reprinted cards keep).
CampaignTrigger = Literal[
    "always",              # a standing rule while held or while in the rules booklet
    "prelude",             # a Prelude action, card kept
    "prelude_discard",     # a Prelude action that discards the card
    "prelude_first_discard",  # as prelude_discard, before any other Prelude action
    "new_action",          # a new action paid with a pip of `action`'s kind
    "secured",             # a Court card's When Secured
    "crisis",              # a card's Crisis text (Court Crises, or Fate Crises for held cards)
    "declare",             # when the holder declares an ambition
    "battle",              # when the holder battles
    "battle_roll",         # after the holder rolls in battle
    "copy",                # when the holder Copies to take `action`
    "secure_guild",        # when the holder secures a Guild card
    "surpass_or_pivot",
    "stolen",
    "round_end",
    "edict",               # resolved with the Edicts
    "setup",               # the Setup side of an objective card, in Act setup
    "success",             # a Resolution card, objective completed (Intermission A)
    "failure",             # a Resolution card, objective failed
    "play",                # when the card is played (action cards)
]

# What a campaign effect does; the fields it reads are in brackets (see OP_NEEDS).
CampaignOp = Literal[
    # -- Fate Set bookkeeping (setup and resolution steps) --
    "gain_cards",              # the holder takes [cards] from their Fate Set
    "add_to_court_deck",       # [cards] join the Court deck
    "shuffle_into_court_deck",  # [cards] are shuffled into the Court deck
    "place_on_court_deck",     # [cards] go on top of the Court deck
    "add_to_booklet",          # [cards] go into the rules booklet (explained to everyone)
    "scrap_cards",             # [cards] leave the campaign
    "scrap_from_booklet",      # [cards] are taken out of the rules booklet and scrapped
    "keep_for_next_resolution",  # [cards] wait behind the next Resolution card [target]
    "shuffle_into_action_deck",  # [cards] are shuffled into the action deck
    "take_first_regent",       # take the First Regent tile
    "take_first_regent_unless_fate",  # ... unless Fate [target] is in play
    # -- the Empire --
    "ignore_laws",             # the holder ignores the Empire's [laws]
    "bury_if_outlaw",          # the card is buried while its holder is an Outlaw
    "tax_empire_cities",       # tax Empire-controlled cities like Loyal ones, no Captives
    "place_imperial_ships",    # place [count] Imperial ships [where]
    "flip_council_in_session",
    "become_first_regent",
    "outlaw_steals_trust",     # steal from the Imperial Trust up to empty slots; First Regent loses 1 Power each
    "resolve_crises_or_edicts",
    "may_call_summit",
    "enforce_or_change_policy",
    # -- Court and cards --
    "declare_any",             # declare any ambition (a marker must be Available)
    "return_top_declared_marker",
    "move_agents_to_council",
    "move_own_agents_to_court",
    "discard_guilds_to_agent_count",
    "rivals_resolve_crisis",
    "most_power_frees_city",   # the player with most Power replaces a Loyal city with a Free city
    "free_city_then_seize",    # replace a controlled city with a Free city; then may seize
    "bury_self",
    "discard_self",
    "shuffle_self_into_court",
    "bury_unagented_guilds",   # bury every Guild card in the Court with no agents, refill
    "repair_blight_in_cluster",  # in the rolled cluster
    "blight_rolled_symbol_planets",  # one damaged Blight at each rolled-symbol planet with none
    "destroy_damaged_blight_in_cluster",  # in a cluster with Loyal pieces
    "mirror_lead",             # take actions like the lead card (Event cards)
    "add_event_to_round_end",
    "handler",                 # a named rules function does it: [handler]
]

# A campaign card may use every base trigger and op too (its reprints already do).
Trigger = Literal[tuple(dict.fromkeys(CampaignTrigger.__args__ + ArcsTrigger.__args__))]
Op = Literal[tuple(dict.fromkeys(CampaignOp.__args__ + ArcsOp.__args__))]

OP_NEEDS: dict[str, tuple[str, ...]] = {
    "gain_cards": ("cards",), "add_to_court_deck": ("cards",), "shuffle_into_court_deck": ("cards",),
    "place_on_court_deck": ("cards",), "add_to_booklet": ("cards",), "scrap_cards": ("cards",),
    "scrap_from_booklet": ("cards",), "keep_for_next_resolution": ("cards", "target"),
    "shuffle_into_action_deck": ("cards",), "take_first_regent_unless_fate": ("target",),
    "ignore_laws": ("laws",), "place_imperial_ships": ("count", "where"), "handler": ("handler",),
    # base ops a campaign card reuses keep their needs
    "gain": ("resource", "count"), "gain_each": ("resources",), "reroll": ("die", "limit"),
    "attach_union": ("suit",), "place_ships": ("count", "where"), "extra_dice": ("count", "where"),
    "gain_to_fill_slots": ("resource",), "hold_supply": ("resource",), "rivals_discard_all": ("resource",),
    "steal": ("resource", "count"), "spend_any_as": ("resource",), "prelude_despite_outrage": ("resource",),
    "no_zero_marker": ("ambitions",), "convert": ("resource",), "abduct": ("limit",),
}
CARD_OPS = {op for op, needs in OP_NEEDS.items() if "cards" in needs}


class Effect(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One effect of a campaign card; the base game's fields plus the campaign's."""

    when: Trigger
    do: Op
    name: str = ""                     # a new action's name
    action: ActionName | None = None   # new_action / copy: the action kind
    resource: Resource | None = None
    resources: list[Resource] = []
    count: int = 0
    suit: Suit | None = None
    where: Literal["", "gate", "each_gate", "controlled_system", "empire_system_or_loyal_starport",
                   "free_city", "any"] = ""
    die: Literal["", "assault", "skirmish", "raid"] = ""
    limit: Literal["", "once_per_turn", "weapon_icons", "weapon_resources_and_cards"] = ""
    ambitions: list[Ambition] = []
    cards: list[str] = []              # card ids this effect moves (Fate Set, CC, or Court)
    target: str = ""                   # the card or Fate a step refers to
    laws: list[Law] = []
    symbols: list[Symbol] = []         # "if this symbol was rolled"
    handler: str = ""                  # the rules function for op `handler`
    building: Literal["", "city", "starport"] = ""  # base fields the base ops read
    raid_cost: int = 0


# -- components and setup ---------------------------------------------------------------


class BoxData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    counts: dict[str, int]             # component -> number in the box
    fates_per_letter: dict[Letter, int]
    player_pieces: dict[Literal["ships", "cities", "starports", "agents"], int]
    number_die: list[int]              # the cluster numbers it shows
    event_die_symbols: list[Symbol]
    event_die_kinds: list[EventFace]
    event_die_faces: list[tuple[EventFace, Symbol]]  # its six faces (source in the file's note)


class ActSetup(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    note: str
    court_row: dict[str, int]                    # players -> cards dealt
    event_cards: dict[str, int] = {}             # players -> Event cards shuffled in (Act I)
    action_numbers: list[int] = []               # always in the action deck
    four_player_numbers: list[int] = []          # added with 4 players
    lore_per_player: int = 0
    imperial_clusters: int = 0                   # the rolled cluster and the next clockwise
    imperial_ships_per_system: int = 0
    free_city_on_rolled_symbol: bool = False     # outside the Imperial clusters
    damaged_blight_per_other_system: int = 0
    two_player_ambition_tokens: dict[Resource, Ambition] = {}
    fate_letter: Letter | None = None
    fates_drawn: int = 0
    placement_rounds: list[Literal["turn_order", "reverse"]] = []
    placement: dict[Literal["ships", "buildings", "resources"], int] = {}
    hand_size: int = 0
    flip_lowest_ambition_markers: dict[str, int] = {}   # act -> markers flipped
    blight_on_empty_gates: int = 0
    two_player_number_rolls: int = 0


class CampaignData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    chapters_per_act: dict[str, int]
    intermission_after_acts: list[int]
    grand_ambition_power: dict[str, tuple[int, int]]   # Act III chapter -> (one, both)
    intermission_steps: list[Literal["resolve_fate", "clear_court", "clear_pieces",
                                     "repair_and_destroy", "shift_initiative_and_power", "choose_fate"]]
    fate_draw: dict[Literal["completed", "failed"], int]
    next_letter: dict[str, Letter]                      # act finished -> letter drawn
    tie_break_letters: list[Letter]
    act_one: ActSetup
    later_acts: ActSetup


# -- the Empire -------------------------------------------------------------------------


class Policy(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: Literal["peace", "escalation", "war"]
    demand_resources: list[Resource] = []
    demand_pieces: list[Literal["trophy", "captive"]] = []
    demand_from: Literal["each_regent", "each_rival_regent"] = "each_regent"
    action: Literal["celebrate_regency", "requisition_ships", "distribute_arms"] = "celebrate_regency"
    action_count: int = 0              # Imperial ships placed / Weapons given


class CampaignCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An aid, edict, title or Council card: facts plus effects."""

    id: str
    name: str
    kind: Literal["council", "edict", "title", "ability", "event"]
    abilities: list[Effect] = []
    edict_number: int | None = None    # the order Edicts resolve in (BR-239)
    players: list[int] = []            # only used with these player counts
    flip_side: str = ""
    side: Literal["", "in_session", "decided", "regent", "outlaw"] = ""


class EmpireData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    laws: list[Law]
    cards: list[CampaignCard]
    policies: list[Policy]


class EventData(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    copies: int
    card: CampaignCard


# -- Court and Fates --------------------------------------------------------------------


class CourtCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A campaign Court card (CC) or a Fate Set Guild/Vox card."""

    id: str
    name: str
    kind: Literal["guild", "vox"]
    abilities: list[Effect] = []
    suit: Resource | None = None
    raid_cost: int = 0
    protected: bool = False           # an "X" in place of the raid cost (BR-308)
    reprint_of: str = ""              # a base Court card (BCnn) whose abilities it also has


Kind = Literal["guild", "vox", "lore", "law", "edict", "summit", "title", "ability", "setup",
               "resolution", "event", "monopoly", "economy", "doctrine", "reminder", "action"]


class Advance(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One way to move the objective marker toward 0."""

    when: Literal["win_ambition", "chapter_end", "after_scoring", "scoring", "event"]
    amount: int                       # spaces per counted thing
    per: str                          # what is counted: a name from ADVANCE_COUNTS
    only_if: list[str] = []           # conditions, names from CONDITIONS


ADVANCE_COUNTS = {
    "power_gained", "imperial_ship_placed", "trophy_with_imperial_attackers", "ambition_won",
    "controlled_system", "summit_gift_received", "summit_discard_three", "self_discarding_guild_prelude",
    "recover_action", "golem_held", "golem_spent", "initiative_gained", "initiative_play",
    "faithful_stack_top_pips", "empire_cluster", "trust_resource", "commonwealth_member",
    "free_city_outside_empire", "monopoly_gained", "monopoly_held", "guild_suit", "rival_outnumbered_in_guilds",
    "lore_secured", "lore_received", "rival_outnumbered_in_lore", "guild_card_held", "empire_planet",
    "outlaw_trophy", "regent_agent_captured", "ideal_power_gained",
    "hoard_resource", "hoard_type_ahead_of_rivals",  # the Pirate
    "no_trophies_held", "no_captives_held", "psionic_spent_in_prelude_with_empath",  # the Pacifist
    "blight_with_loyal_ships", "spore_blight_placed",  # the Blight Speaker
    "check_clue_placed", "portal_placed",  # the Pathfinder
    "hammer_fragment_taken", "world_broken",  # the Planet Breaker
    "weapons_held", "weapon_planets_controlled",  # the Peacekeeper
    "banner_on_map",  # the Hegemon
    "seats_controlled", "fief_cities",  # the Warden
    # the C Fates' final objectives (Overlord, Redeemer, Guardian; the Conspirator's and Judge's below)
    "outrage_resource_type_held", "outrage_planet_type_controlled", "once", "relic_shattered",
    "material_fuel_in_captives", "material_fuel_planet_controlled",
    "captive_or_bunker_fewer", "blight_crisis_at_bunker",  # the Survivalist
    "controlled_system_with_fresh_blight",  # the Naturalist
    "conspiracy_scored", "conspiracy_guessed_wrong",  # the Conspirator
    "ambition_tied_for_first",  # the Judge
    "passage_token_on_map",  # the Gate Wraith
}
CONDITIONS = {
    "regent", "outlaw", "first_regent", "winning_ambition", "has_guild_overseers", "no_outrage_for_ambition",
    "using_peoples_hero", "ambition_has_ideal",
    "won_or_undeclared_keeper", "won_or_undeclared_tyrant", "won_or_undeclared_edenguard",
    "won_or_undeclared_blightkin",  # the Naturalist
    "won_an_ambition",  # the Hegemon
    "controls_twisted_passage",  # the Gate Wraith
}


class Objective(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The Objective side of an objective card: an Act I/II objective (marker and advances),
    an Act III grand ambition pair, or a C Fate's final objective."""

    kind: Literal["objective", "grand", "final"]
    names: list[str]
    start: int | None = None                  # the printed start space for every player count, where known
    start_by_players: dict[str, int] = {}     # or one per player count ("2", "3", "4")
    advances: list[Advance] = []
    goals: list[str] = []                     # grand ambitions: rules functions checking each goal


class FateCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str                            # "F" + Fate number + card number, as the card library
    number: int                        # the card's number within its Fate Set
    name: str
    kind: Kind
    act: int                           # the act the card library marks it with
    suit: Resource | None = None
    raid_cost: int = 0
    protected: bool = False
    reprint_of: str = ""               # a base (BCnn), campaign (CCnn) or Fate Set card id
    abilities: list[Effect] = []
    objective: Objective | None = None  # setup cards: their Objective side


class Fate(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    number: int
    name: str
    letter: Letter
    complexity: int
    cards: list[FateCard]
    effects_complete: bool = False     # every card's effects are data (else only its facts)


class FateFile(msgspec.Struct, forbid_unknown_fields=True):
    note: str
    fates: list[Fate]


class Box(msgspec.Struct):
    """The campaign box, validated."""

    box: BoxData
    campaign: CampaignData
    empire: EmpireData
    events: EventData
    court: dict[str, CourtCard]
    fates: dict[str, Fate]

    @property
    def fate_cards(self) -> dict[str, FateCard]:
        return {c.id: c for f in self.fates.values() for c in f.cards}

    def fates_by_letter(self, letter: str) -> list[Fate]:
        return [f for f in self.fates.values() if f.letter == letter]

    def effects_of(self, card_id: str) -> list:
        """A card's effects with its reprint's first: base `Ability`s for a BCnn reprint,
        campaign `Effect`s otherwise (a reprint of a reprint is followed)."""
        card = self.court.get(card_id) or self.fate_cards[card_id]
        base: list = []
        if card.reprint_of.startswith("BC"):
            base = list(arcs_box().court[card.reprint_of].abilities)
        elif card.reprint_of:
            base = self.effects_of(card.reprint_of)
        return base + list(card.abilities)


# -- checks -----------------------------------------------------------------------------


def _check_effects(where: str, effects: list[Effect], known_cards: set[str]) -> None:
    for i, ab in enumerate(effects):
        here = f"{where}.abilities[{i}]"
        for needed in OP_NEEDS.get(ab.do, ()):
            require(bool(getattr(ab, needed)), f"{here}: {ab.do} needs {needed}")
        if ab.when in ("new_action", "copy"):
            require(ab.action is not None, f"{here}: {ab.when} needs action")
        for card in ab.cards:
            require(card in known_cards, f"{here}.cards: unknown card id {card}")


def _check_court(court: dict[str, CourtCard], known: set[str], where: str) -> None:
    base = arcs_box().court
    for card in court.values():
        here = f"{where}: {card.id}"
        if card.kind == "guild":
            require(card.suit is not None, f"{here}.suit: a Guild card has a suit")
            require((card.raid_cost > 0) != card.protected,
                    f"{here}.raid_cost: a Guild card has a raid cost or is protected, not both")
        else:
            require(card.suit is None and card.raid_cost == 0 and not card.protected,
                    f"{here}.suit: a Vox card has no suit and no raid cost")
        if card.reprint_of:
            require(card.reprint_of in base or card.reprint_of in known, f"{here}.reprint_of: unknown card {card.reprint_of}")
        require(bool(card.abilities) or bool(card.reprint_of), f"{here}.abilities: a Court card needs effects")
        _check_effects(here, card.abilities, known)


def _check_fates(f: FateFile, court_ids: set[str]) -> dict[str, Fate]:
    where = "fates.json"
    fates = {x.id: x for x in f.fates}
    require(len(fates) == len(f.fates), f"{where}: Fate ids must be unique")
    require(sorted(x.number for x in f.fates) == list(range(1, 25)), f"{where}: Fates are numbered 1-24")  # BR-001
    all_cards = [c.id for x in f.fates for c in x.cards]
    require(len(all_cards) == len(set(all_cards)), f"{where}: card ids must be unique")
    known = set(court_ids) | set(all_cards)
    base = set(arcs_box().court)
    for fate in f.fates:
        require(fate.id == f"FATE{fate.number:02d}", f"{where}: {fate.id}.id: expected FATE{fate.number:02d}")
        letter = "ABC"[(fate.number - 1) // 8]
        require(fate.letter == letter, f"{where}: {fate.id}.letter: Fate {fate.number} is an {letter} Fate")
        numbers = [c.number for c in fate.cards]
        require(numbers == list(range(1, len(numbers) + 1)), f"{where}: {fate.id}.cards: numbered 1..N in order")  # BR-002
        require(bool(fate.cards) and fate.cards[0].kind == "setup", f"{where}: {fate.id}.cards[0]: the first card is the objective card")
        for card in fate.cards:
            here = f"{where}: {card.id}"
            require(card.id == f"F{fate.number}{card.number:02d}", f"{here}.id: expected F{fate.number}{card.number:02d}")
            require(1 <= card.act <= 3, f"{here}.act: acts are 1-3")
            if card.kind == "guild":
                require(card.suit is not None and (card.raid_cost > 0) != card.protected,
                        f"{here}.raid_cost: a Guild card has a suit and a raid cost or protection")
            if card.reprint_of:
                require(card.reprint_of in base or card.reprint_of in known, f"{here}.reprint_of: unknown card {card.reprint_of}")
            if card.kind == "setup":
                require(card.objective is not None, f"{here}.objective: an objective card has an Objective side")
            _check_effects(here, card.abilities, known)
            if fate.effects_complete and card.kind != "action":
                require(bool(card.abilities) or bool(card.reprint_of), f"{here}.abilities: missing in a complete Fate")
            if card.objective is not None:
                for adv in card.objective.advances:
                    require(adv.per in ADVANCE_COUNTS, f"{here}.objective.advances: unknown count {adv.per}")
                    require(all(c in CONDITIONS for c in adv.only_if), f"{here}.objective.advances: unknown condition in {adv.only_if}")
                kind = "objective" if card.act < 3 else ("final" if fate.letter == "C" else "grand")
                require(card.objective.kind == kind, f"{here}.objective.kind: an Act {card.act} {fate.letter} Fate has a {kind}")  # BR-098, BR-106
                obj = card.objective
                require(kind != "grand" or (obj.start is None and not obj.start_by_players),
                        f"{here}.objective: grand ambitions use no marker, so no start space")  # BR-098
                require(obj.start is None or not obj.start_by_players,
                        f"{here}.objective: one start for every count or one per count, not both")
                require(not obj.start_by_players or sorted(obj.start_by_players) == ["2", "3", "4"],
                        f"{here}.objective.start_by_players: a start for 2, 3 and 4 players")  # BR-085
                if kind == "grand" and fate.effects_complete:
                    require(len(card.objective.goals) == 2, f"{here}.objective.goals: two grand ambitions")  # BR-098
    return fates


def load_box(folder: Path = DEFAULT_BOX) -> Box:
    """Load and check a campaign folder; raise `ContentError` naming file and field."""
    box = load_json(folder / "box.json", BoxData)
    campaign = load_json(folder / "setup.json", CampaignData)
    empire = load_json(folder / "empire.json", EmpireData)
    events = load_json(folder / "events.json", EventData)
    court_list = load_json(folder / "court.json", CardFile[CourtCard]).cards
    court = {c.id: c for c in court_list}
    require(len(court) == len(court_list), "court.json: card ids must be unique")
    require(sorted(court) == [f"CC{n:02d}" for n in range(1, 16)], "court.json: the campaign Court is CC01-CC15")  # BR-005
    fate_file = load_json(folder / "fates.json", FateFile)
    fates = _check_fates(fate_file, set(court))
    known = set(court) | {c.id for f in fates.values() for c in f.cards}
    _check_court(court, known, "court.json")
    guild = [c for c in court.values() if c.kind == "guild"]
    require(len(guild) == box.counts["court_guild"] and len(court) - len(guild) == box.counts["court_vox"],
            "court.json: Guild and Vox counts differ from box.json counts")
    empire_ids = {c.id for c in empire.cards}
    require(len(empire_ids) == len(empire.cards), "empire.json: card ids must be unique")
    for card in empire.cards:
        _check_effects(f"empire.json: {card.id}", card.abilities, known)
        if card.flip_side:
            require(card.flip_side in empire_ids, f"empire.json: {card.id}.flip_side: unknown card {card.flip_side}")
    for p in empire.policies:
        require(p.id in empire_ids, f"empire.json: policy {p.name}.id: unknown card {p.id}")
        require(bool(p.demand_resources) != bool(p.demand_pieces), f"empire.json: policy {p.name}: demands resources or pieces")
    _check_effects("events.json: card", events.card.abilities, known)
    require(events.copies == box.counts["event_cards"], "events.json: copies differ from box.json event_cards")
    require(len(box.event_die_faces) == 6 and all(k in box.event_die_kinds and s in box.event_die_symbols
                                                  for k, s in box.event_die_faces),
            "box.json: the event die has six faces, each a kind and a symbol of the die")
    for act, n in campaign.chapters_per_act.items():
        require(n > 0, f"setup.json: chapters_per_act.{act}: at least one chapter")
    return Box(box=box, campaign=campaign, empire=empire, events=events, court=court, fates=fates)


@lru_cache(maxsize=4)
def default_box() -> Box:
    return load_box(DEFAULT_BOX)
