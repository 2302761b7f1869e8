"""How the Arcs browser test chooses what to click: a deterministic choice among a seat's legal
actions (as the API lists them) that steers a game towards the view's controls the test must
exercise (a move, a battle with hits to assign, a build, a secure, a declaration), passing once
they are all used so two chapters stay short. The test clicks the chosen action in the view."""
from __future__ import annotations

SUIT_ACTIONS = {"administration": {"tax", "repair", "influence"}, "aggression": {"battle", "move", "secure"},
                "construction": {"build", "repair"}, "mobilization": {"move", "influence"}}
SUITS = {"ADM": "administration", "AGG": "aggression", "CON": "construction", "MOB": "mobilization"}
PIPS = {1: 4, 2: 4, 3: 3, 4: 3, 5: 3, 6: 2, 7: 1}
FEATURES = ("declare", "move", "counts", "battle", "hits", "build", "secure")


def suit_of(card: str) -> str:
    return SUITS.get(card[:3], "")


def number_of(card: str) -> int:
    return int(card[3:]) if card[3:].isdigit() else 0


def wanted(needs: set[str], state: dict, seat: int) -> set[str]:
    """The actions that would help with what the test still needs."""
    out = set()
    if needs & {"move", "counts"}:
        out.add("move")
    if needs & {"battle", "hits"}:
        out |= {"battle", "move"}
    if "build" in needs:
        out.add("build")
    if "secure" in needs:
        out |= {"secure", "influence"}
    return out


def rival_pieces(state: dict, system: str, seat: int) -> bool:
    here = state["systems"].get(system) or {}
    ships = here.get("ships", [])
    return any(i != seat and (s[0] + s[1]) > 0 for i, s in enumerate(ships)) or \
        any(b[1] != seat for b in here.get("buildings", []))


def choose(state: dict, legal: list[dict], seat: int, needs: set[str]) -> tuple[dict, str | None]:
    """(the action to take, the feature it uses or None)."""
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for hits in ("assign_hits", "assign_building_hits"):
        if hits in by_type:
            return by_type[hits][0], "hits"
    if "declare" in by_type:
        if "declare" in needs:
            return next(a for a in by_type["declare"] if a["params"]["ambition"]), "declare"
        return next(a for a in by_type["declare"] if not a["params"]["ambition"]), None
    if "seize" in by_type:
        return next(a for a in by_type["seize"] if not a["params"]["card"]), None
    if "lead" in by_type or "pass" in by_type:
        return _lead(state, by_type, seat, needs), None
    if "play" in by_type:
        return _follow(state, by_type["play"], seat, needs), None
    if "act" in by_type:
        return _act(state, by_type["act"], seat, needs)
    first = sorted(by_type)[0]
    return by_type[first][0], None


def _lead(state, by_type, seat, needs):
    """With something still to exercise, lead the card that helps most; with nothing left,
    pass (so the chapter ends by passes), after one round led in each chapter past the first."""
    leads = by_type.get("lead", [])
    passing = by_type.get("pass", [])
    done_here = not needs and (state["chapter"] == 1 or _chapter_rounds(state) >= 1)
    if passing and (done_here or not leads):
        return passing[0]
    want = wanted(needs, state, seat)

    def score(a):
        card = a["params"]["card"]
        helps = len(SUIT_ACTIONS.get(suit_of(card), set()) & want)
        return (helps, PIPS.get(number_of(card), 0), -number_of(card))
    return max(leads, key=score)


def _chapter_rounds(state) -> int:
    """Rounds led in this chapter (the view keeps the round count for the whole game; a
    chapter's first round is the one after the chapter's first deal: the hands are still full
    when no card has been led yet)."""
    return 6 - max(state.get("hand_counts") or [0])


def _follow(state, plays, seat, needs):
    want = wanted(needs, state, seat)
    lead = state.get("lead", "")

    def score(a):
        card, kind = a["params"]["card"], a["params"]["kind"]
        if kind == "surpass":
            actions, pips = SUIT_ACTIONS.get(suit_of(card), set()), PIPS.get(number_of(card), 0)
        elif kind == "pivot":
            actions, pips = SUIT_ACTIONS.get(suit_of(card), set()), 1
        else:
            actions, pips = SUIT_ACTIONS.get(suit_of(lead), set()), 1
        return (len(actions & want), pips)
    return max(plays, key=score)


def _act(state, acts, seat, needs):
    pip = [a for a in acts if a["params"].get("pay", -1) == -1]
    kind = lambda k: [a for a in pip if a["params"]["act"] == k]  # noqa: E731
    done = next(a for a in acts if a["params"]["act"] == "done")
    if needs & {"battle", "hits"} and kind("battle"):
        return max(kind("battle"), key=lambda a: (a["params"]["assault"], a["params"]["skirmish"])), "battle"
    if "secure" in needs and kind("secure"):
        return kind("secure")[0], "secure"
    if "build" in needs and kind("build"):
        builds = kind("build")
        return next((a for a in builds if a["params"]["what"] == "ship"), builds[0]), "build"
    moves = kind("move")
    if moves and needs & {"battle", "hits"}:
        into = [a for a in moves if rival_pieces(state, a["params"]["path"][-1], seat)]
        if into:
            return max(into, key=lambda a: a["params"]["fresh"] + a["params"]["damaged"]), "move"
    if moves and "counts" in needs:
        one = [a for a in moves if a["params"]["fresh"] == 1 and a["params"]["damaged"] == 0
               and state["systems"][a["params"]["origin"]]["ships"][seat][0] > 1]
        if one:
            return one[0], "counts"
    if moves and "move" in needs:
        return moves[0], "move"
    if "secure" in needs and kind("influence"):
        row = [c for c in state["court_row"] if c]
        mine = state["court_agents"]
        best = max(kind("influence"), key=lambda a: (mine.get(a["params"]["card"], [0] * 4)[seat], -row.index(a["params"]["card"])))
        return best, "influence"
    return done, None
