"""The Warden's Act III laws and edict (Fate 16: F1617-F1619): the Court tokens of the Fiefs.
The Lords, Fiefs and Vassals they read are `fate_warden`'s; the Levy and the Feast Days
are `fate_warden_levy`'s; F1615/F1616 are reprints of BC13 and BC22 (data).

- F1617 (setup): `collect_court_tokens` (the 6 Court tokens in the supply by the Court),
  data puts Feudal Courts and Lords Gain Power in the booklet. Its grand ambitions
  (`GOAL_RULES`): Lord of more Fiefs than each Rival; more Seats controlled than the
  current chapter.
- F1618 Feudal Courts (law), `state.court_tokens` (cluster -> the Court card it is on):
  a player influencing an empty Court card but the Council may put on it the token of a Fief
  where it is Lord or Vassal (`offer_court_token` on `rounds.INFLUENCED`, decision
  `court_token`); only that Fief's Lord and Vassals influence or secure a card with its
  token (`court_token_limit` on `actions.COURT_LIMITS`); the Lord securing it returns the
  token and the Vassals' agents there (home, not Captives), anyone else's secure leaves the
  token on the card that refills the place (`court_token_taken`, before the take, and
  `settle_court_tokens` after every step); a ransack takes such a card only after a city
  destroyed in that Fief (`ransack_in_fief` on `battle_flow.RANSACK_LIMITS`).
- F1619 Lords Gain Power (edict `lords_gain_power`): each Fief from Cluster 1 on, its Lord
  gains 3 Power, then may influence or secure the Court card holding its Fief's token
  (decision `lords_court`).

Readings (beside their rules): a ransack is a secure for the Court token (Lord: token and
Vassal agents home; else the token stays on the place); a card with a token that leaves the
Court otherwise (buried, discarded) sends its token to the supply; Lords Gain Power's secure
needs the majority, as every secure does (ARCS-162); an influence by a card's effect (not
the Influence action) places no token.
"""
from __future__ import annotations

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.arcs import actions as arcs_actions
from plugins.arcs import battle_flow, rounds
from plugins.arcs.abilities import standing
from plugins.arcs.court_flow import take
from plugins.blighted_reach import council, fates, objectives
from plugins.blighted_reach.fate_c import is_campaign
from plugins.blighted_reach.fate_warden import (
    CLUSTERS, cluster_of, fiefs_of, in_booklet, lord_of, seats_controlled, vassals,
)
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

FEUDAL_COURTS = "F1618"
LORDS_GAIN_POWER = "F1619"
LORD_POWER = 3
PENDING = "@"  # a token waiting for the card that refills the place `@<position>`

standing("feudal_courts")  # read where Court cards are influenced, secured and ransacked


# -- F1617 the setup and the grand ambitions ----------------------------------------------------


@fates.handler("collect_court_tokens")
def collect_court_tokens(ctx, seat: int, card_id: str, effect) -> None:
    """The 6 Court tokens lie in the general supply by the Court (none on a card yet)."""
    ctx.state.court_tokens = {}
    ctx.emit("court_tokens_collected", seat=seat, count=len(CLUSTERS), why=card_id)


def more_fiefs_than_each_rival(state: BlightedReachState, seat: int) -> bool:
    mine = len(fiefs_of(state, seat))
    return all(mine > len(fiefs_of(state, r)) for r in range(len(state.players)) if r != seat)


objectives.GOAL_RULES["more_fiefs_than_each_rival"] = (
    lambda box, cbox, state, seat: more_fiefs_than_each_rival(state, seat))
objectives.GOAL_RULES["more_seats_than_chapter"] = (
    lambda box, cbox, state, seat: seats_controlled(state, seat) > state.chapter)


# -- F1618 Feudal Courts ------------------------------------------------------------------------


def courts_in_force(state) -> bool:
    return in_booklet(state, FEUDAL_COURTS)


def is_lord_or_vassal(state: BlightedReachState, seat: int, cluster: int) -> bool:
    return lord_of(state, cluster) == seat or seat in vassals(state, cluster)


def token_on(state, card: str) -> int:
    """The Fief whose Court token is on the card, 0 for none."""
    return next((int(c) for c, on in getattr(state, "court_tokens", {}).items() if on == card), 0)


def tokens_in_supply(state: BlightedReachState) -> list[int]:
    return [c for c in CLUSTERS if str(c) not in state.court_tokens]


def court_token_limit(state, seat: int, card: str, what: str) -> str:
    """`actions.COURT_LIMITS`: a card with a Fief's token is that Fief's Lord's and Vassals'."""
    if not courts_in_force(state):
        return ""
    cluster = token_on(state, card)
    if cluster and not is_lord_or_vassal(state, seat, cluster):
        return f"{FEUDAL_COURTS}: only the Lord and Vassals of cluster {cluster} may {what} {card}"
    return ""


arcs_actions.COURT_LIMITS.append(court_token_limit)


def token_choices(state: BlightedReachState, seat: int) -> list[int]:
    return [c for c in tokens_in_supply(state) if is_lord_or_vassal(state, seat, c)]


def offer_court_token(ctx, seat: int, card: str, first: bool) -> None:
    """`rounds.INFLUENCED`: the card was empty and is not the Council: the influencer may put
    on it the token of a Fief where it is Lord or Vassal."""
    state = ctx.state
    if not first or not courts_in_force(state) or council.is_council(card) or token_on(state, card):
        return
    choices = token_choices(state, seat)
    if not choices:
        return
    options = [Action("court_token", {"cluster": 0})] + [Action("court_token", {"cluster": c}) for c in choices]
    ctx.ask(seat, "court_token", options, resume=court_token_placed, card=card)


rounds.INFLUENCED.append(offer_court_token)


@steps("warden_court_token_placed")
def court_token_placed(ctx, seat, params, card: str):
    cluster = params["cluster"]
    if not cluster or card not in ctx.state.court_row:
        return
    ctx.state.court_tokens = {**ctx.state.court_tokens, str(cluster): card}
    ctx.emit("court_token_placed", seat=seat, card=card, cluster=cluster, why=FEUDAL_COURTS)


def court_token_taken(ctx, seat: int, card: str, rivals_to: str) -> None:
    """Before a Court card with a token is taken: the Lord returns the token and sends the
    Vassals' agents on the card home; anyone else leaves the token on the place, for the card
    that refills it."""
    state = ctx.state
    cluster = token_on(state, card) if is_campaign(state) else 0
    if not cluster or card not in state.court_row:
        return
    tokens = dict(state.court_tokens)
    if lord_of(state, cluster) == seat:
        agents = state.court_agents.get(card, [])
        home = [v for v in vassals(state, cluster) if v < len(agents) and agents[v]]
        for v in home:
            state.players[v].agents += agents[v]
            agents[v] = 0
        del tokens[str(cluster)]
        ctx.emit("court_token_returned", seat=seat, card=card, cluster=cluster, agents_home=home, why=FEUDAL_COURTS)
    else:
        tokens[str(cluster)] = f"{PENDING}{state.court_row.index(card)}"
    state.court_tokens = tokens


def settle_court_tokens(ctx, noted=None) -> None:
    """After every step: a waiting token lands on the card refilling its place; a token whose
    card left the Court goes back to the supply."""
    state = ctx.state
    if not is_campaign(state) or not state.court_tokens:
        return
    tokens = {}
    for cluster, on in state.court_tokens.items():
        if on.startswith(PENDING):
            position = int(on[1:])
            if position >= len(state.court_row):
                continue  # the place is gone: the token is back in the supply
            here = state.court_row[position]
            tokens[cluster] = here if here and not token_on(state, here) else on
        elif on in state.court_row:
            tokens[cluster] = on
    if tokens != state.court_tokens:
        state.court_tokens = tokens


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((lambda state: None, settle_court_tokens))


_register_watch()


def ransack_in_fief(state, attacker: int, system: str, card: str) -> bool:
    """`battle_flow.RANSACK_LIMITS`: a card with a Fief's token for a city destroyed there."""
    cluster = token_on(state, card) if courts_in_force(state) else 0
    return not cluster or cluster_of(system) == cluster


battle_flow.RANSACK_LIMITS.append(ransack_in_fief)


def court_token_problems(state: BlightedReachState) -> list[str]:
    out = []
    placed = [on for on in state.court_tokens.values() if not on.startswith(PENDING)]
    if len(placed) != len(set(placed)):
        out.append("two Court tokens on one card")
    if any(int(c) not in CLUSTERS for c in state.court_tokens):
        out.append(f"a Court token of no cluster: {sorted(state.court_tokens)}")
    return out


# -- F1619 Lords Gain Power ------------------------------------------------------------------------


@fates.handler("lords_gain_power")
def lords_gain_power(ctx, seat: int, card_id: str, effect) -> None:
    """Each Fief in turn from Cluster 1 (`lords_fief`)."""
    ctx.push(lords_fief, cluster=CLUSTERS[0], why=card_id)


def court_moves(state: BlightedReachState, lord: int, card: str) -> list[dict]:
    """What the Lord may do at the card: influence (an agent left), secure (the majority)."""
    out = [{"do": ""}]
    for what, check in (("influence", council.check_influence), ("secure", council.check_secure)):
        try:
            check(state, lord, card)
        except ActionRejected:
            continue
        out.append({"do": what})
    return out


@steps("warden_lords_fief")
def lords_fief(ctx, cluster: int, why: str):
    """One Fief: its Lord gains 3 Power, then may influence or secure the card with the
    Fief's Court token; then the next Fief."""
    state = ctx.state
    if cluster + 1 in CLUSTERS:
        ctx.push(lords_fief, cluster=cluster + 1, why=why)
    lord = lord_of(state, cluster)
    if lord < 0:
        return
    state.players[lord].power += LORD_POWER
    ctx.emit("lords_gain_power", card=why, seat=lord, cluster=cluster, power=LORD_POWER)
    card = state.court_tokens.get(str(cluster), "")
    if not card or card.startswith(PENDING) or card not in state.court_row:
        return
    moves = court_moves(state, lord, card)
    if len(moves) > 1:
        ctx.ask(lord, "lords_court", [Action("lords_court", m) for m in moves], resume=lords_court_done,
                card=card, why=why)


@steps("warden_lords_court_done")
def lords_court_done(ctx, seat, params, card: str, why: str):
    what = params["do"]
    if not what:
        return
    if what not in ("influence", "secure"):
        raise BadParameter("influence, secure or nothing")
    if what == "influence":
        council.influence(ctx.state, seat, card)
        ctx.emit("influenced", seat=seat, card=card, why=why)
        return
    try:
        council.check_secure(ctx.state, seat, card)
    except ActionRejected as e:
        raise IllegalAction(str(e)) from e
    take(ctx, seat, card, rivals_to="captives")
