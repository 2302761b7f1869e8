"""Typed GraphQL view of the Dilemmas module state."""
from __future__ import annotations

import strawberry
from strawberry.scalars import JSON


@strawberry.type
class VoteTokens:
    seat: int
    tokens: int


@strawberry.type
class DilemmaVote:
    card: str
    sides: JSON
    committed: JSON
    out: list[int]
    queen: str | None


@strawberry.type
class DilemmaResult:
    card: str
    winner: str
    round: int
    in_favor: int
    against: int


@strawberry.type
class DilemmasState:
    module: str
    current: str | None
    lasting: str | None
    deck_count: int
    done: list[str]
    tokens: list[VoteTokens]
    vote: DilemmaVote | None
    results: list[DilemmaResult]


def from_view(m: dict) -> DilemmasState:
    z = m["zones"]
    v = m.get("vote")
    return DilemmasState(
        module="dilemmas", current=z["current"][0] if z["current"] else None,
        lasting=(m["lasting"] or {}).get("card"), deck_count=z["deck"], done=z["done"],
        tokens=[VoteTokens(seat=int(s), tokens=n) for s, n in m["tokens"].items()],
        vote=DilemmaVote(card=v["card"], sides=v["sides"], committed=v["committed"], out=v["out"], queen=v["queen"])
        if v else None,
        results=[DilemmaResult(card=r["card"], winner=r["winner"], round=r["round"], in_favor=r["counts"]["in_favor"],
                               against=r["counts"]["against"]) for r in m["results"]],
    )
