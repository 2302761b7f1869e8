"""Typed GraphQL view of a Queen's Dilemma table, built from the viewer's redacted view.

What another viewer may not see is null for them, with a count or a flag beside it
(`ideologyCard`/`hasIdeologyCard`, `investment`/`hasInvestment`, a Diary's `agendas`/
`agendaCount`); the Dilemma deck is only ever a count.
"""
from __future__ import annotations

import strawberry

from plugins.queens_dilemma.scoring import infamy_tier


@strawberry.type(name="QdResources")
class Resources:
    gold: int
    food: int
    army: int
    materials: int


@strawberry.type(name="QdSlider")
class Slider:
    axis: str
    position: int


@strawberry.type(name="QdTokens")
class Tokens:
    ideology: str
    count: int


@strawberry.type(name="QdBoard")
class Board:
    sliders: list[Slider]
    tokens: list[Tokens]


@strawberry.type(name="QdPush")
class Push:
    ideology: str
    n: int


@strawberry.type(name="QdOutcomeFront")
class OutcomeFront:
    pushes: list[Push]
    legacy: str


@strawberry.type(name="QdMarkers")
class Markers:
    blue: OutcomeFront
    red: OutcomeFront


@strawberry.type(name="QdResolved")
class Resolved:
    dilemma: str
    side: str


@strawberry.type(name="QdCouncilor")
class Councilor:
    seat: int
    power: int
    hegemony: int
    independence: int
    infamy: int
    resources: Resources
    ideology_card: str | None
    has_ideology_card: bool
    investment: str | None
    has_investment: bool
    heraldry: int
    absent: bool


@strawberry.type(name="QdTile")
class Tile:
    seat: int
    side: str
    power: int
    pass_action: str


@strawberry.type(name="QdVote")
class Vote:
    tiles: list[Tile]
    moderator_taken: bool
    gatherers: list[int]


@strawberry.type(name="QdChronicle")
class Chronicle:
    code: str
    herald: int | None
    instant: bool
    slot_taken_by: int | None
    tokens: int


@strawberry.type(name="QdBuilding")
class Building:
    code: str
    region: str


@strawberry.type(name="QdSkill")
class Skill:
    code: str
    used: int


@strawberry.type(name="QdAgenda")
class Agenda:
    code: str
    deadline: int | None


@strawberry.type(name="QdDiary")
class Diary:
    seat: int
    character: str
    regions: list[str]
    vassals: list[str]
    buildings: list[Building]
    keywords: list[str]
    skills: list[Skill]
    agendas: list[Agenda] | None
    agenda_count: int
    hegemony: int
    independence: int
    infamy: int
    infamy_tier: int
    resources: Resources
    fate: str
    defected: bool


@strawberry.type(name="QdEnding")
class Ending:
    storyline: int
    code: str


@strawberry.type(name="QdFinalScore")
class FinalScore:
    seat: int
    character: str
    total: int
    rank: int


@strawberry.type(name="QdCampaign")
class Campaign:
    players: int
    games_played: int
    deck_count: int
    stories: list[str]
    endings: list[Ending]
    diaries: list[Diary]
    opened: list[str]
    modules: list[str]
    finale_next: bool
    finale_played: bool
    final: list[FinalScore]


@strawberry.type(name="QueensDilemmaState")
class QueensDilemmaState:
    game_number: int
    leader: int
    moderator: int
    power_pool: int
    board: Board
    dilemma: str | None
    markers: Markers | None
    round_counter: list[Resolved]
    councilors: list[Councilor]
    vote: Vote | None
    chronicles: list[Chronicle]
    events: list[str]
    end_triggered: bool
    finale: bool
    campaign: Campaign


def _front(data: dict) -> OutcomeFront:
    return OutcomeFront(pushes=[Push(**p) for p in data["pushes"]], legacy=data["legacy"])


def _councilor(c: dict) -> Councilor:
    card, investment = c["ideology_card"], c["investment"]
    return Councilor(
        seat=c["seat"], power=c["power"], hegemony=c["hegemony"], independence=c["independence"],
        infamy=c["infamy"], resources=Resources(**c["resources"]),
        ideology_card=card if isinstance(card, str) and card else None, has_ideology_card=bool(card),
        investment=investment if isinstance(investment, str) and investment else None,
        has_investment=bool(investment), heraldry=c["heraldry"], absent=c["absent"],
    )


def _diary(d: dict) -> Diary:
    agendas = d["agendas"]
    return Diary(
        seat=d["seat"], character=d["character"], regions=d["regions"], vassals=d["vassals"],
        buildings=[Building(code=k, region=v) for k, v in d["buildings"].items()], keywords=d["keywords"],
        skills=[Skill(**s) for s in d["skills"]],
        agendas=[Agenda(**a) for a in agendas] if isinstance(agendas, list) else None,
        agenda_count=len(agendas) if isinstance(agendas, list) else agendas,
        hegemony=d["hegemony"], independence=d["independence"], infamy=d["infamy"],
        infamy_tier=infamy_tier(d["infamy"]), resources=Resources(**d["resources"]), fate=d["fate"],
        defected=d["defected"],
    )


def from_view(view: dict) -> QueensDilemmaState:
    c = view["campaign"]
    vote = view["vote"]
    return QueensDilemmaState(
        game_number=view["game_number"], leader=view["leader"], moderator=view["moderator"],
        power_pool=view["power_pool"],
        board=Board(sliders=[Slider(axis=k, position=v) for k, v in view["board"]["sliders"].items()],
                    tokens=[Tokens(ideology=k, count=v) for k, v in view["board"]["tokens"].items()]),
        dilemma=view["dilemma"] or None,
        markers=Markers(blue=_front(view["markers"]["blue"]), red=_front(view["markers"]["red"]))
        if view["markers"] else None,
        round_counter=[Resolved(dilemma=d, side=s) for d, s in view["round_counter"]],
        councilors=[_councilor(x) for x in view["councilors"]],
        vote=Vote(tiles=[Tile(seat=i, side=t["side"], power=t["power"], pass_action=t["pass_action"])
                         for i, t in enumerate(vote["tiles"])],
                  moderator_taken=vote["moderator_taken"], gatherers=vote["gatherers"]) if vote else None,
        chronicles=[Chronicle(**ch) for ch in view["chronicles"]],
        events=view["events_active"], end_triggered=view["end_triggered"], finale=view["finale"],
        campaign=Campaign(
            players=c["players"], games_played=c["games_played"], deck_count=c["deck"], stories=c["stories"],
            endings=[Ending(storyline=int(k), code=v) for k, v in sorted(c["endings"].items())],
            diaries=[_diary(d) for d in c["diaries"]], opened=c["opened"], modules=c["modules"],
            finale_next=c["finale_next"], finale_played=c["finale_played"],
            final=[FinalScore(seat=f["seat"], character=f["character"], total=f["total"], rank=f["rank"])
                   for f in c["final"]],
        ),
    )
