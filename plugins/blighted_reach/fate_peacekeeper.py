"""The Peacekeeper (Fate 15, a B Fate: cards F1501-F1511): the rules its cards name that
the data cannot say.

Act II
- F1501 (setup): data: with 2 players the Weapons on the Warlord box go back to the supply
  (`return_warlord_weapons`), the Peacekeeper clears its Outrage (`clear_own_outrage`, the
  Partisan's) then Provokes Weapon Outrage (`provoke_own_outrage`, fate_c's), gains Oath of
  Peace and Arsenal Keepers, and replenishes its fleet to 8 (`replenish_fleet`, the
  Pacifist's). Its objective: at each chapter's end 1 space per Weapon it has
  (`weapons_held`) and 1 per Weapon planet it controls (`weapon_planets_controlled`, the
  First Regent counting the Empire's), `COUNT_RULES`.
- F1502 Oath of Peace (lore): the holder never declares Warlord (`fate_c.IRE`) and gains no
  Power from it (`warlord_gains`, on `arcs_ambition_gains`); Trophies it gains go back to
  their owners but Blight (`_watch_trophies`, around every step); as First Regent it can
  neither put the War Policy on top nor enforce it (`war_policy_barred` on
  `edicts.GOVERN_LIMITS`, read through `edicts.govern_barred` by the Govern Edict and by the
  Steward's Govern with Authority, whose War card is F124, and Imperial Quorum: as the
  Regent changing the Policy it cannot pick War, as the one taking the Imperial Action it
  skips War's, as First Regent it collects no War Demand); held by a seat that is not the
  Peacekeeper, it is scrapped (after each action).
- F1503 Arsenal Keepers (guild, protected): each Weapon coming to the holder may be put on
  the card instead (`placing_flow.QUESTIONS`), and so may one it takes for the Imperial
  Trust (`trust_take_offer`); they are frozen there, held (the objective counts them) and
  raided at 2 keys each (`arcs_raid_options`).
- F1504 (Resolution): data, with `arsenal_to_court_deck` (failed).
Act III
- F1505/F1506 Arms Interest: data (Assemble as a Build: 1 Weapon; the Prelude's discard fills
  the empty slots with Weapons, as the base Mining Interest does Material).
- F1507 (setup): `place_ceasefires` (one token per cluster in play: Peace where the
  Peacekeeper controls a system, the First Regent counting the Empire's, else War), 2-player
  Weapons back from the Warlord box, the four cards into the booklet. Its grand ambitions
  (`GOAL_RULES`): 2 clusters at Peace, 5 clusters at Peace.
- F1508 Ceasefires (law): a battle in a cluster at Peace against anything but the Blight
  needs 1 Weapon more than its cost (`ceasefire_check_attack`); the Weapon is spent and the
  cluster turns to War as the battle begins (`ceasefire_battle_begun`). Harm a card does
  outside a battle (Fire Rifles, Incite Revolt, Navy Reprisal's choices when secured) pays
  the same price through `abilities.HARM_PRICES` (`ceasefire_harm_refused`: not offered and
  refused without a Weapon; `ceasefire_harm_paid`: the Weapon spent, the cluster to War), a
  new action paid with a Weapon leaving it off its trial (`turn.ABILITY_TRIALS`). The
  tokens' invariant: `ceasefire_problems` (one per cluster in play, Peace or War).
- F1509 Empire Balks at Peace (edict `empire_balks_at_peace`): with the War Policy and the
  Peacekeeper an Outlaw, the First Regent may turn a cluster where the Empire controls 2
  systems or more to War.
- F1510 Peace Dividends (edict `peace_dividends`): 2 Power per system controlled in a
  cluster at Peace; the First Regent's Empire-controlled ones only under the Peace Policy.
- F1511 Peace Accords (summit): the Broker Peace Negotiation move (`summits.FATE_NEGOTIATIONS`).

Readings (each beside its rule): Weapons in the Imperial Trust are not the Peacekeeper's;
a card's harm outside a battle costs 1 Weapon per cluster at Peace it touches, Fire Rifles
paying as it fires (like a battle as it begins), Navy Reprisal's choice on securing being
the card's harm (the Crisis drawn is never limited); under Imperial Quorum the Oath bars the
War Policy's Demand and Imperial Action too (both enforce it); a Rival consents to Broker
Peace by the broker returning one of its Favors.
"""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import abilities, placing, placing_flow
from plugins.arcs import turn as arcs_turn
from plugins.arcs.abilities import standing
from plugins.arcs.content import box_for
from plugins.blighted_reach import board, card_slots, edicts, favors, fates, objectives, summits
from plugins.blighted_reach.fate_c import IRE, is_campaign, planets_of
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

PEACEKEEPER = "FATE15"
OATH = "F1502"
ARSENAL = "F1503"
CEASEFIRES = "F1508"
ACCORDS = "F1511"
WARLORD = "warlord"
WEAPON = "weapon"
ARSENAL_RAID_COST = 2
PEACE, WAR = "peace", "war"
GOAL_CLUSTERS = {"two_clusters_at_peace": 2, "five_clusters_at_peace": 5}

IRE[OATH] = (WARLORD, ())  # never declares Warlord; taxes as usual
standing("weapons_kept_off_the_board", "oath_of_peace", "ceasefires", "broker_peace")


def peacekeeper_seat(state) -> int:
    """The seat playing the Peacekeeper, -1 none."""
    return next((s for s, f in enumerate(getattr(state, "fates", [])) if f == PEACEKEEPER), -1)


def holder_of(state, card: str) -> int:
    return next((s for s, p in enumerate(state.players) if card in p.lore or card in p.guild), -1)


# -- F1501 / F1507: the 2-player Weapons on the Warlord box ----------------------------------


@fates.handler("return_warlord_weapons")
def return_warlord_weapons(ctx, seat: int, card_id: str, effect) -> None:
    """With 2 players, the Weapons lying on the Warlord box (BR-073's tokens) go back to the
    supply; other player counts have none."""
    state = ctx.state
    if len(state.players) != 2:
        return
    tokens = state.ambition_tokens.get(WARLORD, [])
    back = [r for r in tokens if r == WEAPON]
    if WARLORD in state.ambition_tokens:
        state.ambition_tokens[WARLORD] = [r for r in tokens if r != WEAPON]
    state.supply[WEAPON] = state.supply.get(WEAPON, 0) + len(back)
    ctx.emit("ambition_tokens_returned", resources=back, why=card_id)


# -- F1501 the Act II objective ---------------------------------------------------------------


def weapons_held(state: BlightedReachState, seat: int) -> int:
    """The Weapons the seat has: in its slots and on its cards (Arsenal Keepers').
    # Reading: the Imperial Trust is the Empire's tribute, not the First Regent's own, so its
    # Weapons are not counted (Arsenal Keepers lets a Weapon taken for it be kept instead)."""
    from plugins.blighted_reach.fate_magnate import on_cards

    return state.players[seat].resources.count(WEAPON) + on_cards(state, seat).count(WEAPON)


objectives.COUNT_RULES["weapons_held"] = (
    lambda box, cbox, state, seat, score, ambition: weapons_held(state, seat))
objectives.COUNT_RULES["weapon_planets_controlled"] = (
    lambda box, cbox, state, seat, score, ambition: sum(
        board.controls_for_scoring(state, seat, p) for p in planets_of(state, (WEAPON,))))


# -- F1502 Oath of Peace ----------------------------------------------------------------------


def warlord_gains(state, ambition: str, gains: dict[int, int]) -> dict[int, int] | None:
    """`arcs_ambition_gains`: the holder of Oath of Peace gains nothing from Warlord (its
    place still keeps a Rival from scoring)."""
    if ambition != WARLORD or not is_campaign(state):
        return None
    holders = [s for s, p in enumerate(state.players) if OATH in p.lore and gains.get(s)]
    if not holders:
        return None
    return {s: (0 if s in holders else g) for s, g in gains.items()}


def war_policy_barred(state, chooser: int, choice: dict) -> bool:
    """`edicts.GOVERN_LIMITS`: the holder of Oath of Peace, choosing for the Empire (governing,
    or under the Steward's Imperial Quorum), neither enforces the War Policy nor puts it on
    top; Govern with Authority's War card (F124) counts as the War Policy."""
    if not is_campaign(state) or chooser < 0 or OATH not in state.players[chooser].lore:
        return False
    from plugins.blighted_reach.fate_steward import AUTHORITY, authority_policy

    policies = edicts.policies(_cbox())
    if "enforce" in choice:  # the Govern the Imperial Reach stack, or Govern with Authority's
        top = edicts.current_policy(_cbox(), state)
        return (top is not None and top.name == WAR) or authority_policy(state) == WAR
    card = choice.get("change")
    return (card in policies and policies[card].name == WAR) or AUTHORITY.get(card) == WAR


def _cbox():
    from plugins.blighted_reach.content import default_box

    return default_box()


edicts.GOVERN_LIMITS.append(war_policy_barred)


def _trophies_note(state: BlightedReachState):
    holder = holder_of(state, OATH) if is_campaign(state) else -1
    if holder < 0 or OATH not in state.players[holder].lore:
        return None
    return (holder, len(state.players[holder].trophies))


def _watch_trophies(ctx, noted) -> None:
    """The Oath's holder took Trophies in this step: each but a Blight goes back to its owner."""
    from plugins.blighted_reach.fate_pacifist import return_trophy
    from plugins.blighted_reach.invariants import BLIGHT_TROPHY

    if noted is None:
        return
    holder, before = noted
    player = ctx.state.players[holder]
    new = player.trophies[before:]
    back = [t for t in new if t.kind != BLIGHT_TROPHY]
    if not back:
        return
    player.trophies[before:] = [t for t in new if t.kind == BLIGHT_TROPHY]
    for trophy in back:
        return_trophy(ctx.state, trophy)
    ctx.emit("trophies_returned", seat=holder, count=len(back), why=OATH)


def _register_watch() -> None:
    from plugins.blighted_reach.fate_steward import AROUND_STEPS

    AROUND_STEPS.append((_trophies_note, _watch_trophies))


_register_watch()


def scrap_stray_oath(ctx) -> None:
    """"Scrap this if you're not the Peacekeeper": a holder playing another Fate loses it."""
    state = ctx.state
    holder = holder_of(state, OATH)
    if holder < 0 or state.fates[holder] == PEACEKEEPER:
        return
    state.players[holder].lore.remove(OATH)
    state.scrapped.append(OATH)
    ctx.emit("cards_scrapped", seat=holder, cards=[OATH], why=OATH)


# -- F1503 Arsenal Keepers --------------------------------------------------------------------


def on_arsenal(state: BlightedReachState) -> int:
    return state.card_resources.get(ARSENAL, []).count(WEAPON)


def _arsenal_record(state: BlightedReachState):
    """The waiting placement of the Arsenal's holder that holds a Weapon not yet offered."""
    holder = holder_of(state, ARSENAL)
    if holder < 0 or ARSENAL not in state.players[holder].guild:
        return None
    return next((r for r in state.placing if r.seat == holder and r.number not in state.arsenal_declined
                 and WEAPON in r.tokens), None)


def arsenal_question(ctx):
    """`placing_flow.QUESTIONS`: one Weapon onto Arsenal Keepers, or none (then the rest of
    that placement is placed as usual)."""
    state = ctx.state
    if not is_campaign(state) or not state.placing:
        return None
    state.arsenal_declined = [n for n in state.arsenal_declined if any(r.number == n for r in state.placing)]
    record = _arsenal_record(state)
    if record is None:
        return None
    options = [Action("arsenal_keepers", {"keep": False}), Action("arsenal_keepers", {"keep": True})]
    return ctx.prompt(record.seat, "arsenal_keepers", options, resume=arsenal_kept, number=record.number,
                      question=True)


@steps("arsenal_kept")
def arsenal_kept(ctx, seat, params, number: int, question: bool = True):
    state = ctx.state
    record = next((r for r in state.placing if r.number == number), None)
    if record is None:
        return
    if not params["keep"]:
        state.arsenal_declined.append(number)
        return
    record.tokens.remove(WEAPON)
    if not record.tokens and not record.rearrange:
        state.placing.remove(record)
    state.card_resources.setdefault(ARSENAL, []).append(WEAPON)
    ctx.emit("resources_on_card", seat=seat, card=ARSENAL, resources=[WEAPON])


placing_flow.QUESTIONS.append(arsenal_question)
card_slots.holds(ARSENAL, [WEAPON])


def trust_take_offer(ctx, seat: int, resource: str) -> None:
    """The First Regent holding Arsenal Keepers took a Weapon for the Imperial Trust: it may
    put it on the card instead."""
    state = ctx.state
    if resource != WEAPON or ARSENAL not in state.players[seat].guild or WEAPON not in state.trust:
        return
    options = [Action("arsenal_keepers", {"keep": False}), Action("arsenal_keepers", {"keep": True})]
    ctx.prompt(seat, "arsenal_keepers", options, resume=arsenal_from_trust)


@steps("arsenal_from_trust")
def arsenal_from_trust(ctx, seat, params):
    state = ctx.state
    if not params["keep"] or WEAPON not in state.trust:
        return
    state.trust.remove(WEAPON)
    state.card_resources.setdefault(ARSENAL, []).append(WEAPON)
    ctx.emit("resources_on_card", seat=seat, card=ARSENAL, resources=[WEAPON], why="trust")


@hookimpl(specname="arcs_raid_options")
def arsenal_raid_options(state, thief, victim, keys):
    from plugins.arcs.outrage import guarded

    if not isinstance(state, BlightedReachState) or victim < 0 or holder_of(state, ARSENAL) != victim:
        return []
    if keys < ARSENAL_RAID_COST or not on_arsenal(state) or guarded(box_for(state), state, victim):
        return []
    return [{"arsenal": WEAPON}]


@hookimpl(specname="arcs_raided")
def arsenal_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if not isinstance(state, BlightedReachState) or "arsenal" not in params:
        return None
    if {"arsenal": WEAPON} not in arsenal_raid_options(state, thief, victim, keys):
        raise IllegalAction(f"no Weapon on Arsenal Keepers for {keys} keys")
    held = state.card_resources[ARSENAL]
    held.remove(WEAPON)
    if not held:
        del state.card_resources[ARSENAL]
    placing.receive(state, thief, WEAPON)
    ctx.emit("stolen", thief=thief, victim=victim, resource=WEAPON, card=ARSENAL)
    return keys - ARSENAL_RAID_COST


# -- F1504 failed: Arsenal Keepers into the Court deck ------------------------------------------


@fates.handler("arsenal_to_court_deck")
def arsenal_to_court_deck(ctx, seat: int, card_id: str, effect) -> None:
    """The Peacekeeper's Arsenal Keepers, if it has it, goes into the Court deck (shuffled
    in); its Weapons go back to the supply with it."""
    from core import chance

    state = ctx.state
    if ARSENAL not in state.players[seat].guild:
        return
    state.players[seat].guild.remove(ARSENAL)
    for r in state.card_resources.pop(ARSENAL, []):
        state.supply[r] = state.supply.get(r, 0) + 1
    state.court_deck.append(ARSENAL)
    chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("added_to_court_deck", seat=seat, cards=[ARSENAL], why=card_id)


# -- F1507 the Ceasefire tokens ---------------------------------------------------------------


def clusters_in_play(state: BlightedReachState) -> list[int]:
    box = rules_box()
    return sorted({box.cluster_of(s) for s in state.systems})


def cluster_systems(state: BlightedReachState, cluster: int) -> list[str]:
    box = rules_box()
    return [s for s in sorted(state.systems) if box.cluster_of(s) == cluster]


def controls_in(state: BlightedReachState, seat: int, cluster: int) -> int:
    """Systems of the cluster the seat controls, the First Regent counting the Empire's (BR-121)."""
    return sum(board.controls_for_scoring(state, seat, s) for s in cluster_systems(state, cluster))


@fates.handler("place_ceasefires")
def place_ceasefires(ctx, seat: int, card_id: str, effect) -> None:
    """One Ceasefire per cluster in play: Peace where the Peacekeeper controls any system."""
    state = ctx.state
    state.ceasefires = {str(c): (PEACE if controls_in(state, seat, c) else WAR) for c in clusters_in_play(state)}
    ctx.emit("ceasefires_placed", seat=seat, ceasefires=dict(state.ceasefires), why=card_id)


def at_peace(state, system: str) -> bool:
    return getattr(state, "ceasefires", {}).get(str(rules_box().cluster_of(system))) == PEACE


def clusters_at_peace(state: BlightedReachState) -> int:
    return sum(side == PEACE for side in state.ceasefires.values())


for _goal, _least in GOAL_CLUSTERS.items():
    objectives.GOAL_RULES[_goal] = (lambda least: (
        lambda box, cbox, state, seat: clusters_at_peace(state) >= least))(_least)


# -- F1508 Ceasefires -------------------------------------------------------------------------


def ceasefires_in_force(state) -> bool:
    return is_campaign(state) and any(CEASEFIRES in slot for slot in state.booklet)


def spare_weapons(state, seat: int, pay: int) -> int:
    """Weapons in the seat's slots beyond one paying for the action itself."""
    row = state.players[seat].resources
    paid = 1 if 0 <= pay < len(row) and row[pay] == WEAPON else 0
    return row.count(WEAPON) - paid


@hookimpl(specname="arcs_check_attack", tryfirst=True)
def ceasefire_check_attack(box, state, seat, act):
    """A battle in a cluster at Peace, against anything but the Blight, needs a Weapon to
    spend (beyond one paying for the battle). Never decides the check itself (None).
    # Reading: a battle harms the defender's pieces, none of them the attacker's Loyal
    # pieces; frozen Weapons (Arsenal Keepers') cannot be spent."""
    from plugins.blighted_reach.blight import BLIGHT

    if not ceasefires_in_force(state) or act.defender == BLIGHT or act.system not in state.systems:
        return None
    if at_peace(state, act.system) and spare_weapons(state, seat, act.pay) < 1:
        raise IllegalAction(f"{CEASEFIRES}: battling in a cluster at Peace needs 1 Weapon to spend")
    return None


@hookimpl(specname="arcs_battle_begun")
def ceasefire_battle_begun(ctx, imperial_fresh, imperial_damaged):
    """The battle's Weapon is spent and its cluster turns to War."""
    from plugins.blighted_reach.blight import BLIGHT

    state = ctx.state
    b = getattr(state, "battle", None)
    if b is None or not ceasefires_in_force(state) or b.defender == BLIGHT or not at_peace(state, b.system):
        return
    row = state.players[b.attacker].resources
    if WEAPON in row:
        row[row.index(WEAPON)] = None
        state.supply[WEAPON] = state.supply.get(WEAPON, 0) + 1
    cluster = str(rules_box().cluster_of(b.system))
    state.ceasefires[cluster] = WAR
    ctx.emit("ceasefire_broken", seat=b.attacker, cluster=cluster, why=CEASEFIRES)


def peace_clusters_harmed(state, seat: int, harmed: dict) -> list[str]:
    """The clusters at Peace where a card's harm outside a battle would fall on something
    other than the seat's own (Loyal) pieces and the Blight."""
    from plugins.blighted_reach.blight import BLIGHT

    out = set()
    for system, owners in harmed.items():
        if system in state.systems and at_peace(state, system) and any(o not in (seat, BLIGHT) for o in owners):
            out.add(str(rules_box().cluster_of(system)))
    return sorted(out)


def ceasefire_harm_refused(state, seat: int, harmed: dict) -> str:
    """`abilities.HARM_PRICES`: a card's harm in a cluster at Peace needs 1 Weapon (in the
    seat's slots) for each such cluster.
    # Reading: Fire Rifles pays as it fires (its hits may all miss), as a battle pays as it
    # begins; Navy Reprisal's "reprisal" chosen on securing the card is the card's harm, not a
    # Crisis (the Crisis drawn from the deck is never limited)."""
    if not isinstance(state, BlightedReachState) or not ceasefires_in_force(state):
        return ""
    need = len(peace_clusters_harmed(state, seat, harmed))
    if need and state.players[seat].resources.count(WEAPON) < need:
        return f"{CEASEFIRES}: harming pieces in a cluster at Peace needs 1 Weapon to spend"
    return ""


def ceasefire_harm_paid(env, seat: int, harmed: dict) -> None:
    """Each cluster at Peace harmed costs a Weapon (back to the supply) and turns to War."""
    state = env.state
    if not isinstance(state, BlightedReachState) or not ceasefires_in_force(state):
        return
    row = state.players[seat].resources
    for cluster in peace_clusters_harmed(state, seat, harmed):
        row[row.index(WEAPON)] = None
        state.supply[WEAPON] = state.supply.get(WEAPON, 0) + 1
        state.ceasefires[cluster] = WAR
        env.emit("ceasefire_broken", seat=seat, cluster=cluster, why=CEASEFIRES)


abilities.HARM_PRICES.append((ceasefire_harm_refused, ceasefire_harm_paid))


def weapon_paid_in_trial(box, trial, seat: int, act) -> None:
    """`turn.ABILITY_TRIALS`: a new action paid with a Weapon leaves that Weapon off the trial,
    so the Ceasefires count only the Weapons left to spend."""
    if not isinstance(trial, BlightedReachState) or not ceasefires_in_force(trial) or act.pay < 0:
        return
    row = trial.players[seat].resources
    if act.pay < len(row) and row[act.pay] == WEAPON:
        row[act.pay] = None


arcs_turn.ABILITY_TRIALS.append(weapon_paid_in_trial)


def ceasefire_problems(state: BlightedReachState) -> list[str]:
    """Once placed (F1507), one Ceasefire token per cluster in play, each Peace or War."""
    if not state.ceasefires:
        return []
    out = []
    if set(state.ceasefires) != {str(c) for c in clusters_in_play(state)}:
        out.append(f"the Ceasefire tokens are not one per cluster in play: {sorted(state.ceasefires)}")
    if any(side not in (PEACE, WAR) for side in state.ceasefires.values()):
        out.append("a Ceasefire token is neither Peace nor War")
    return out


# -- F1509 Empire Balks at Peace --------------------------------------------------------------


def balk_options(state: BlightedReachState) -> list[int]:
    """Clusters at Peace where the Empire controls 2 systems or more, when the Policy is War
    and the Peacekeeper is an Outlaw; else none."""
    keeper, fr = peacekeeper_seat(state), state.first_regent
    policy = edicts.current_policy(_cbox(), state)
    if keeper < 0 or fr < 0 or policy is None or policy.name != WAR or state.titles[keeper] != "outlaw":
        return []
    return [int(c) for c, side in sorted(state.ceasefires.items()) if side == PEACE
            and sum(board.empire_controls(state, s) for s in cluster_systems(state, int(c))) >= 2]


@fates.handler("empire_balks_at_peace")
def empire_balks_at_peace(ctx, seat: int, card_id: str, effect) -> None:
    state = ctx.state
    options = balk_options(state)
    if not options:
        ctx.emit("empire_balks", card=card_id, cluster=0)
        return
    actions = [Action("balk_at_peace", {"cluster": 0})] + [Action("balk_at_peace", {"cluster": c}) for c in options]
    ctx.ask(state.first_regent, "balk_at_peace", actions, resume=balked, why=card_id)


@steps("peacekeeper_balked")
def balked(ctx, seat, params, why: str):
    cluster = params["cluster"]
    if cluster:
        ctx.state.ceasefires[str(cluster)] = WAR
    ctx.emit("empire_balks", card=why, seat=seat, cluster=cluster)


# -- F1510 Peace Dividends --------------------------------------------------------------------


def dividend_systems(state: BlightedReachState, seat: int) -> int:
    """Systems at Peace the seat controls; the Empire's count for the First Regent only under
    the Peace Policy."""
    policy = edicts.current_policy(_cbox(), state)
    peace_policy = policy is not None and policy.name == PEACE
    out = 0
    for c, side in state.ceasefires.items():
        if side != PEACE:
            continue
        for s in cluster_systems(state, int(c)):
            who = board.controller(state, s)
            if who == seat or (who == board.EMPIRE and peace_policy and board.controls_for_scoring(state, seat, s)):
                out += 1
    return out


@fates.handler("peace_dividends")
def peace_dividends(ctx, seat: int, card_id: str, effect) -> None:
    state = ctx.state
    gains = {}
    for s in objectives.turn_order(state):
        power = 2 * dividend_systems(state, s)
        if power:
            state.players[s].power += power
            gains[str(s)] = power
    ctx.emit("peace_dividends", card=card_id, power=gains)


# -- F1511 Peace Accords: Broker Peace ---------------------------------------------------------


def accords_in_force(state) -> bool:
    return is_campaign(state) and any(ACCORDS in slot for slot in state.booklet)


def _consent_ok(state, seat: int, cluster: int, consenting: list[int]) -> bool:
    return controls_in(state, seat, cluster) + sum(controls_in(state, r, cluster) for r in consenting) >= 2


def options_broker(box, cbox, state, seat: int) -> list[dict]:
    """Each cluster at War with each set of Rivals (whose Favors the seat holds and who
    control systems there) whose consent brings the systems controlled to 2."""
    if not accords_in_force(state):
        return []
    from itertools import combinations

    out = []
    held = sorted(set(favors.favors_of(state, seat)))
    for c, side in sorted(state.ceasefires.items()):
        if side != WAR:
            continue
        cluster = int(c)
        helpers = [r for r in held if controls_in(state, r, cluster)]
        for k in range(len(helpers) + 1):
            for group in combinations(helpers, k):
                if _consent_ok(state, seat, cluster, list(group)):
                    out.append({"cluster": cluster, "favors": list(group)})
    return out


def check_broker(box, cbox, state, seat: int, params: dict) -> None:
    if not accords_in_force(state):
        raise IllegalAction(f"{ACCORDS} is not in the booklet")
    if set(params) != {"cluster", "favors"} or not isinstance(params["favors"], list):
        raise BadParameter("Broker Peace takes {'cluster': n, 'favors': [rival seats]}")
    if state.ceasefires.get(str(params["cluster"])) != WAR:
        raise IllegalAction(f"cluster {params['cluster']} is not at War")
    if len(set(params["favors"])) != len(params["favors"]):
        raise BadParameter("each Rival consents once")
    for r in params["favors"]:
        favors.check_return_favor(state, seat, r)
    if not _consent_ok(state, seat, params["cluster"], params["favors"]):
        raise IllegalAction("the consenting players control fewer than 2 systems in that cluster")


def broker(ctx, seat: int, choice: dict) -> None:
    """The Rivals' Favors go home (their consent) and the cluster turns to Peace.
    # Reading: a Rival's consent here is bought with one of its Favors (the engine has no
    # free-form agreement for this move); the broker's own control counts with theirs."""
    state = ctx.state
    for r in choice["favors"]:
        favors.return_favor(state, seat, r)
    state.ceasefires[str(choice["cluster"])] = PEACE
    ctx.emit("peace_brokered", seat=seat, cluster=choice["cluster"], favors=list(choice["favors"]), why=ACCORDS)


summits.FATE_NEGOTIATIONS["broker_peace"] = summits.FateNegotiation(options=options_broker, check=check_broker,
                                                                    apply=broker)


# -- after each action ------------------------------------------------------------------------


@hookimpl(specname="conclave_action_applied")
def peacekeeper_after_action(ctx, seat, action):
    if isinstance(ctx.state, BlightedReachState):
        scrap_stray_oath(ctx)

