"""The Queen's Dilemma campaign box: its schema, its one effect vocabulary and its checks.

Every card, sticker, envelope and box is data (rulings QD-R1..R4): the real codes the
rulebook gives (starting agendas, envelope 00, the Age of Disorder envelopes DAOD, CAOD and
AAOD1-6) and the project's own demo campaign for everything else, marked `"demo": true`.

Effects: an `Effect` is one printed effect (gain/lose an amount, push an Ideology, or a
code that opens or unlocks a Legacy element); a `Box` is a "Keyword: effects" box — who it
targets, an optional Chronicle trigger, and its effects in printed order (QD-201, QD-293).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import msgspec

from core.content import load_json, require
from plugins.queens_dilemma.scoring import AXES, IdeologyCard

DEFAULT_BOX = Path(__file__).parent / "content"
RESOURCES = ("gold", "food", "army", "materials")          # QD-077: Power is not a Resource
POINTS = ("hegemony", "independence", "infamy")
IDEOLOGIES = tuple(i for pair in AXES for i in pair)
CHARACTERS = ("Aesyas", "Elinor", "Jilian", "Lyrie", "Syd", "Xanthe")
BUILDING_TYPES = ("commercial", "military", "welfare", "entertainment", "corruption")  # QD-310
COLOURS = ("red", "blue")
BANDS = ("instant", "pass_action", "pass_bonus", "voting", "end_of_game",
         "ideology_scoring", "power_scoring", "investment", "tax")  # QD-322..332
TRIGGERS = ("win", "max", "lose")                                   # QD-365..367
# Who a Box targets (QD-202, QD-368..373); any other string is a Keyword (a Character,
# a Region or a Narrative Keyword's name).
TARGET_KINDS = ("players", "winners", "leader", "moderator", "self",
                "majority", "minority", "buildings", "scoring_for")

# Codes by prefix (QD-296..298, with the real AoD codes and 4-digit Agenda codes).
CODE_PATTERNS = {
    "envelope": r"\d{2}|[DCA]AOD",
    "mystery": r"M\d{2}",
    "agenda": r"A\d{3}|AAOD[1-6]",
    "chronicle": r"C\d{3}|CAOD[1-4]",
    "building": r"B\d{2}",
    "keyword": r"K\d{2}",
    "skill": r"S\d{2}",
    "ending": r"END\d{2}",
}

EffectOp = Literal[
    "gain",       # + n of `what` (a Resource, power, hegemony, independence, infamy)
    "lose",       # - n of `what` (a Resource: a forced payment, QD-277; power: to the Pool, QD-275)
    "push",       # move the Slider n spaces toward `ideology` and add its Hegemony token
    "envelope", "mystery", "agenda", "chronicle", "building", "keyword", "skill", "ending",
    "ongoing",    # draw a random Ongoing Agenda card (the last line of an Epilogue)
    "fate",       # mark the Character's Fate (`fate` names the space)
]


class Effect(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    op: EffectOp
    what: str = ""
    n: int = 1
    bag: bool = False        # the amount is the current Timeline space's Bag value (QD-345)
    ideology: str = ""
    code: str = ""
    fate: str = ""


class Trigger(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    when: Literal["win", "max", "lose"]
    ideology: str


class Box(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    to: str = "self"
    of: str = ""             # majority/minority: what is counted; buildings: the type; scoring_for: the Ideology
    at_least: int = 1        # buildings: how many of the type
    trigger: Trigger | None = None
    effects: list[Effect] = []


class Push(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    ideology: str
    n: int


class Outcome(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    """One side of a Dilemma. `pushes` and `legacy` are printed on the front (public,
    QD-136); the rest is the back, secret until this side wins (QD-066, QD-138)."""

    pushes: list[Push] = []
    legacy: Literal["", "positive", "negative", "uncertain"] = ""
    text: str = ""
    boxes: list[Box] = []
    envelopes: list[str] = []
    mysteries: list[str] = []
    sand_timer: bool = False


class Dilemma(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    id: str
    title: str
    text: str
    aye: Outcome
    nay: Outcome
    keywords: list[str] = []  # highlighted on the front (QD-135)
    finale: bool = False
    demo: bool = True


class Story(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    id: str
    storyline: int
    number: int
    title: str
    text: str
    boxes: list[Box] = []
    mysteries: list[str] = []
    ending: str = ""          # a gold-on-black final card: the Leader attaches this Ending (QD-211)
    demo: bool = True


class Envelope(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    story: str = ""
    dilemmas: list[str] = []
    chronicles: list[str] = []
    agendas: list[str] = []
    demo: bool = True


class Ending(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    storyline: int
    title: str
    scales: int
    text: str
    demo: bool = True


class FinaleScoring(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """QD-R4 (data): weights for a stable and an unstable Kingdom, the Infamy penalty per tier."""

    stable: dict[str, int]
    unstable: dict[str, int]
    infamy_penalty_per_tier: int


class Mystery(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    title: str
    warning: str
    dilemmas: list[str] = []
    events: list[str] = []
    chronicles: list[str] = []
    boxes: list[Box] = []
    finale: FinaleScoring | None = None
    demo: bool = True


class CardAction(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    """A Pass Action or Pass Bonus printed on a Chronicle or Event card, or on a Skill."""

    kind: Literal["pass_action", "pass_bonus"]
    cost: dict[str, int] = {}
    effects: list[Effect] = []
    spaces: int | None = None   # Pass Action spaces; None: no spaces, no limit (QD-159, QD-195)
    stack: bool = False         # the stacking icon: any number of tokens (QD-193)
    requires_keyword: str = ""  # a printed restriction: only a holder of this Keyword (QD-161)


class Chronicle(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    title: str
    text: str
    bands: list[str]
    herald: str = "brand"       # "brand": Branded by whoever unlocks it; "none"; or a pre-printed Character
    herald_effects: list[Effect] = []
    boxes: list[Box] = []       # the main effect, applied in each band's phase
    action: CardAction | None = None
    investment_kind: str = ""   # an Investment-band effect limited to one kind (QD-330)
    duration: int | None = None  # None: no Duration Track, never expires (QD-341)
    ending: str = ""            # from a Storyline ending: no track, never expires (QD-342)
    demo: bool = True


class Event(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    id: str
    number: int
    title: str
    text: str
    setup: list[Box] = []
    resolve: list[Box] = []
    action: CardAction | None = None
    token: Literal["return", "keep"] = "return"   # what happens to a Heraldry token after its action (QD-194)
    games: int | None = None                      # how many games it stays active (None: until the campaign ends)
    demo: bool = True


class CrossroadOption(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    label: str
    effects: list[Effect]


class Agenda(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    kind: Literal["storyline", "crossroad", "epilogue", "ongoing", "general"]
    title: str
    text: str
    character: str = ""          # a Character storyline card (QD-344); "" for general/ongoing
    goal: str = ""
    cost: dict[str, int] = {}    # Resources to spend
    bag: str = ""                # ... plus the Bag value in this Resource (QD-345)
    deadline: int | None = None  # None on a storyline/general card: current game + 3 (QD-354)
    success: list[Effect] = []
    failure: list[Effect] = []
    options: list[CrossroadOption] = []  # crossroad
    reward: list[Effect] = []            # epilogue: gained at once (QD-350)
    demo: bool = True


class Skill(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    title: str
    text: str
    action: CardAction
    uses: int | None = None     # the Activation Track; None: unlimited (QD-303, QD-304)
    demo: bool = True


class Building(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    type: str
    colour: str
    produces: list[str]          # two entries: the owner picks one each time (QD-312)
    n: int = 1
    region: str = ""             # a black box naming where it must go (QD-309)
    location: str = ""
    demo: bool = True


class Region(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    name: str
    type: str
    colour: str
    produces: list[str]
    n: int = 1
    demo: bool = True


class Keyword(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    code: str
    name: str
    text: str
    demo: bool = True


class Character(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    name: str
    title: str
    ideologies: list[str]
    starting_agenda: str
    aod_agenda: str


class Investment(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    id: str
    resource: str
    success: list[Effect]
    failure: list[Effect]
    demo: bool = True


class TimelineSpace(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    game: int
    colour: str
    bag: int
    taxed: str


class Board(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Printed board facts the rulebook does not number (ruling QD-R1 and the map)."""

    track_half: int            # spaces on each side of the centre (demo 4)
    silver: int                # spaces each side of the centre that are silver (1)
    round_slots: int           # 9 (QD-217)
    sand_slots: list[int]      # [7, 8, 9]
    brown_slots: int           # 5 (QD-099)
    chronicle_draw: int        # 10 (QD-096)
    heraldry_tokens: int       # 6 per player (QD-196)
    skill_spaces: int
    keyword_spaces: int
    storylines: int            # 7 (QD-361)
    starting_power: int        # 7 (QD-091)
    pool_power: int            # 3 (QD-078)
    demo: bool = True


class CampaignBox(msgspec.Struct, frozen=True):
    board: Board
    characters: dict[str, Character]
    regions: dict[str, Region]
    timeline: list[TimelineSpace]
    ideology_cards: dict[str, IdeologyCard]
    investments: dict[str, Investment]
    dilemmas: dict[str, Dilemma]
    stories: dict[str, Story]
    envelopes: dict[str, Envelope]
    endings: dict[str, Ending]
    mysteries: dict[str, Mystery]
    events: dict[str, Event]
    chronicles: dict[str, Chronicle]
    agendas: dict[str, Agenda]
    skills: dict[str, Skill]
    buildings: dict[str, Building]
    keywords: dict[str, Keyword]

    def keyword_names(self) -> set[str]:
        """Every Keyword a Box may name: Characters, Regions and Narrative Keywords."""
        return set(self.characters) | set(self.regions) | {k.name for k in self.keywords.values()}


FILES = {  # file name -> (field, item type, key attribute)
    "dilemmas.json": ("dilemmas", Dilemma, "id"),
    "stories.json": ("stories", Story, "id"),
    "envelopes.json": ("envelopes", Envelope, "code"),
    "endings.json": ("endings", Ending, "code"),
    "mysteries.json": ("mysteries", Mystery, "code"),
    "events.json": ("events", Event, "id"),
    "chronicles.json": ("chronicles", Chronicle, "code"),
    "agendas.json": ("agendas", Agenda, "code"),
    "skills.json": ("skills", Skill, "code"),
    "buildings.json": ("buildings", Building, "code"),
    "keywords.json": ("keywords", Keyword, "code"),
    "regions.json": ("regions", Region, "name"),
    "characters.json": ("characters", Character, "name"),
    "ideology_cards.json": ("ideology_cards", IdeologyCard, "id"),
    "investments.json": ("investments", Investment, "id"),
}


def load_box(folder: Path = DEFAULT_BOX) -> CampaignBox:
    """Load and check a campaign box; a bad file raises ContentError naming file and field."""
    known = set(FILES) | {"board.json", "timeline.json"}
    for path in sorted(folder.glob("*.json")):
        require(path.name in known, f"{path.name}: unknown content file (expected one of {sorted(known)})")
    parts: dict = {"board": load_json(folder / "board.json", Board),
                   "timeline": load_json(folder / "timeline.json", list[TimelineSpace])}
    for name, (field, item, key) in FILES.items():
        items = load_json(folder / name, list[item])
        keyed = {getattr(x, key): x for x in items}
        require(len(keyed) == len(items), f"{name}: two entries share a {key}")
        parts[field] = keyed
    box = CampaignBox(**parts)
    check(box)
    return box


@lru_cache(maxsize=4)
def default_box() -> CampaignBox:
    return load_box(DEFAULT_BOX)


def check(box: CampaignBox) -> None:
    """Cross-file checks: codes well formed and present, targets known, facts the rulebook gives."""
    for kind, pattern in CODE_PATTERNS.items():
        table = {"envelope": box.envelopes, "mystery": box.mysteries, "agenda": box.agendas,
                 "chronicle": box.chronicles, "building": box.buildings, "keyword": box.keywords,
                 "skill": box.skills, "ending": box.endings}[kind]
        for code in table:
            require(re.fullmatch(pattern, code) is not None, f"{kind} code {code!r} does not match {pattern}")
    known = box.keyword_names()
    where = "characters.json"
    require(sorted(box.characters) == sorted(CHARACTERS), f"{where}: the six Characters are {CHARACTERS}")
    for c in box.characters.values():
        require(all(i in IDEOLOGIES for i in c.ideologies), f"{where}: {c.name}.ideologies: unknown Ideology")
        require(c.starting_agenda in box.agendas, f"{where}: {c.name}.starting_agenda {c.starting_agenda} is not in agendas.json")
    for r in box.regions.values():
        _building_facts("regions.json", r.name, r.type, r.colour, r.produces)
    for b in box.buildings.values():
        _building_facts("buildings.json", b.code, b.type, b.colour, b.produces)
        require(not b.region or b.region in box.regions, f"buildings.json: {b.code}.region {b.region!r} is not a Region")
    for t in box.timeline:
        require(t.colour in COLOURS and t.taxed in ("army", "food", "materials"),
                f"timeline.json: game {t.game}: colour must be red/blue, taxed army/food/materials (QD-080)")
    require([t.game for t in box.timeline] == list(range(1, len(box.timeline) + 1)), "timeline.json: games must be 1, 2, 3, ...")
    for card in box.ideology_cards.values():
        require(card.character in box.characters, f"ideology_cards.json: {card.id}.character {card.character!r} unknown")
        for f in card.favored:
            require(f.ideology in IDEOLOGIES, f"ideology_cards.json: {card.id}.favored: unknown Ideology {f.ideology!r}")
        for b in card.balanced:
            require(sorted(b.pair) in [sorted(p) for p in AXES], f"ideology_cards.json: {card.id}.balanced: {b.pair} is not an axis (QD-362)")
    for inv in box.investments.values():
        require(inv.resource in RESOURCES, f"investments.json: {inv.id}.resource must be a Resource")
        _effects(box, known, f"investments.json: {inv.id}", inv.success + inv.failure)
    for d in box.dilemmas.values():
        for side in ("aye", "nay"):
            o: Outcome = getattr(d, side)
            at = f"dilemmas.json: {d.id}.{side}"
            for p in o.pushes:
                require(p.ideology in IDEOLOGIES and p.n >= 0, f"{at}.pushes: bad push {p}")
            _boxes(box, known, at, o.boxes)
            _codes(box, at + ".envelopes", "envelope", o.envelopes)
            _codes(box, at + ".mysteries", "mystery", o.mysteries)
    for s in box.stories.values():
        at = f"stories.json: {s.id}"
        _boxes(box, known, at, s.boxes)
        _codes(box, at + ".mysteries", "mystery", s.mysteries)
        if s.ending:
            _codes(box, at + ".ending", "ending", [s.ending])
            require(box.endings[s.ending].storyline == s.storyline, f"{at}.ending: {s.ending} belongs to another Storyline (QD-364)")
    for e in box.envelopes.values():
        at = f"envelopes.json: {e.code}"
        require(not e.story or e.story in box.stories, f"{at}.story {e.story!r} is not in stories.json")
        _codes(box, at + ".dilemmas", "dilemma", e.dilemmas)
        _codes(box, at + ".chronicles", "chronicle", e.chronicles)
        _codes(box, at + ".agendas", "agenda", e.agendas)
    for e in box.endings.values():
        require(0 <= e.scales <= 2 and 1 <= e.storyline <= box.board.storylines,
                f"endings.json: {e.code}: scales 0-2 and a Storyline 1-{box.board.storylines} (QD-357)")
    for m in box.mysteries.values():
        at = f"mysteries.json: {m.code}"
        _codes(box, at + ".dilemmas", "dilemma", m.dilemmas)
        _codes(box, at + ".events", "event", m.events)
        _codes(box, at + ".chronicles", "chronicle", m.chronicles)
        _boxes(box, known, at, m.boxes)
    for e in box.events.values():
        at = f"events.json: {e.id}"
        _boxes(box, known, at, e.setup + e.resolve)
        if e.action:
            _effects(box, known, at + ".action", e.action.effects)
    for c in box.chronicles.values():
        at = f"chronicles.json: {c.code}"
        require(c.bands and all(b in BANDS for b in c.bands), f"{at}.bands: each must be one of {BANDS}")
        require(c.herald in ("brand", "none") or c.herald in box.characters, f"{at}.herald: 'brand', 'none' or a Character")
        require(("pass_action" in c.bands or "pass_bonus" in c.bands) == (c.action is not None),
                f"{at}.action: a Pass Action/Bonus band needs an action, and only such a band has one")
        _effects(box, known, at + ".herald_effects", c.herald_effects)
        _boxes(box, known, at, c.boxes)
        if c.action:
            _effects(box, known, at + ".action", c.action.effects)
        if c.ending:
            _codes(box, at + ".ending", "ending", [c.ending])
            require(c.duration is None, f"{at}: a Storyline-ending Chronicle has no Duration Track (QD-342)")
    for a in box.agendas.values():
        at = f"agendas.json: {a.code}"
        require(not a.character or a.character in box.characters, f"{at}.character {a.character!r} unknown")
        require(all(r in RESOURCES for r in a.cost) and (not a.bag or a.bag in RESOURCES), f"{at}.cost: Resources only")
        require((a.kind == "crossroad") == bool(a.options), f"{at}.options: only a crossroad has options")
        require(a.kind != "ongoing" or (a.deadline is None and not a.failure), f"{at}: an Ongoing Agenda has no time limit and no Failure (QD-351)")
        _effects(box, known, at, a.success + a.failure + a.reward + [e for o in a.options for e in o.effects])
    for s in box.skills.values():
        _effects(box, known, f"skills.json: {s.code}.action", s.action.effects)
    _building_places(box)


def _building_places(box: CampaignBox) -> None:
    """QD-307..309: a Building goes in one of its target's own Regions, so one printed for a
    fixed place must be given to that Region's Keyword."""
    boxed = [(f"dilemmas.json: {d.id}.{side}", b) for d in box.dilemmas.values() for side in ("aye", "nay")
             for b in getattr(d, side).boxes]
    boxed += [(f"stories.json: {s.id}", b) for s in box.stories.values() for b in s.boxes]
    boxed += [(f"mysteries.json: {m.code}", b) for m in box.mysteries.values() for b in m.boxes]
    boxed += [(f"events.json: {e.id}", b) for e in box.events.values() for b in e.setup + e.resolve]
    boxed += [(f"chronicles.json: {c.code}", b) for c in box.chronicles.values() for b in c.boxes]
    for at, b in boxed:
        for e in b.effects:
            fixed = box.buildings[e.code].region if e.op == "building" else ""
            require(not fixed or b.to == fixed,
                    f"{at}: Building {e.code} stands in {fixed}, so it must go to the {fixed} Keyword, not {b.to!r}")
    loose = [(f"agendas.json: {a.code}", a.success + a.failure + a.reward + [x for o in a.options for x in o.effects])
             for a in box.agendas.values()]
    loose += [(f"investments.json: {i.id}", i.success + i.failure) for i in box.investments.values()]
    loose += [(f"skills.json: {s.code}", s.action.effects) for s in box.skills.values()]
    for at, effects in loose:
        for e in effects:
            require(e.op != "building" or not box.buildings[e.code].region,
                    f"{at}: Building {e.code} has a fixed place; only a Box naming its Region may give it")


def _building_facts(where: str, name: str, type_: str, colour: str, produces: list[str]) -> None:
    require(type_ in BUILDING_TYPES, f"{where}: {name}.type must be one of {BUILDING_TYPES}")
    require(colour in COLOURS, f"{where}: {name}.colour must be red or blue")
    require(1 <= len(produces) <= 2 and all(p in RESOURCES for p in produces),
            f"{where}: {name}.produces: one Resource, or two to choose from")


def _codes(box: CampaignBox, at: str, kind: str, codes: list[str]) -> None:
    table = {"envelope": box.envelopes, "mystery": box.mysteries, "agenda": box.agendas,
             "chronicle": box.chronicles, "building": box.buildings, "keyword": box.keywords,
             "skill": box.skills, "ending": box.endings, "dilemma": box.dilemmas, "event": box.events}[kind]
    for code in codes:
        require(code in table, f"{at}: unknown {kind} {code!r}")


def _boxes(box: CampaignBox, known: set[str], at: str, boxes: list[Box]) -> None:
    for i, b in enumerate(boxes):
        here = f"{at}.boxes[{i}]"
        require(b.to in TARGET_KINDS or b.to in known, f"{here}.to: {b.to!r} is neither a target nor a Keyword")
        if b.to in ("majority", "minority"):
            require(b.of in RESOURCES + POINTS + ("power",), f"{here}.of: what is counted")
        if b.to == "buildings":
            require(b.of in BUILDING_TYPES, f"{here}.of: a Building type")
        if b.to == "scoring_for":
            require(b.of in IDEOLOGIES, f"{here}.of: an Ideology")
        if b.trigger:
            require(b.trigger.ideology in IDEOLOGIES, f"{here}.trigger: unknown Ideology")
        _effects(box, known, here, b.effects)


def _effects(box: CampaignBox, known: set[str], at: str, effects: list[Effect]) -> None:
    for i, e in enumerate(effects):
        here = f"{at}.effects[{i}]"
        if e.op == "gain":
            require(e.what in RESOURCES + POINTS + ("power",), f"{here}: gain what? {e.what!r}")
        elif e.op == "lose":
            # QD-295: points are only ever gained
            require(e.what in RESOURCES + ("power",), f"{here}: lose a Resource or Power, not {e.what!r}")
        elif e.op == "push":
            require(e.ideology in IDEOLOGIES, f"{here}: push which Ideology? {e.ideology!r}")
        elif e.op in CODE_PATTERNS:
            _codes(box, here, e.op, [e.code])
        elif e.op == "fate":
            require(bool(e.fate), f"{here}: a Fate space to mark")
