"""The Age of Disorder module (plugins/age_of_disorder): the three purple Envelopes, opened
at the campaign's one-time setup and never later."""
from __future__ import annotations

import msgspec
import pytest

from core.engine import view
from core.errors import IncompatibleModules
from core.state import Action
from plugins.queens_dilemma.content import CHARACTERS
from tests.queens_dilemma.harness import BOX, Recorder, act, bot_until, campaign, played_campaign_game, start, voting

AOD = ["age-of-disorder"]
PURPLE = ["DAOD", "CAOD", "AAOD"]
AAOD = {"Aesyas": "AAOD1", "Elinor": "AAOD2", "Jilian": "AAOD3", "Lyrie": "AAOD4", "Syd": "AAOD5", "Xanthe": "AAOD6"}
STARTING = {"Aesyas": "A106", "Elinor": "A127", "Jilian": "A044", "Lyrie": "A064", "Syd": "A086", "Xanthe": "A017"}


def aod_game(players: int = 4, characters: list[str] | None = None, seed: int = 0, resources: dict | None = None):
    """A new campaign with Age of Disorder, played up to the first vote; (table, recorder)."""
    camp = campaign(players=players, characters=characters, regions_chosen=False, modules=AOD)
    for d in camp["diaries"]:
        d["resources"].update(resources or {})
    t = start(camp, seed=seed, modules=AOD)
    rec = Recorder(t, voting)
    bot_until(t, rec, seed=seed)
    return t, rec


def referenced_envelopes() -> set[str]:
    """Every Envelope any card of the box can open (outcome lists and "envelope" effects)."""
    found: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            found.update(x.get("envelopes", []))
            if x.get("op") == "envelope":
                found.add(x["code"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(msgspec.to_builtins([BOX.dilemmas, BOX.stories, BOX.agendas, BOX.chronicles, BOX.mysteries,
                              BOX.events, BOX.skills, BOX.investments]))
    return found


def test_three_purple_envelopes_apart_from_the_core_campaign():
    """QD-009: three of the Envelopes are the purple Age of Disorder ones (DAOD, CAOD, AAOD);
    the core campaign never opens them, only the module's setup does. (The demo box holds 21
    core Envelopes, not the printed 72.)"""
    purple = sorted(c for c in BOX.envelopes if c.endswith("AOD"))
    assert purple == sorted(PURPLE)
    core = set(BOX.envelopes) - set(purple)
    assert "00" in core and not referenced_envelopes() & set(purple)
    table, saved = played_campaign_game(campaign(players=4, regions_chosen=False), seed=1)
    assert not set(saved["opened"]) & set(purple)
    t, _ = aod_game(seed=1)
    assert set(purple) <= set(t.state.campaign.opened)


def test_age_of_disorder_is_chosen_at_the_one_time_setup_only():
    """QD-067: the module joins a campaign whose one-time setup is not done; a campaign that
    has begun (setup done, or a game played) refuses it, and cannot drop it either."""
    t, _ = aod_game(seed=2)
    assert t.state.campaign.modules == AOD
    with pytest.raises(IncompatibleModules):
        start(campaign(players=4), modules=AOD)  # the starting deck is already prepared
    _, saved = played_campaign_game(campaign(players=4, regions_chosen=False), seed=3)
    with pytest.raises(IncompatibleModules):
        start(saved, modules=AOD)
    camp = campaign(players=4, regions_chosen=False, modules=AOD)
    _, saved = played_campaign_game(camp, seed=4, modules=AOD)
    assert saved["modules"] == AOD
    with pytest.raises(IncompatibleModules):
        start(saved)
    assert start(saved, seed=5, modules=AOD).state.campaign.modules == AOD


def test_the_purple_envelopes_open_one_by_one_after_envelope_00():
    """QD-068: DAOD, then CAOD, then AAOD, each once."""
    t, rec = aod_game(seed=6)
    assert [e["code"] for e in rec.of("envelope")] == ["00", "DAOD", "CAOD"]
    assert t.state.campaign.opened == ["00", "DAOD", "CAOD", "AAOD"]
    types = [e.type for e in rec.events]
    last_dealt = max(i for i, e in enumerate(rec.events) if e.type == "agenda" and e.data["code"].startswith("AAOD"))
    first_unlock = types.index("chronicle_unlocked")
    assert types.index("envelope") < first_unlock < last_dealt


def test_daod_dilemmas_are_shuffled_into_the_starting_deck():
    """QD-069: DAOD's 4 Dilemmas join Envelope 00's in the shuffled starting deck."""
    daod = BOX.envelopes["DAOD"].dilemmas
    assert len(daod) == 4 and all(d in BOX.dilemmas for d in daod)
    positions = set()
    for seed in (7, 8, 9):
        t, _ = aod_game(seed=seed)
        deck = t.state.campaign.deck + [t.state.dilemma]
        assert sorted(deck) == sorted(BOX.envelopes["00"].dilemmas + daod)
        positions.add(tuple(deck.index(d) for d in daod))
    # shuffled in, not stacked at one end of the deck
    assert len(positions) > 1 and any(max(p) - min(p) > 3 for p in positions)


def test_caod_chronicles_are_the_starting_unlocked_chronicle_deck():
    """QD-070: CAOD's 4 Chronicles are the unlocked Chronicle deck, drawn in game 1's setup."""
    caod = BOX.envelopes["CAOD"].chronicles
    assert len(caod) == 4
    t, rec = aod_game(seed=10)
    assert sorted(r.code for r in t.state.campaign.chronicle_deck) == sorted(caod)
    [placed] = rec.of("chronicles")
    assert sorted(placed["placed"]) == sorted(caod)
    assert sorted(ch.code for ch in t.state.chronicles) == sorted(caod)
    # without the module there is no unlocked Chronicle to draw
    t = start(campaign(players=4, regions_chosen=False), seed=10)
    bot_until(t, voting, seed=10)
    assert t.state.campaign.chronicle_deck == [] and t.state.chronicles == []


def test_caod_chronicles_are_not_branded():
    """QD-071: no player Brands a CAOD card; a pre-printed Herald (CAOD2 Elinor, CAOD4 Xanthe)
    takes the Herald effects, a herald-less card gives none."""
    t, rec = aod_game(players=6, characters=list(CHARACTERS), seed=11)
    assert all(r.herald is None for r in t.state.campaign.chronicle_deck)
    assert {e["code"]: e["herald"] for e in rec.of("chronicle_unlocked")} == {c: None for c in BOX.envelopes["CAOD"].chronicles}
    seat = {d.character: d.seat for d in t.state.campaign.diaries}
    heralds = {(e["source"], e["seat"], e["what"]) for e in rec.of("gain") if e["source"].startswith("herald")}
    assert heralds == {("herald CAOD2", seat["Elinor"], "food"), ("herald CAOD4", seat["Xanthe"], "army")}


def test_aaod_cards_go_to_their_characters_on_top_of_the_starting_agenda():
    """QD-072 (AAOD1 Aesyas ... AAOD6 Xanthe), QD-073 (given at once, on top of the starting
    Agenda), QD-356 (their blank time limit is 4: game 1 counts as the current game)."""
    assert {a.code: a.character for a in BOX.agendas.values() if a.code.startswith("AAOD")} == \
        {v: k for k, v in AAOD.items()}
    assert {c.name: c.aod_agenda for c in BOX.characters.values()} == AAOD
    assert all(BOX.agendas[c].deadline is None for c in AAOD.values())
    t, rec = aod_game(players=6, characters=["Syd", "Xanthe", "Aesyas", "Lyrie", "Elinor", "Jilian"], seed=12)
    for d in t.state.campaign.diaries:
        assert [(a.code, a.deadline) for a in d.agendas] == [(STARTING[d.character], 2), (AAOD[d.character], 4)]
    assert t.state.round == 1 and not t.state.round_counter  # before the first Dilemma is resolved
    assert not t.state.campaign.trashed
    # still held, with the same limit, in the saved campaign after game 1
    camp = campaign(players=6, regions_chosen=False, modules=AOD)
    _, saved = played_campaign_game(camp, seed=12, modules=AOD)
    for d in saved["diaries"]:
        held = {a["code"]: a["deadline"] for a in d["agendas"]}
        assert held.get(AAOD[d["character"]], 4) == 4


@pytest.mark.parametrize("characters", [["Aesyas", "Jilian", "Syd", "Xanthe"], ["Jilian", "Lyrie", "Xanthe"],
                                        ["Aesyas", "Elinor", "Jilian", "Lyrie", "Syd"]])
def test_aaod_cards_of_characters_not_in_play_are_trashed(characters):
    """QD-074: the AAOD cards of absent Characters go to the Trash; the others are held."""
    t, rec = aod_game(players=len(characters), characters=characters, seed=13)
    missing = sorted(AAOD[c] for c in CHARACTERS if c not in characters)
    c = t.state.campaign
    assert sorted(c.trashed) == missing == sorted(e["code"] for e in rec.of("trashed"))
    held = sorted(a.code for d in c.diaries for a in d.agendas if a.code.startswith("AAOD"))
    assert held == sorted(AAOD[x] for x in characters) and len(held) < 6
    assert not set(missing) & {a.code for d in c.diaries for a in d.agendas}
    # the trashed cards are secret like the rest of the Legacy tray (agenda codes are hidden)
    assert not set(missing) & set(view(t.rules, t.state, None)["campaign"]["trashed"])


def test_age_of_disorder_cards_unlock_content_by_the_normal_rules():
    """QD-075: CAOD1 (Instant) puts Building B13 in Olwyn for Olwyn's owner; completing AAOD1
    unlocks Skill S07 for Aesyas; each is taken out of the Legacy tray once."""
    t, rec = aod_game(seed=14, resources={"gold": 6, "materials": 6})
    c = t.state.campaign
    olwyn = next(d.seat for d in c.diaries if "Olwyn" in d.regions + d.vassals)
    assert [(e["seat"], e["code"], e["region"]) for e in rec.of("building")] == [(olwyn, "B13", "Olwyn")]
    assert c.diaries[olwyn].buildings == {"B13": "Olwyn"} and "B13" in c.unlocked
    aesyas = next(d.seat for d in c.diaries if d.character == "Aesyas")
    done = Action("complete", {"agenda": "AAOD1"})
    bot_until(t, lambda table: any(p.seat == aesyas and p.kind == "agenda" and done in p.options
                                   for p in table.state.prompts), seed=14)
    assert "S07" not in t.state.campaign.unlocked
    events = act(t, aesyas, "complete", agenda="AAOD1")
    assert [(e.data["seat"], e.data["code"]) for e in events if e.type == "skill"] == [(aesyas, "S07")]
    c = t.state.campaign
    assert [s.code for s in c.diaries[aesyas].skills] == ["S07"] and c.unlocked.count("S07") == 1
    assert "AAOD1" in c.trashed and "AAOD1" not in [a.code for a in c.diaries[aesyas].agendas]
