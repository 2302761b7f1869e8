"""The Blighted Reach (`blighted-reach`) as a pluggy game plugin on the Arcs rules: the
base flow (`plugins.arcs`) plays the rounds with the campaign's box (`rules_box`), and the
hooks below add what the campaign changes (Act setup, Event cards, the Imperial Council,
the Act's end)."""
from __future__ import annotations

import sys

from core.errors import BadOption, IllegalAction, IncompatibleModules
from core.hookspecs import hookimpl
from core.plugins import GameSpec, OptionSpec
from plugins.arcs import hookspecs as arcs_hookspecs
from plugins.arcs import plugin as arcs_plugin
from plugins.arcs.content import box_for, register_box
from plugins.arcs.tables import decisions as arcs_decisions
from plugins.arcs.views import redact as arcs_redact
from plugins.arcs import court_ops, placing_flow
from plugins.blighted_reach import act_flow, campaign_flow, event_cards, event_flow, summit_flow  # noqa: F401 (their steps)
from plugins.blighted_reach import attachments, secrets
from plugins.blighted_reach import court_secured  # noqa: F401 (the Court's own When Secured ops)
from plugins.blighted_reach import fate_magnate  # noqa: F401 (its rules)
from plugins.blighted_reach import fate_advocate  # noqa: F401 (its rules)
from plugins.blighted_reach import fate_caretaker  # noqa: F401 (its rules)
from plugins.blighted_reach.fate_caretaker import (  # noqa: F401
    arcs_raid_options, arcs_raided, arcs_turn_begun,
)
from plugins.blighted_reach import fate_believer  # noqa: F401 (its rules)
from plugins.blighted_reach.fate_believer import (  # noqa: F401
    arcs_chapter_deal, arcs_city_destroyed, arcs_played_as,
)
from plugins.blighted_reach import fate_admiral  # noqa: F401 (its rules)
from plugins.blighted_reach import fate_pirate, fate_pirate_hoard, fate_pirate_rumors  # noqa: F401 (the Hoard's steps)
from plugins.blighted_reach.fate_pirate_rumors import rumor_after_theft, rumor_battle_begun  # noqa: F401 (hooks)
from plugins.blighted_reach.fate_pirate import (  # noqa: F401 (the Pirate's hooks)
    fleet_battle_begun, pirate_raid_options, pirate_raided,
)
from plugins.blighted_reach import fate_pacifist  # noqa: F401 (its rules, issue 20)
from plugins.blighted_reach.fate_pacifist import (  # noqa: F401 (the Pacifist's hooks)
    empathy_battle_begun, empathy_in_battle, pacifist_after_action, well_raid_options, well_raided,
)
from plugins.blighted_reach import fate_blight_speaker  # noqa: F401 (its rules, issue 20)
from plugins.blighted_reach import fate_pathfinder  # noqa: F401 (its rules, issue 20)
from plugins.blighted_reach.fate_planet_breaker import (  # noqa: F401 (the Planet Breaker's rules and hooks)
    eater_agents_back, no_slots_on_broken_worlds, planet_breaker_after_action,
)
from plugins.blighted_reach import fate_hegemon  # noqa: F401 (its rules, issue 20)
from plugins.blighted_reach.fate_hegemon import hosts_keep_question, ship_captives_return  # noqa: F401 (the Hegemon's hooks)
from plugins.blighted_reach.fate_blight_speaker import hunger_returns  # noqa: F401 (the Blight Speaker's hook)
from plugins.blighted_reach import fate_steward  # noqa: F401 (its rules)
from plugins.blighted_reach.fate_steward import (  # noqa: F401 (hookimpls)
    arcs_declared_by_card, arcs_taxed,
)
from plugins.blighted_reach.fate_founder import (  # noqa: F401 (the Founder's hooks)
    armistice_secured, commonwealth_marker_home, founder_watch_disgrace,
)
from plugins.blighted_reach.fate_partisan import (  # noqa: F401 (the Partisan's hooks)
    partisan_seize_offer, partisan_watch_initiative, sower_round_end,
)
from plugins.blighted_reach import fate_c, fate_founder, fate_overlord, fate_redeemer  # noqa: F401 (their rules)
from plugins.blighted_reach import fate_guardian
from plugins.blighted_reach.fate_guardian import edenguard_box_kept, tyrant_scored  # noqa: F401 (the Guardian's hooks)
from plugins.blighted_reach import fate_survivalist
from plugins.blighted_reach import fate_gate_wraith, fate_gate_wraith_storms  # noqa: F401 (the Gate Wraith's rules)
from plugins.blighted_reach.fate_gate_wraith_dead import the_dead_live  # noqa: F401 (F2204's hook)
from plugins.blighted_reach import fate_naturalist
from plugins.blighted_reach.fate_naturalist import blightkin_box_kept  # noqa: F401 (the Naturalist's hook)
from plugins.blighted_reach.fate_survivalist import (  # noqa: F401 (the Survivalist's hooks)
    bunker_battle_resolve, bunker_trophies_home, vow_keep_question,
)
from plugins.blighted_reach import fate_conspirator
from plugins.blighted_reach.fate_conspirator import conspiracy_declared_by_card  # noqa: F401 (the Conspirator's hook)
from plugins.blighted_reach import fate_judge
from plugins.blighted_reach import fate_peacekeeper
from plugins.blighted_reach.fate_peacekeeper import (  # noqa: F401 (the Peacekeeper's hooks)
    arsenal_raid_options, arsenal_raided, ceasefire_battle_begun, ceasefire_check_attack, peacekeeper_after_action,
)
from plugins.blighted_reach import fate_warden_courts, fate_warden_levy  # noqa: F401 (their rules, issue 20)
from plugins.blighted_reach.fate_warden import feudal_battle_begun  # noqa: F401 (the Warden's hook)
from plugins.blighted_reach.fate_judge import (  # noqa: F401 (the Judge's hooks)
    chosen_battle_begun, chosen_candidates, chosen_moved_along, judge_raid_options, judge_raided,
)
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach import empire_hooks
from plugins.blighted_reach.empire_hooks import *  # noqa: F401,F403 - the Empire on the Arcs flow (its hooks)
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.setup import is_event_card
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import decisions, steps

GAME_ID = "blighted-reach"
register_box(GAME_ID, rules_box)


def _game() -> GameSpec:
    return GameSpec(
        id=GAME_ID,
        name="Arcs: The Blighted Reach",
        min_players=2,
        max_players=4,
        plugin=sys.modules[__name__],
        description="The Arcs campaign over three Acts, played as a campaign: Fates, the Empire, the "
                    "Blight, Summits, Crises and Edicts, the Intermission between Acts.",
        # BR-349: the box's B Fates after Act I, its C Fates after Act II
        options={"later_fates": OptionSpec(default="box", choices=("box", "built", "a-fates"),
                                           labels=("The box's B then C Fates", "Those marked built, topped up "
                                                   "with unplayed A Fates", "Only unplayed A Fates (house rule)"),
                                           description="The Fates an Intermission offers")},
        hookspecs=arcs_hookspecs,
        state_type=BlightedReachState,
        campaign_only=True,  # every table is an Act of a campaign (a table without one starts one)
    )


@hookimpl
def conclave_register_games():
    return [_game()]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules, content):
    if game != GAME_ID:
        return None
    return BlightedReachState(game=game, seats=seats, seed=seed, options=options, modules=modules)


@hookimpl
def conclave_setup(ctx):
    if ctx.state.game == GAME_ID:
        ctx.push(act_flow.begin_act_one)  # a campaign's later Act replaces it (conclave_campaign_begin)


# -- the campaign (a SQL campaign like The Queen's Dilemma's: one table per Act) ------------
@hookimpl
def conclave_campaign_new(game, seats, options):
    if game != GAME_ID:
        return None
    return {"players": len(seats), "acts_played": 0, "log": None, "finished": False, "winner": -1, "acts": []}


@hookimpl
def conclave_campaign_begin(ctx, campaign):
    """An Act after the first starts from the campaign's log sheet (BR-066)."""
    state = ctx.state
    if state.game != GAME_ID or not campaign.get("log"):
        return
    if campaign.get("finished"):
        raise IllegalAction("this campaign is over")
    if campaign["players"] != len(state.seats):
        raise BadOption(f"this campaign has {campaign['players']} players, not {len(state.seats)}")
    if campaign.get("modules", []) != sorted(state.modules):  # modules are chosen when a campaign starts
        raise IncompatibleModules(f"this campaign plays {campaign.get('modules') or 'no modules'}, "
                                  f"not {sorted(state.modules) or 'no modules'}: modules are chosen when it starts")
    first = act_flow.begin_act_one.step_name
    state.stack = [s for s in state.stack if s.name != first]
    ctx.push(campaign_flow.later_act, log=campaign["log"])


@hookimpl
def conclave_campaign_save(state, campaign):
    """After an Act's table: the log sheet (everything the next Act keeps), the Act's line."""
    if state.game != GAME_ID:
        return
    from plugins.blighted_reach import campaign as sheet

    log = sheet.pack_up(box_for(state), campaign_box(), state)
    campaign.update(log=sheet.to_json(log), acts_played=state.act, finished=log.finished, winner=log.winner)
    if state.modules:  # kept only when there are some: a campaign without modules looks as before
        campaign["modules"] = sorted(state.modules)
    campaign["acts"] = [*campaign.get("acts", []), {"act": state.act, "power": [p.power for p in state.players],
                                                      "fates": list(state.fates)}]


@hookimpl
def conclave_campaign_standings(game, campaign):
    if game != GAME_ID:
        return None
    log = campaign.get("log")
    if not log:
        return [{"seat": s, "power": 0, "fate": None, "acts": []} for s in range(campaign["players"])]
    return [{"seat": p["seat"], "name": p["name"], "fate": p["fate"], "power": p["board"].get("power", 0),
             "title": p["title"], "acts": p["acts"], "winner": log.get("winner", -1) == p["seat"]}
            for p in sorted(log["players"], key=lambda p: p["seat"])]


@hookimpl
def conclave_campaign_over(game, campaign):
    if game != GAME_ID:
        return None
    return bool(campaign.get("finished"))


@hookimpl
def conclave_step_handlers():
    handlers = {**arcs_plugin.settled_handlers(), **placing_flow.settled_steps(steps)}  # tokens placed after each
    handlers = fate_judge.arbiter_before_scoring(handlers)  # F2403: gifts at the start of scoring
    return fate_steward.burying_all(handlers)  # then an Outlaw's bury_if_outlaw cards buried


@hookimpl
def conclave_decisions():
    return {**arcs_decisions, **decisions}


# -- the Arcs rules' extension points ----------------------------------------------------
@hookimpl
def arcs_tax_captures(state, seat, system, building):
    """No Captive for a city taxed like a Loyal one: by a Control Array (BR-302), by Pirate
    Smugglers without control (F1205), or by the Steward's Imperial Authority
    (`fate_steward.tax_takes_captive`)."""
    if empire_hooks.tax_by_control_array(state, seat, system, building):
        return False
    if fate_pirate.smuggled_without_control(state, seat, system, building):
        return False  # F1205: no Captive from a city taxed without control
    return fate_steward.tax_takes_captive(state, seat, system, building)


@hookimpl
def arcs_follow_kinds(state, seat, card):
    return event_cards.follow_kinds(card)


@hookimpl
def arcs_may_lead(state, seat, card):
    return False if is_event_card(card) else None  # BR-145, BR-150


@hookimpl
def arcs_may_seize_with(state, seat, card):
    if fate_believer.is_faithful(card):
        return True  # F813: a Faithful card is an action card (face down, no side)
    return False if is_event_card(card) else None  # BR-145


@hookimpl
def arcs_play_buys(state, seat, kind, card):
    if is_event_card(card):
        return event_cards.buys(box_for(state), state, seat)
    if fate_believer.side_of(card):
        return fate_believer.buys(box_for(state), state, seat, kind, card)  # F802
    return None


@hookimpl
def arcs_take_court_card(ctx, seat, card, rivals_to):
    fate_steward.note_taken(ctx.state, seat, card)  # the securer's agents there, before they go home
    fate_conspirator.note_secured(ctx.state, seat, card, rivals_to)  # F2305: the Conspirator's agents there
    fate_warden_courts.court_token_taken(ctx, seat, card, rivals_to)  # F1618: the Fief's Court token
    if ctx.state.game == GAME_ID:
        attachments.take_along(ctx, seat, card, secured=rivals_to == "captives")  # BR-315: what is attached comes too
    return event_flow.take_council(ctx, seat, card, rivals_to) or None


# -- hooks several Fates answer (one implementation each here, calling theirs in turn) ----------
@hookimpl
def arcs_declared(ctx, seat, ambition):
    fate_believer.arcs_declared(ctx, seat, ambition)    # F822/F823: an Ideal on the declared box
    fate_steward.sponsored_declared(ctx, seat, ambition)  # F123: the Sponsored ambition claimed
    fate_conspirator.conspiracy_declared(ctx, seat, ambition)  # F2303: a Conspiracy, not a marker


@hookimpl
def arcs_court_secured(ctx, seat, card, position):
    fate_caretaker.arcs_court_secured(ctx, seat, card, position)  # F512B, F513
    fate_steward.council_insiders_offer(ctx, seat, card)          # F116
    fate_conspirator.foil_offer(ctx, seat, card)                  # F2305


@hookimpl
def arcs_round_end(ctx):
    if ctx.state.game == GAME_ID:
        fate_magnate.settle_card_resources(ctx.state)
        event_flow.round_end(ctx)


@hookimpl
def arcs_chapter_scoring(ctx):
    if ctx.state.game == GAME_ID:
        campaign_flow.chapter_scoring(ctx)
        fate_guardian.score_edenguard(ctx)  # F2004: the ambition the base board lacks
        fate_naturalist.score_blightkin(ctx)  # F2104: another


@hookimpl
def arcs_chapter_scored(ctx):
    if ctx.state.game == GAME_ID:
        fate_conspirator.score_conspiracies(ctx)  # F2304: the boxes still hold their markers
        campaign_flow.chapter_scored(ctx)
        fate_magnate.chapter_scored(ctx)  # after scoring, the grand ambitions' too (F325)
        fate_redeemer.chapter_scored(ctx)  # F1901: before the campaign's winner is looked for


@hookimpl
def arcs_declarable(state, seat, card, ambitions):
    """What a lead card declares under the Fates' laws: the Believer's (F814, F823, F828,
    F830), Edenguard instead of Tycoon (F2004), Blightkin instead of Empath (F2104), and no
    ambition an Ire card (or Vow of Survival) forbids (F1902, F2003, F1802) nor any for the
    Conspirator without a Conspiracy left (F2303). None: as printed."""
    if state.game != GAME_ID:
        return None
    believed = fate_believer.declarable(state, seat, card, ambitions)
    out = fate_guardian.declarable(state, list(ambitions if believed is None else believed))
    out = fate_naturalist.declarable(state, out)
    out = [a for a in out if not court_ops.declare_barred(state, seat, a)]  # the Ire cards', the Vow's, the Conspirator's
    return out if out != list(ambitions) else None


@hookimpl
def arcs_ambition_gains(state, ambition, gains):
    """One ambition's Power by the Fates' rules: the Commonwealth ambition's (F214), Tycoon
    without Power for the holder of Ire of the Tycoons (F2003), second place's Power only
    for a win of the holder of Vow of Survival (F1802)."""
    if state.game != GAME_ID:
        return None
    own = fate_founder.commonwealth_scoring(state, ambition, gains)
    tycoon = fate_guardian.tycoon_gains(state, ambition, gains if own is None else own)
    own = own if tycoon is None else tycoon
    vow = fate_survivalist.vow_gains(state, ambition, gains if own is None else own)  # F1802
    own = own if vow is None else vow
    oath = fate_peacekeeper.warlord_gains(state, ambition, gains if own is None else own)  # F1502
    result = own if oath is None else oath
    if ambition == "warlord" and fate_hegemon.banner_trophies(state):  # F1003: 2 more per Banner Trophy
        return fate_hegemon.warlord_banner_power(state, gains if result is None else result)
    return result


@hookimpl
def arcs_game_ending(ctx):
    return campaign_flow.game_ending(ctx) or None


@hookimpl
def arcs_ability_used(ctx, seat, card, when):
    if ctx.state.game == GAME_ID:
        fate_advocate.ability_used(ctx, seat, card, when)


@hookimpl
def arcs_tax_repeatable(state, seat, system, building):
    return state.game == GAME_ID and fate_magnate.tax_repeatable(state, seat, system, building)


@hookimpl
def arcs_copied(ctx, seat, action):
    if ctx.state.game == GAME_ID:
        fate_advocate.copied(ctx, seat, action)


@hookimpl
def arcs_summit_deal_done(ctx, proposal, parts):
    if ctx.state.game == GAME_ID:
        fate_magnate.deal_done(ctx, proposal, parts)


@hookimpl
def arcs_game_over(state):
    """BR-078, BR-079: an Act ends after its last chapter; Power never ends it early."""
    return state.chapter >= campaign_box().campaign.chapters_per_act[str(state.act)]


@hookimpl
def arcs_result(ctx):
    state = ctx.state
    return {"act": state.act, "power": [p.power for p in state.players], "chapter": state.chapter}


# -- reading -------------------------------------------------------------------------------
@hookimpl
def conclave_view(state, viewer, view):
    if state.game != GAME_ID:
        return
    arcs_redact(state, viewer, view)
    view["fates"] = list(state.fates) if all(state.fates) else [""] * len(state.fates)  # BR-053, A-R7
    view["fate_offer"] = (list(state.fate_offers[viewer])
                          if viewer is not None and viewer < len(state.fate_offers) else None)
    view["lore_deck_count"] = len(state.lore_deck)
    view["golems"] = fate_caretaker.golem_view(state, viewer)  # Sleeping Golems' types are secret
    view["rumors"] = fate_pirate_rumors.rumor_view(state, viewer)  # a Rumor's face to those who may peek
    view["portal_secret"] = fate_pathfinder.portal_view(state, viewer)  # the recorded planet, to its Keeper only
    view["conspiracies"] = fate_conspirator.conspiracy_view(state, viewer)  # their colours to the Conspirator alone


@hookimpl
def conclave_secrets(state, viewer, events):
    if state.game == GAME_ID:
        return secrets.secrets(state, viewer, events)
    return None


@hookimpl
def conclave_campaign_stats(game, campaign):
    if game == GAME_ID:
        return secrets.campaign_stats(campaign)
    return None


@hookimpl
def conclave_check_invariants(state):
    if state.game != GAME_ID:
        return []
    return problems(rules_box(), campaign_box(), state)


@hookimpl
def conclave_graphql_types():
    from plugins.blighted_reach.graphql import BlightedReachState as View, from_view

    return [(GAME_ID, View, from_view)]
