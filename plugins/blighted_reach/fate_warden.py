"""The Warden (Fate 16, a B Fate: cards F1601-F1619): Seats, Fiefs, Lords and Vassals, the
rules its Act II cards name that the data cannot say. Act III: the Court tokens, Feudal
Courts and Lords Gain Power in `fate_warden_courts`; Warden's Levy and the Feast Days in
`fate_warden_levy`; F1615/F1616 are reprints of BC13/BC22 (data).

Act II
- F1601 (setup): data gains Claims of Nobility, puts Seats & Fiefs and Feudal Law in the
  booklet and replenishes the fleet to 8 (`replenish_fleet`, the Pacifist's). The 6 Seat
  tokens and the 6 Lord titles are the Warden's supply: a Seat not on the map
  (`state.fief_seats`) and not scrapped is there, so is a Lord title nobody holds. Its
  objective (`COUNT_RULES`): at each chapter's end 2 per Seat it controls
  (`seats_controlled`) and 1 per city in the Fiefs it is Lord of (`fief_cities`).
- F1602 Claims of Nobility (lore): Claim Fief (a Tax, op `claim_fief`): the card is
  attached to a Court card with nothing attached (its securer takes it along, BR-315), and
  the claimer may place the Seat of a cluster with no Seat above a Loyal city it controls
  there. Its Crisis (`claim_fief_crisis`): its holder must take that action.
- F1603-F1608 the Lord titles and F1609 Seats & Fiefs (law): the owner of the city under a
  Seat is the Lord of that cluster (its Fief) and holds its title in the play area
  (`settle_fiefs`, after every step); the Lord's Rivals with a Loyal city or a Flagship
  there are its Vassals in that Fief (`vassals`); a Seat whose city is gone returns with its
  title.
- F1610 Feudal Law: a Lord taxes any city in its Fief (`lord_taxes`, on
  `empire.TAX_WITHOUT_CONTROL`; a Rival's city still gives a Captive); a Lord harming its
  Vassal in the Fief, or a Vassal its Lord, Provokes Outrage with every city of the Fief: in
  a battle as it begins, so before any raid (`feudal_battle_begun`), a card's harm as it is
  paid (`feudal_harm_paid` on `abilities.HARM_PRICES`); a Vassal destroying a Rival Vassal's
  city in the Fief Provokes no Outrage for it (`battle_flow.OUTRAGE_SPARED`).
- F1611 (Resolution): data, with `scrap_seats_off_map` (failed).

Readings (each beside its rule): the Seat tokens are numbered by cluster (the 1st Seat is
Cluster 1's, as the 1st Lord title is); "a Loyal city you control" is the claimer's own city
in a system it controls (ARCS-133); a Seat is controlled by whoever controls its system; a
Seat stands while its owner keeps a city in its system (a city destroyed, sent home or
turned Free takes it off).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from plugins.arcs import abilities, battle_flow, lore_ops
from plugins.arcs.abilities import Env, Use, op, standing
from plugins.arcs.outrage import provoke_outrage
from plugins.blighted_reach import board, empire, fates, objectives
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler, Decision
from plugins.blighted_reach.fate_c import is_campaign
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState, FiefSeat

WARDEN = "FATE16"
CLAIMS = "F1602"
SEATS_AND_FIEFS = "F1609"
FEUDAL_LAW = "F1610"
CLUSTERS = range(1, 7)
TITLES = {c: f"F16{c + 2:02d}" for c in CLUSTERS}  # the Lord of the nth Cluster: F1603..F1608

# Standing rules: the titles and the two laws are read where Lords tax, harm and score.
standing("lord_of_a_fief", "seats_and_fiefs", "feudal_law")


def in_booklet(state, card: str) -> bool:
    return is_campaign(state) and any(card in slot for slot in state.booklet)


def cluster_of(system: str) -> int:
    return rules_box().cluster_of(system)


def cluster_systems(state: BlightedReachState, cluster: int) -> list[str]:
    return [s for s in sorted(state.systems) if cluster_of(s) == cluster]


# -- Lords, Fiefs and Vassals (F1609) ------------------------------------------------------------


def lord_of(state: BlightedReachState, cluster: int) -> int:
    """The Lord of the cluster (the owner of the city under its Seat), -1 when none."""
    seat = getattr(state, "fief_seats", {}).get(str(cluster))
    return seat.owner if seat is not None else -1


def fiefs_of(state: BlightedReachState, seat: int) -> list[int]:
    return sorted(int(c) for c, s in state.fief_seats.items() if s.owner == seat)


def _loyal_city_in(state: BlightedReachState, seat: int, cluster: int) -> bool:
    return any(b.kind == "city" and b.owner == seat
               for s in cluster_systems(state, cluster) for b in state.systems[s].buildings)


def _flagship_in(state: BlightedReachState, seat: int, cluster: int) -> bool:
    from plugins.flagships.state import flagship_system

    where = flagship_system(state, seat)
    return bool(where) and where in state.systems and cluster_of(where) == cluster


def vassals(state: BlightedReachState, cluster: int) -> list[int]:
    """The Lord's Rivals with a Loyal city or a Flagship in its Fief."""
    lord = lord_of(state, cluster)
    if lord < 0:
        return []
    return [s for s in range(len(state.players)) if s != lord
            and (_loyal_city_in(state, s, cluster) or _flagship_in(state, s, cluster))]


def bound_in(state, a: int, b, system: str) -> bool:
    """Whether `a` and `b` are Lord and Vassal (either way round) in the Fief holding `system`."""
    if not in_booklet(state, FEUDAL_LAW) or not isinstance(b, int) or b < 0 or a == b or system not in state.systems:
        return False
    cluster = cluster_of(system)
    lord = lord_of(state, cluster)
    if lord not in (a, b):
        return False
    return (b if lord == a else a) in vassals(state, cluster)


def fief_cities(state: BlightedReachState, cluster: int) -> list[tuple[str, int]]:
    """Every city of the cluster, any owner's (Free cities and the Seat's own included)."""
    return [(s, i) for s in cluster_systems(state, cluster) for i, b in enumerate(state.systems[s].buildings)
            if b.kind == "city"]


def fief_city_types(state: BlightedReachState, cluster: int) -> list[str]:
    box = rules_box()
    return sorted({t for s, _ in fief_cities(state, cluster) for t in lore_ops.city_types(state, box, s)})


# -- F1601 the objective -------------------------------------------------------------------------


def seats_controlled(state: BlightedReachState, seat: int) -> int:
    """Seats on the map in systems the seat controls (the First Regent counting the Empire's)."""
    return sum(board.controls_for_scoring(state, seat, s.system) for s in state.fief_seats.values())


objectives.COUNT_RULES["seats_controlled"] = (
    lambda box, cbox, state, seat, score, ambition: seats_controlled(state, seat))
objectives.COUNT_RULES["fief_cities"] = (
    lambda box, cbox, state, seat, score, ambition: sum(len(fief_cities(state, c)) for c in fiefs_of(state, seat)))


# -- F1602 Claims of Nobility: Claim Fief ---------------------------------------------------------


class ClaimFief(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    card: str             # the Court card Claims of Nobility is attached to
    system: str = ""      # the system of the Loyal city the Seat goes above ("" places none)


def _controls(state, seat: int, system: str, on_turn: bool) -> bool:
    if on_turn:
        return board.controls_on_turn(state, seat, system)
    return board.controller(state, system) == seat


def claimable(state: BlightedReachState, seat: int, on_turn: bool = True) -> list[str]:
    """Systems where the seat may place a Seat: its own city there, the system under its
    control, the cluster with no Seat and its Seat not scrapped.
    # Reading: "a Loyal city you control" is the seat's own city in a system it controls."""
    out = []
    for system in sorted(state.systems):
        cluster = cluster_of(system)
        if str(cluster) in state.fief_seats or cluster in state.seats_scrapped or cluster not in CLUSTERS:
            continue
        if any(b.kind == "city" and b.owner == seat for b in state.systems[system].buildings) and _controls(
                state, seat, system, on_turn):
            out.append(system)
    return out


def hosts(state: BlightedReachState) -> list[str]:
    """Court cards with nothing attached (as the Librarians attach)."""
    from plugins.blighted_reach.fate_caretaker import attachable

    return attachable(state)


def claim_options(state: BlightedReachState, seat: int, on_turn: bool = True) -> list[dict]:
    where = claimable(state, seat, on_turn)
    return [{"card": h, "system": s} for h in hosts(state) for s in ["", *where]]


def check_claim(state: BlightedReachState, seat: int, choice: ClaimFief, on_turn: bool = True) -> None:
    if CLAIMS not in state.players[seat].lore:
        raise IllegalAction(f"{CLAIMS} is not yours")
    if choice.card not in hosts(state):
        raise BadParameter(f"{choice.card!r} is not a Court card with nothing attached")
    if choice.system and choice.system not in claimable(state, seat, on_turn):
        raise BadParameter(f"no Seat can be placed above a city of yours in {choice.system!r}")


def claim(state: BlightedReachState, seat: int, choice: ClaimFief) -> dict:
    """Claims of Nobility goes onto the Court card; the Seat (if any) above the city."""
    state.players[seat].lore.remove(CLAIMS)
    state.attached[choice.card] = CLAIMS
    if choice.system:
        state.fief_seats = {**state.fief_seats, str(cluster_of(choice.system)): FiefSeat(choice.system, seat)}
        settle_titles(state)
    return {"event": "fief_claimed", "seat": seat, "host": choice.card, "system": choice.system,
            "cluster": cluster_of(choice.system) if choice.system else 0}


@op("claim_fief", params=ClaimFief,
    candidates=lambda env, u: claim_options(env.state, u.seat),
    usable=lambda env, u: is_campaign(env.state) and bool(hosts(env.state)))
def claim_fief(env: Env, u: Use, choice: ClaimFief) -> None:
    """F1602 Claim Fief (a Tax)."""
    check_claim(env.state, u.seat, choice)
    out = claim(env.state, u.seat, choice)
    env.emit(out.pop("event"), card=u.card, **out)


def _crisis_decisions(call) -> list:
    if CLAIMS not in call.state.players[call.holder].lore:
        return []
    return [Decision(call.holder, "claim_fief", call.card, claim_options(call.state, call.holder, on_turn=False))]


def _crisis_check(call) -> None:
    for d in _crisis_decisions(call):
        if d.options and call.answers.get(d.seat) not in d.options:
            raise BadParameter("Claim Fief: attach Claims of Nobility to a Court card with nothing attached")


def _crisis_apply(call) -> dict | None:
    """F1602's Crisis: its holder takes Claim Fief (off its turn: control as it stands);
    with no Court card to attach to, nothing happens."""
    ds = _crisis_decisions(call)
    if not ds or not ds[0].options:
        return None
    answer = call.answers[call.holder]
    return claim(call.state, call.holder, ClaimFief(card=answer["card"], system=answer.get("system", "")))


FATE_CRISIS_HANDLERS["claim_fief_crisis"] = CrisisHandler(
    apply=_crisis_apply, decisions=_crisis_decisions, check=_crisis_check)


# -- F1609 Seats & Fiefs: Seats lost, titles held --------------------------------------------------


def lost_seats(state: BlightedReachState) -> list[str]:
    """Clusters whose Seat's owner has no city left in the Seat's system."""
    return [c for c, s in sorted(state.fief_seats.items())
            if s.system not in state.systems
            or not any(b.kind == "city" and b.owner == s.owner for b in state.systems[s.system].buildings)]


def settle_titles(state: BlightedReachState) -> None:
    """Each Lord title in its Lord's play area; one with no Seat on the map in nobody's
    (the supply), a scrapped one left scrapped."""
    for cluster, title in TITLES.items():
        lord = lord_of(state, cluster)
        for s, area in enumerate(state.play_area):
            if title in area and s != lord:
                area.remove(title)
        if lord >= 0 and title not in state.play_area[lord] and title not in state.scrapped:
            state.play_area[lord].append(title)


def settle_fiefs(ctx, noted=None) -> None:
    """After every step: a Seat whose city is gone returns with its Lord title (F1609)."""
    state = ctx.state
    if not is_campaign(state) or not state.fief_seats:
        return
    gone = lost_seats(state)
    if gone:
        state.fief_seats = {c: s for c, s in state.fief_seats.items() if c not in gone}
        ctx.emit("seats_returned", clusters=[int(c) for c in gone], why=SEATS_AND_FIEFS)
    settle_titles(state)


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((lambda state: None, settle_fiefs))


_register_watch()


def warden_problems(state: BlightedReachState) -> list[str]:
    """Each Seat above a city of its Lord in its own cluster; each title with its Lord."""
    out = []
    for c, s in state.fief_seats.items():
        if int(c) not in CLUSTERS or int(c) in state.seats_scrapped:
            out.append(f"the Seat of cluster {c} cannot be on the map")
        elif s.system in state.systems and cluster_of(s.system) != int(c):
            out.append(f"the Seat of cluster {c} stands in {s.system}, another cluster")
    for cluster, title in TITLES.items():
        holders = [x for x, area in enumerate(state.play_area) if title in area]
        if holders and holders != [lord_of(state, cluster)]:
            out.append(f"{title} is held by {holders}, not by the Lord of cluster {cluster}")
    return out


# -- F1610 Feudal Law ------------------------------------------------------------------------------


def lord_taxes(state, seat: int, system: str, building: int) -> bool:
    """For `empire.TAX_WITHOUT_CONTROL`: a Lord taxes any city of its Fief."""
    return (in_booklet(state, FEUDAL_LAW) and system in state.systems
            and lord_of(state, cluster_of(system)) == seat)


if lord_taxes not in empire.TAX_WITHOUT_CONTROL:
    empire.TAX_WITHOUT_CONTROL.append(lord_taxes)


def outrage_with_fief(state: BlightedReachState, seat: int, system: str) -> list[str]:
    """`seat` Provokes Outrage with every city of the Fief holding `system`."""
    types = fief_city_types(state, cluster_of(system))
    for resource in types:
        provoke_outrage(rules_box(), state, seat, resource)
    return types


@hookimpl(specname="arcs_battle_begun")
def feudal_battle_begun(ctx, imperial_fresh, imperial_damaged, judge_fresh, judge_damaged):
    """A Lord attacking its Vassal in the Fief, or a Vassal its Lord: the attacker Provokes
    Outrage with all the Fief's cities as the battle begins (before any raid)."""
    state = ctx.state
    b = getattr(state, "battle", None)
    if b is None or not bound_in(state, b.attacker, b.defender, b.system):
        return
    types = outrage_with_fief(state, b.attacker, b.system)
    ctx.emit("outrage_provoked", seat=b.attacker, resources=types, why=FEUDAL_LAW)


def feudal_harm_refused(state, seat: int, harmed: dict) -> str:
    return ""  # Feudal Law forbids nothing; it puts Outrage on the harm (below)


def feudal_harm_paid(env, seat: int, harmed: dict) -> None:
    """A card's harm outside a battle between a Lord and its Vassal in their Fief: Outrage
    with all the Fief's cities, once per Fief harmed."""
    state = env.state
    if not isinstance(state, BlightedReachState) or not in_booklet(state, FEUDAL_LAW):
        return
    done = set()
    for system, owners in harmed.items():
        if any(bound_in(state, seat, o, system) for o in owners) and cluster_of(system) not in done:
            done.add(cluster_of(system))
            env.emit("outrage_provoked", seat=seat, resources=outrage_with_fief(state, seat, system), why=FEUDAL_LAW)


abilities.HARM_PRICES.append((feudal_harm_refused, feudal_harm_paid))


def vassal_spared(state, attacker: int, owner: int, system: str) -> bool:
    """For `battle_flow.OUTRAGE_SPARED`: a Vassal destroying a Rival Vassal's city in the Fief."""
    if not in_booklet(state, FEUDAL_LAW) or not isinstance(owner, int) or owner < 0 or system not in state.systems:
        return False
    # Reading: the city's owner was a Vassal there as its city fell (it may have no city left).
    cluster = cluster_of(system)
    return attacker in vassals(state, cluster) and owner not in (attacker, lord_of(state, cluster))


battle_flow.OUTRAGE_SPARED.append(vassal_spared)


# -- F1611 failed: the Seats off the map --------------------------------------------------------------


@fates.handler("scrap_seats_off_map")
def scrap_seats_off_map(ctx, seat: int, card_id: str, effect) -> None:
    """Every Seat not on the map is scrapped, with its Lord title (held by nobody)."""
    state = ctx.state
    off = [c for c in CLUSTERS if str(c) not in state.fief_seats and c not in state.seats_scrapped]
    state.seats_scrapped = sorted([*state.seats_scrapped, *off])
    state.scrapped.extend(TITLES[c] for c in off if TITLES[c] not in state.scrapped)
    ctx.emit("seats_scrapped", seat=seat, clusters=off, why=card_id)
