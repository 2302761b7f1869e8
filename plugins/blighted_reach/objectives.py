"""The Fates' objectives and how the campaign is won: the objective marker on the Power
track (Acts I and II, and a C Fate's final objective in Act III), its advances as fates.json
gives them, the Act III grand ambitions, when an act ends, and the campaign's winner.

Advances are data (`content.Advance`: when / amount / per / only_if). What a `per` counts
and whether an `only_if` holds is answered here for everything the board already says
(`GENERIC_COUNTS`, `GENERIC_CONDITIONS`, `GENERIC_GOALS`); the rest needs a Fate's own rules
and is looked up in the registries `COUNT_RULES`, `CONDITION_RULES` and `GOAL_RULES`, which
the Fates fill. Advances that happen "each time" something happens (`when: "event"`) are
reported by the rule where it happens, with how many times (`advance_on_event`).

Power is a plain int, negative or past the track alike; the track's +50/+100/(-) markers
(BR-091) are only how a table shows it.
"""
from __future__ import annotations

from typing import Callable, Iterable

import msgspec

from core.errors import BadParameter
from core.seats import seat_name
from plugins.arcs.content import Box
from plugins.arcs.scoring import PHANTOM, city_bonus, marker_values, place_gains
from plugins.arcs.scoring import ambition_count as base_count
from plugins.blighted_reach import board, trust
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import Objective
from plugins.blighted_reach.fate_steps import RuleMissing, fate_card
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import FREE, BlightedReachState

OFF_TRACK = -1  # an objective marker not on the Power track (no objective, or grand ambitions)


def turn_order(state: BlightedReachState) -> list[int]:
    n = len(state.players)
    return [(state.initiative + i) % n for i in range(n)]


# -- the objective and its marker (BR-003, BR-085, BR-086) --------------------------------


def current_objective(cbox: CampaignBox, state: BlightedReachState, seat: int) -> Objective | None:
    """The Objective side of the seat's objective card for the current act."""
    if seat >= len(state.fates) or not state.fates[seat]:
        return None
    card = fate_card(cbox, state.fates[seat], state.act, "setup")
    return card.objective if card is not None else None


def uses_marker(cbox: CampaignBox, state: BlightedReachState, seat: int) -> bool:
    """Objectives (Acts I-II) and final objectives (C Fates, Act III) use the marker; grand
    ambitions do not (BR-098)."""
    objective = current_objective(cbox, state, seat)
    return objective is not None and objective.kind in ("objective", "final")


def objective_start(objective: Objective, players: int) -> int | None:
    """BR-085: the printed start space, by player count where the card gives one per count.
    None when fates.json does not record it."""
    if str(players) in objective.start_by_players:
        return objective.start_by_players[str(players)]
    return objective.start


def check_start(cbox: CampaignBox, state: BlightedReachState, seat: int, start: int | None = None) -> int:
    """The space the seat's marker starts on (OFF_TRACK for grand ambitions). `start` fills a
    start space fates.json does not record (the table reads it off the card); it may not
    contradict one it does record."""
    objective = current_objective(cbox, state, seat)
    if objective is None:
        raise RuleMissing(f"{seat_name(seat)}'s Fate has no objective card for Act {state.act}")
    if objective.kind == "grand":
        return OFF_TRACK
    known = objective_start(objective, len(state.players))
    if start is None:
        if known is None:
            raise RuleMissing(f"no start space recorded for {objective.names[0]!r}: the table must give it")
        return known
    if start < 0 or (known is not None and start != known):
        raise BadParameter(f"{objective.names[0]!r} starts on space {known}, not {start}")
    return start


def start_objectives(cbox: CampaignBox, state: BlightedReachState, starts: dict[int, int] | None = None) -> None:
    """Act I player step D / Act II & III setup G: every marker on its start space. In Act
    III only C Fates' markers go on the track (BR-075); A and B Fates' leave it (BR-098).
    All starts are checked before any marker moves."""
    starts = starts or {}
    spaces = [check_start(cbox, state, seat, starts.get(seat)) for seat in range(len(state.players))]
    state.objective_markers = spaces


def advance(state: BlightedReachState, seat: int, amount: int) -> int:
    """BR-086: the marker moves `amount` spaces toward 0 and stops there. Returns the spaces
    it moved (0 for a marker off the track or already at 0)."""
    marker = state.objective_markers[seat]
    if marker <= 0 or amount <= 0:
        return 0
    moved = min(marker, amount)
    state.objective_markers[seat] = marker - moved
    return moved


def completed(state: BlightedReachState, seat: int) -> bool:
    """BR-086: the objective is complete with its marker on 0."""
    return state.objective_markers[seat] == 0


# -- ambitions as objectives read them (BR-088) -------------------------------------------


def _suit(card: str):
    return rules_box().court[card].suit


def ambition_count(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, ambition: str) -> int:
    """The base game's count (digest 10) over the campaign's cards (the rules box), with the
    First Regent's Imperial Trust (BR-261). Fate laws that change scoring (a Fate's own
    rules) pass their own `ChapterScore`."""
    return base_count(rules_box(), state, state.players[seat], ambition) + trust.ambition_extra(state, seat, ambition)


def standings(box: Box, cbox: CampaignBox, state: BlightedReachState, ambition: str) -> dict[int, int]:
    """Every competitor's count in one ambition, the 2-player phantom included."""
    counts = {seat: ambition_count(box, cbox, state, seat, ambition) for seat in range(len(state.players))}
    phantom = state.ambition_tokens.get(ambition)
    if len(state.players) == 2 and phantom is not None:
        counts[PHANTOM] = len(phantom)
    return counts


def sole_first(counts: dict[int, int]) -> int | None:
    """BR-088: winning an ambition is sole first place (a count above 0); a tie wins nothing.
    May return PHANTOM, which is no seat."""
    best = max(counts.values(), default=0)
    top = [s for s, c in counts.items() if c == best]
    return top[0] if best > 0 and len(top) == 1 else None


def declared_ambitions(state: BlightedReachState) -> list[str]:
    return [a for a, markers in state.ambition_boxes.items() if markers]


def winning_an_ambition(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int) -> bool:
    """The seat would win a declared ambition if it were scored now."""
    return any(sole_first(standings(box, cbox, state, a)) == seat for a in declared_ambitions(state))


class ChapterScore(msgspec.Struct):
    """One chapter's ambition scoring as objectives read it: who won each scored ambition
    (sole first; absent when tied or nobody placed) and the Power each seat gained from it,
    city bonus included."""

    winners: dict[str, int] = {}
    gains: dict[str, dict[int, int]] = {}

    def won_by(self, seat: int) -> list[str]:
        return [a for a, s in self.winners.items() if s == seat]


def chapter_score(box: Box, cbox: CampaignBox, state: BlightedReachState) -> ChapterScore:
    """The declared ambitions scored by the base rules (digest 10) on the campaign's cards:
    computed before the Power is added and the boxes are cleared."""
    score = ChapterScore(winners={}, gains={})
    bonus = {seat: city_bonus(p, box) for seat, p in enumerate(state.players)}
    for ambition in declared_ambitions(state):
        counts = standings(box, cbox, state, ambition)
        first, second = marker_values(box, state.ambition_boxes[ambition])
        score.gains[ambition] = place_gains(counts, first, second, bonus)
        winner = sole_first(counts)
        if winner is not None and winner != PHANTOM:
            score.winners[ambition] = winner
    return score


# -- what advances count ------------------------------------------------------------------

# A count: (arcs box, campaign box, state, seat, the chapter's score or None, the ambition won or "").
CountRule = Callable[[Box, CampaignBox, BlightedReachState, int, "ChapterScore | None", str], int]
# A condition: the same arguments, true or false.
ConditionRule = Callable[[Box, CampaignBox, BlightedReachState, int, "ChapterScore | None", str], bool]


def _controlled_systems(box, cbox, state, seat, score, ambition) -> int:
    return sum(board.controls_for_scoring(state, seat, s) for s in state.systems)


def _empire_clusters(box, cbox, state, seat, score, ambition) -> int:
    return sum(any(board.empire_controls(state, s) for s in _cluster(box, c.id)) for c in box.map.clusters)


def _empire_planets(box, cbox, state, seat, score, ambition) -> int:
    return sum(board.empire_controls(state, s) for s in state.systems if box.systems[s] is not None)


def _free_cities_outside_empire(box, cbox, state, seat, score, ambition) -> int:
    # Reading: a Free city is controlled by the Empire when its system is.
    return sum(sum(b.owner == FREE and b.kind == "city" for b in here.buildings)
               for s, here in state.systems.items() if not board.empire_controls(state, s))


def guild_suits(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int) -> int:
    """How many different suits the seat's Guild cards show."""
    return len({_suit(c) for c in state.players[seat].guild} - {None})


def _rivals_with_fewer(what: str):
    def count(box, cbox, state, seat, score, ambition) -> int:
        mine = len(getattr(state.players[seat], what))
        return sum(len(getattr(state.players[r], what)) < mine for r in board.rivals(state, seat))
    return count


GENERIC_COUNTS: dict[str, CountRule] = {
    "ambition_won": lambda box, cbox, state, seat, score, ambition: 1,   # once per ambition won
    "power_gained": lambda box, cbox, state, seat, score, ambition: score.gains[ambition].get(seat, 0),
    "controlled_system": _controlled_systems,
    "empire_cluster": _empire_clusters,
    "empire_planet": _empire_planets,
    "free_city_outside_empire": _free_cities_outside_empire,
    "guild_suit": lambda box, cbox, state, seat, score, ambition: guild_suits(box, cbox, state, seat),
    "rival_outnumbered_in_guilds": _rivals_with_fewer("guild"),
    "rival_outnumbered_in_lore": _rivals_with_fewer("lore"),
    # The resources in the First Regent's Imperial Trust, whoever counts them.
    "trust_resource": lambda box, cbox, state, seat, score, ambition: len(state.trust),
}

# Counts a Fate's own rules must give: monopoly_held, golem_held, faithful_stack_top_pips,
# ideal_power_gained, commonwealth_member.
COUNT_RULES: dict[str, CountRule] = {}

GENERIC_CONDITIONS: dict[str, ConditionRule] = {
    "regent": lambda box, cbox, state, seat, score, ambition: board.is_regent(state, seat),
    "outlaw": lambda box, cbox, state, seat, score, ambition: board.is_outlaw(state, seat),
    "first_regent": lambda box, cbox, state, seat, score, ambition: state.first_regent == seat,
    "winning_ambition": lambda box, cbox, state, seat, score, ambition: winning_an_ambition(box, cbox, state, seat),
}

# Conditions a Fate's own rules must decide (or the event reporting the advance states as a
# fact): has_guild_overseers, no_outrage_for_ambition, using_peoples_hero, ambition_has_ideal.
CONDITION_RULES: dict[str, ConditionRule] = {}


def _cluster(box: Box, cluster: int) -> list[str]:
    c = next(c for c in box.map.clusters if c.id == cluster)
    return [c.gate, *(p.id for p in c.planets)]


def count_for(per: str, box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int,
              score: ChapterScore | None = None, ambition: str = "") -> int:
    """How many of `per` the seat has now (for a won ambition: that ambition's)."""
    rule = GENERIC_COUNTS.get(per) or COUNT_RULES.get(per)
    if rule is None:
        raise RuleMissing(f"no rule counts {per!r}")
    return rule(box, cbox, state, seat, score, ambition)


def condition_holds(name: str, box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int,
                    score: ChapterScore | None = None, ambition: str = "", facts: Iterable[str] = ()) -> bool:
    """An `only_if` condition: a fact the reporting rule states, or a rule's answer."""
    if name in facts:
        return True
    rule = GENERIC_CONDITIONS.get(name) or CONDITION_RULES.get(name)
    if rule is None:
        raise RuleMissing(f"no rule decides {name!r}")
    return rule(box, cbox, state, seat, score, ambition)


# -- when advances happen -----------------------------------------------------------------


def _tracking(cbox: CampaignBox, state: BlightedReachState) -> list[tuple[int, Objective]]:
    """The seats whose marker is on the track and not yet at 0, with their objective."""
    out = []
    for seat in turn_order(state):
        objective = current_objective(cbox, state, seat)
        if objective is not None and objective.kind != "grand" and state.objective_markers[seat] > 0:
            out.append((seat, objective))
    return out


def _apply(state: BlightedReachState, amounts: dict[int, int]) -> dict[int, int]:
    """Advance each seat by its summed amount (computed first, so a missing rule moves nothing)."""
    return {seat: advance(state, seat, amount) for seat, amount in amounts.items() if amount}


def advance_for_ambitions(box: Box, cbox: CampaignBox, state: BlightedReachState,
                          score: ChapterScore) -> dict[int, int]:
    """After a chapter's ambitions are scored: each `win_ambition` advance once per ambition
    the seat won (BR-096), and each `scoring` advance once. Returns spaces moved per seat."""
    amounts: dict[int, int] = {}
    for seat, objective in _tracking(cbox, state):
        total = 0
        for adv in objective.advances:
            if adv.when == "win_ambition":
                for ambition in score.won_by(seat):
                    if all(condition_holds(c, box, cbox, state, seat, score, ambition) for c in adv.only_if):
                        total += adv.amount * count_for(adv.per, box, cbox, state, seat, score, ambition)
            elif adv.when == "scoring":
                if all(condition_holds(c, box, cbox, state, seat, score) for c in adv.only_if):
                    total += adv.amount * count_for(adv.per, box, cbox, state, seat, score)
        amounts[seat] = total
    return _apply(state, amounts)


def advance_at_chapter_end(box: Box, cbox: CampaignBox, state: BlightedReachState) -> dict[int, int]:
    """At the end of a chapter (after scoring): each `chapter_end` advance by its count now
    (BR-097). Returns spaces moved per seat."""
    amounts: dict[int, int] = {}
    for seat, objective in _tracking(cbox, state):
        amounts[seat] = sum(adv.amount * count_for(adv.per, box, cbox, state, seat)
                            for adv in objective.advances
                            if adv.when == "chapter_end"
                            and all(condition_holds(c, box, cbox, state, seat) for c in adv.only_if))
    return _apply(state, amounts)


def advance_on_event(box: Box, cbox: CampaignBox, state: BlightedReachState, per: str, count: int,
                     seat: int | None = None, facts: Iterable[str] = ()) -> dict[int, int]:
    """Something an `event` advance counts happened `count` times (an Imperial ship placed, a
    Trophy taken...): reported by the rule where it happens, for one seat's objective
    (`seat`) or for everyone's (None: "anyone places"). `facts` are conditions the event
    itself makes true. Returns spaces moved per seat."""
    facts = tuple(facts)
    amounts: dict[int, int] = {}
    for s, objective in _tracking(cbox, state):
        if seat is not None and s != seat:
            continue
        amounts[s] = sum(adv.amount * count for adv in objective.advances
                         if adv.when == "event" and adv.per == per
                         and all(condition_holds(c, box, cbox, state, s, facts=facts) for c in adv.only_if))
    return _apply(state, amounts)


# -- Act III grand ambitions (BR-098..BR-103) ---------------------------------------------

# A goal: (arcs box, campaign box, state, seat) -> fulfilled now.
GoalRule = Callable[[Box, CampaignBox, BlightedReachState, int], bool]


def _loyal_ships(state: BlightedReachState, seat: int) -> int:
    return sum(s.ships_of(seat).total for s in state.systems.values())


def _outlaw_cities_held_by_empire(box, cbox, state, seat) -> bool:
    outlaws = [s for s in range(len(state.players)) if board.is_outlaw(state, s)]
    return all(board.empire_controls(state, system)
               for system, here in state.systems.items()
               for b in here.buildings if b.kind == "city" and b.owner in outlaws)


def _guild_share(state: BlightedReachState) -> float:
    """The Guild cards' share of the Court: every card in the row (the Council too) and every
    card attached to one."""
    court = [c for c in state.court_row if c] + list(state.attached.values())
    guilds = sum(rules_box().court[c].kind == "guild" for c in court if c in rules_box().court)
    return guilds / len(court) if court else 0.0


GENERIC_GOALS: dict[str, GoalRule] = {
    "holds_initiative": lambda box, cbox, state, seat: state.initiative == seat,
    "more_guild_cards_than_each_rival": lambda box, cbox, state, seat: all(
        len(state.players[seat].guild) > len(state.players[r].guild) for r in board.rivals(state, seat)),
    "guild_suits_above_chapter": lambda box, cbox, state, seat: guild_suits(box, cbox, state, seat) > state.chapter,
    "regent_controls_9_planets": lambda box, cbox, state, seat: board.is_regent(state, seat) and sum(
        board.controls_for_scoring(state, seat, s) for s in state.systems if box.systems[s] is not None) >= 9,
    "regent_with_most_loyal_ships": lambda box, cbox, state, seat: board.is_regent(state, seat) and all(
        _loyal_ships(state, seat) > _loyal_ships(state, r) for r in board.rivals(state, seat)),
    "regent_and_empire_holds_outlaw_cities": lambda box, cbox, state, seat: board.is_regent(state, seat)
    and _outlaw_cities_held_by_empire(box, cbox, state, seat),
    "first_regent_trust_above_chapter": lambda box, cbox, state, seat: state.first_regent == seat
    and len(state.trust) > state.chapter,
    "guilds_over_half_of_court": lambda box, cbox, state, seat: _guild_share(state) > 0.5,
}

# Goals a Fate's own rules must check: the Commonwealth's, the Monopolies', the Golems' and
# the Ideals' goals, and every B Fate's (fates.json has no goals for them yet).
GOAL_RULES: dict[str, GoalRule] = {}


# Grand ambitions a card fulfils beside a Fate's own two (the Pathfinder's Portal Seekers,
# F906): fn(box, cbox, state, seat) -> how many it fulfils for the seat now. Empty: none.
EXTRA_GOALS: list[GoalRule] = []


def goals_fulfilled(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int) -> int:
    """How many of the seat's two grand ambitions hold now (BR-102: no declaring needed),
    with those a held card fulfils (`EXTRA_GOALS`)."""
    objective = current_objective(cbox, state, seat)
    extra = sum(rule(box, cbox, state, seat) for rule in EXTRA_GOALS)
    if objective is None or objective.kind != "grand":
        return extra
    if len(objective.goals) != 2:
        raise RuleMissing(f"the goals of {objective.names[0]!r} are not in fates.json yet")
    count = 0
    for goal in objective.goals:
        rule = GENERIC_GOALS.get(goal) or GOAL_RULES.get(goal)
        if rule is None:
            raise RuleMissing(f"no rule checks the grand ambition {goal!r}")
        count += rule(box, cbox, state, seat)
    return count + extra


def grand_ambition_power(cbox: CampaignBox, chapter: int, fulfilled: int) -> int:
    """BR-100, BR-101: one goal gains the chapter's lower value, both its higher (not the sum)."""
    low, high = cbox.campaign.grand_ambition_power[str(chapter)]
    return (0, low, high)[min(fulfilled, 2)]


def score_grand_ambitions(box: Box, cbox: CampaignBox, state: BlightedReachState) -> dict[int, int]:
    """BR-099: at the end of an Act III chapter, with the declared ambitions: each A or B
    Fate's owner (and only they, BR-102) gains for their own grand ambitions. Everything
    is checked before any Power is added."""
    gains = {seat: grand_ambition_power(cbox, state.chapter, goals_fulfilled(box, cbox, state, seat))
             for seat in range(len(state.players))}
    for seat, power in gains.items():
        state.players[seat].power += power
    return gains


# -- final objectives and the campaign's end (BR-077..BR-084, BR-106..BR-111) -------------


def letter_of(cbox: CampaignBox, state: BlightedReachState, seat: int) -> str:
    return cbox.fates[state.fates[seat]].letter


def final_objective_winner(cbox: CampaignBox, state: BlightedReachState) -> int | None:
    """BR-107, BR-110: at a chapter's end after scoring, a C Fate with its marker on 0 and at
    least 1 Power wins; among several, the most Power; a further tie in turn order (G-1)."""
    done = [seat for seat in turn_order(state)
            if (o := current_objective(cbox, state, seat)) is not None and o.kind == "final"
            and completed(state, seat) and state.players[seat].power >= 1]
    if not done:
        return None
    best = max(state.players[s].power for s in done)
    return next(s for s in done if state.players[s].power == best)


def chapters_in_act(cbox: CampaignBox, act: int) -> int:
    """BR-078: Acts I and II have 3 chapters, Act III 4."""
    return cbox.campaign.chapters_per_act[str(act)]


def acts(cbox: CampaignBox) -> int:
    """BR-077: the campaign is three acts."""
    return len(cbox.campaign.chapters_per_act)


def act_over(cbox: CampaignBox, state: BlightedReachState) -> bool:
    """After a chapter is scored: the act ends with its last chapter, never on Power
    (BR-079: the track's thresholds are ignored)."""
    return state.chapter >= chapters_in_act(cbox, state.act)


def after_act(cbox: CampaignBox, act: int) -> str:
    """BR-089: an Intermission follows Acts I and II; Act III ends the campaign."""
    return "intermission" if act in cbox.campaign.intermission_after_acts else "campaign_end"


def most_power_winner(cbox: CampaignBox, state: BlightedReachState) -> int:
    """BR-081..BR-083: most Power; then the earlier Fate letter; then turn order."""
    letters = cbox.campaign.tie_break_letters
    order = turn_order(state)
    return min(order, key=lambda s: (-state.players[s].power, letters.index(letter_of(cbox, state, s)), order.index(s)))


def campaign_winner(cbox: CampaignBox, state: BlightedReachState) -> int | None:
    """At the end of an Act III chapter: a final objective wins first (BR-084, BR-108); at the
    end of chapter 4, otherwise, the most Power (BR-109). None while the campaign goes on."""
    winner = final_objective_winner(cbox, state)
    if winner is not None:
        return winner
    if state.act == acts(cbox) and act_over(cbox, state):
        return most_power_winner(cbox, state)
    return None
