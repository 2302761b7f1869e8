"""The Queen's Dilemma: Dilemma Resolution a-f (the winning side's back, Keyword boxes left to
right and their targets, Slider pushes and Hegemony tokens, Envelopes and Mystery boxes, the
Round Counter), the end-of-game triggers (sand timer on slots 7-9, a full Round Counter, an
empty deck once every Ending is attached) and the order of the end-of-game procedure.

Games are played through the engine with the harness: a campaign whose deck holds the
Dilemma cards wanted, each vote played seat by seat (an all-pass vote lets the Moderator
choose the side), the other decisions (forced payments, Investments, Agendas) at random.
"""
from __future__ import annotations

import msgspec

from core.engine import view
from plugins.queens_dilemma import scoring
from plugins.queens_dilemma.content import default_box
from plugins.queens_dilemma.rounds import story_stacks
from tests.queens_dilemma.harness import bot_until, campaign, played_campaign_game
from tests.queens_dilemma.test_pass_actions import Action, begin, camp, play_vote, voter

BOX = default_box()
# Cards whose sides open nothing (no Envelope, no Mystery box) and carry no sand timer
CLEAN = ["D009", "D2A2", "D2A3", "D2B1", "D2B3", "D3A1", "D7B2", "D7B3", "D4B2", "DM51", "D1B1", "D1B3"]
# Cards with exactly one sand-timer side, opening nothing on either side
ONE_SAND = ["D011", "D012", "D202", "D2A1", "D303", "D3A2", "D3A3", "D402", "D503", "D603", "D703", "D1A1"]
ALL_ENDINGS = {str(e.storyline): e.code for e in reversed(list(BOX.endings.values()))}


def _opens_nothing(card_id):
    card = BOX.dilemmas[card_id]
    return not any(o.envelopes or o.mysteries for o in (card.aye, card.nay))


def check_card_lists():
    assert all(_opens_nothing(c) and not BOX.dilemmas[c].aye.sand_timer and not BOX.dilemmas[c].nay.sand_timer
               for c in CLEAN)
    assert all(_opens_nothing(c) and BOX.dilemmas[c].aye.sand_timer != BOX.dilemmas[c].nay.sand_timer
               for c in ONE_SAND)


def target_of(box_event: dict) -> str:
    return box_event.get("target", box_event.get("to"))


def kinds(t, start=0):
    return [(e.type, e.data) for e in t.log_events[start:]]


def index(t, pred, start=0):
    """The position of the first recorded event (type, data) satisfying `pred`."""
    for i, e in enumerate(t.log_events[start:], start):
        if pred(e.type, e.data):
            return i
    raise AssertionError("no such event")


def finish(t, seed=0):
    bot_until(t, lambda t: t.state.finished, seed=seed)


def side_with(card_id, want_sand):
    card = BOX.dilemmas[card_id]
    return "aye" if card.aye.sand_timer == want_sand else "nay"


# -- a-f --------------------------------------------------------------------------------
def test_dilemma_resolution_runs_a_to_f_in_order_with_the_envelope():
    """QD-199 (a read, b Keywords, c Ideology board, d Envelope, f new round, in that order);
    QD-200 (only the winning AYE back is read and applied); QD-201 (its Keyword boxes one at a
    time, left to right); QD-207, QD-209, QD-210 (Envelope 02 is opened automatically: its
    Story card read and applied, the Story placed, its 3 Dilemmas shuffled into the deck);
    QD-214 (the card on the lowest empty Round Counter slot, winning side up); QD-216 (a new
    round draws a new card)."""
    t = begin(camp(deck=["D001"]))
    gold = [p.resources["gold"] for p in t.state.councilors]
    start = len(t.log_events)
    play_vote(t, decide="aye")  # all pass: the Moderator (seat 3) chooses Aye and leads
    card = BOX.dilemmas["D001"]
    i_out = index(t, lambda k, d: k == "outcome", start)
    out = t.log_events[i_out].data
    assert (out["id"], out["side"], out["text"]) == ("D001", "aye", card.aye.text)
    assert out["boxes"] == msgspec.to_builtins(card.aye.boxes) != msgspec.to_builtins(card.nay.boxes)
    # b: the boxes in printed order: the Leader's (gain 2 Gold, unlock C001), then Coden's
    boxes = [(i, e.data) for i, e in enumerate(t.log_events) if i > i_out and e.type == "box"
             and e.data["source"] == "D001"]
    assert [d["seats"] for _, d in boxes] == [[3], [2]]  # seat 2 owns Coden (the harness's Regions)
    i_gold = index(t, lambda k, d: k == "gain" and d["source"] == "D001" and d["what"] == "gold", start)
    i_c001 = index(t, lambda k, d: k == "chronicle_unlocked" and d["code"] == "C001", start)
    i_coden = index(t, lambda k, d: k == "forced_payment" and d["seat"] == 2, start)
    assert boxes[0][0] < i_gold < i_c001 < boxes[1][0] < i_coden
    assert t.state.councilors[3].resources["gold"] >= gold[3] + 2
    assert "K01" not in t.state.campaign.diaries[3].keywords  # the NAY back (Leader: K01) is not applied
    # c: the Ideology board, after every Keyword box
    i_push = index(t, lambda k, d: k == "push" and d["source"] == "D001", start)
    assert t.log_events[i_push].data["ideology"] == "order" and i_push > i_coden
    # d: Envelope 02, no one asked to open it
    i_env = index(t, lambda k, d: k == "envelope" and d["code"] == "02", start)
    i_story = index(t, lambda k, d: k == "story" and d["id"] == "ST2-1", start)
    i_story_box = index(t, lambda k, d: k == "box" and d["source"] == "story ST2-1", start)
    assert i_push < i_env < i_story < i_story_box
    asked = {e.data["prompt"] for e in t.log_events[i_out:i_env] if e.type == "action"}
    assert asked <= {"forced_payment"}
    c = t.state.campaign
    assert "02" in c.opened and c.stories[-1] == "ST2-1"
    assert sorted(c.deck + [t.state.dilemma]) == ["D201", "D202", "D203"]
    assert "2" in story_stacks(t.state) and story_stacks(t.state)["2"][0] == "ST2-1"
    # f: the Round Counter, then a new round with a new card (the sand timer on slot 1 ends nothing)
    assert t.state.round_counter == [["D001", "aye"]]
    i_draw = index(t, lambda k, d: k == "dilemma", i_story_box)
    assert t.log_events[i_draw].data["id"] == t.state.dilemma in ("D201", "D202", "D203")
    assert t.state.round == 2
    play_vote(t)
    assert [slot[0] for slot in t.state.round_counter][0] == "D001" and len(t.state.round_counter) == 2


def test_only_the_winning_nay_back_is_applied():
    """QD-200: with NAY winning, the NAY back is read and applied (the Leader takes Keyword K01)
    and the AYE back is not (no 2 Gold, no Chronicle C001); the card shows its NAY side."""
    t = begin(camp(deck=["D001"]))
    start = len(t.log_events)
    play_vote(t, decide="nay")
    out = next(d for k, d in kinds(t, start) if k == "outcome")
    assert out["side"] == "nay" and out["text"] == BOX.dilemmas["D001"].nay.text
    assert "K01" in t.state.campaign.diaries[3].keywords
    assert not [d for k, d in kinds(t, start) if k == "gain" and d["source"] == "D001" and d["what"] == "gold"
                and d["n"] == 2]
    assert "C001" not in [r.code for r in t.state.campaign.chronicle_deck]
    assert t.state.round_counter == [["D001", "nay"]]


def test_a_mystery_box_is_opened_after_the_board_and_its_dilemmas_join_the_deck():
    """QD-199 (e after c, then f); QD-212 (an M code on the winning side opens that Mystery box
    and its WARNING! steps apply at once); QD-213 (its Dilemma cards join the deck at once)."""
    t = begin(camp(deck=["D008"]))
    start = len(t.log_events)
    play_vote(t, decide="aye")  # AYE: Mystery box M01
    i_push = index(t, lambda k, d: k == "push" and d["source"] == "D008", start)
    i_box = index(t, lambda k, d: k == "mystery" and d["code"] == "M01", start)
    i_draw = index(t, lambda k, d: k == "dilemma", start)
    assert i_push < i_box < i_draw
    assert t.log_events[i_box].data["warning"] == BOX.mysteries["M01"].warning
    assert "M01" in t.state.campaign.opened
    assert sorted(t.state.campaign.deck + [t.state.dilemma]) == ["DM11", "DM12"]

    # M03's WARNING! steps: every player gains 1 Gold, the Leader 1 Infamy, 2 Chronicles unlocked
    t = begin(camp(deck=["D010", "D009"]))
    while t.state.dilemma != "D010":
        play_vote(t)
    start = len(t.log_events)
    play_vote(t, decide="nay")
    leader = t.state.leader
    gains = [d for k, d in kinds(t, start) if k == "gain" and d["source"] == "M03"]
    assert sorted(d["seat"] for d in gains if d["what"] == "gold") == [0, 1, 2, 3]
    assert [d["seat"] for d in gains if d["what"] == "infamy"] == [leader]
    assert {"C013", "C014"} <= {r.code for r in t.state.campaign.chronicle_deck}
    i_mystery = index(t, lambda k, d: k == "mystery" and d["code"] == "M03", start)
    last_gain = max(i for i, e in enumerate(t.log_events) if e.type == "gain" and e.data["source"] == "M03")
    i_next = index(t, lambda k, d: k == "phase" and d["phase"] in ("read", "end"), i_mystery)
    assert i_mystery < last_gain < i_next


def test_a_whole_game_opens_every_envelope_and_mystery_box_its_outcomes_name():
    """QD-210: no required opening is ever skipped: over a whole game played at random, every
    Envelope and Mystery box on a resolved card's winning side has been opened."""
    t, saved = played_campaign_game(campaign(), seed=3)
    placed = t.state.round_counter
    assert placed
    named = set()
    for card, side in placed:
        outcome = getattr(BOX.dilemmas[card], side)
        named |= set(outcome.envelopes) | set(outcome.mysteries)
    assert named and named <= set(saved["opened"])


def test_envelopes_hold_one_story_and_three_dilemmas():
    """QD-208: every standard (numbered, not the starting 00) Envelope holds exactly 1 Story card
    and 3 Dilemma cards; opening one adds exactly those 3 and reads that 1 Story."""
    numbered = [e for code, e in BOX.envelopes.items() if code.isdigit() and code != "00"]
    assert len(numbered) == 20
    for env in numbered:
        assert env.story in BOX.stories and len(env.dilemmas) == 3, env.code
    t = begin(camp(deck=["D003"]))
    start = len(t.log_events)
    play_vote(t)
    assert [d["id"] for k, d in kinds(t, start) if k == "story"] == ["ST4-1"]
    assert sorted(t.state.campaign.deck + [t.state.dilemma]) == ["D401", "D402", "D403"]


def test_an_envelopes_dilemmas_are_shuffled_into_the_deck():
    """QD-209: the Envelope's 3 Dilemma cards are shuffled into the deck, not put on top or at
    the bottom of it."""
    t = _deck_with_last("D001", CLEAN[:8], 1)
    before = list(t.state.campaign.deck)
    play_vote(t, decide="nay")  # NAY: Envelope 02 too, no sand timer
    after = t.state.campaign.deck + [t.state.dilemma]
    new = ["D201", "D202", "D203"]
    assert sorted(after) == sorted(before + new)
    positions = sorted(after.index(x) for x in new)
    assert positions not in ([0, 1, 2], [len(after) - 3, len(after) - 2, len(after) - 1])


def test_a_gold_on_black_story_closes_its_storyline_with_the_leaders_ending():
    """QD-211: ST1-2A (Envelope 08, from D007's AYE) ends Storyline 1: the Leader attaches the
    Ending sticker it names and the Storyline's stack is closed."""
    t = begin(camp(deck=["D007"]))
    assert "1" in story_stacks(t.state)
    start = len(t.log_events)
    play_vote(t, decide="aye")
    story = BOX.stories["ST1-2A"]
    assert story.ending == "END01"
    attached = [d for k, d in kinds(t, start) if k == "ending"]
    assert attached == [{"code": "END01", "storyline": 1, "scales": BOX.endings["END01"].scales, "by": t.state.leader}]
    assert t.state.campaign.endings == {"1": "END01"}
    assert "1" not in story_stacks(t.state)


# -- Keyword targets ---------------------------------------------------------------------
def test_keyword_boxes_target_players_winners_the_leader_and_diary_keywords():
    """QD-202: a box targets Players (everyone), Winners (the winning voters, not the passer),
    the Leader, or a Keyword held in a Diary: a Character (Jilian), a Region (Tork, Dualak)
    or a Narrative Keyword (Smuggler, K01)."""
    c = camp(deck=["D3A1", "D005", "D201", "D009"], keywords={1: ["K01"]})

    def owner(keyword):
        return next(d["seat"] for d in c["diaries"]
                    if keyword in d["regions"] + d["vassals"] or d["character"] == keyword)

    t = begin(c)
    real_vote = {0: Action("vote", {"side": "aye", "power": 2}), 1: Action("vote", {"side": "aye", "power": 1}),
                 2: Action("vote", {"side": "nay", "power": 1})}  # seat 3 Gathers Power
    sides = {"D3A1": "aye", "D005": "nay", "D201": "aye", "D009": "aye"}
    seen, leaders = {}, {}
    while len(seen) < len(sides):
        card = t.state.dilemma
        start = len(t.log_events)
        play_vote(t, plan=real_vote if card == "D3A1" else {}, decide=sides.get(card))
        if card in sides:
            seen[card] = [(target_of(d), d["seats"]) for k, d in kinds(t, start) if k == "box" and d["source"] == card]
            leaders[card] = t.state.leader
    assert seen["D3A1"] == [("Tork", [owner("Tork")]), ("winners", [0, 1])]
    assert seen["D005"] == [("Dualak", [owner("Dualak")]), ("Jilian", [owner("Jilian")])]
    assert seen["D201"] == [("leader", [leaders["D201"]]), ("Smuggler", [1])]
    assert seen["D009"] == [("leader", [leaders["D009"]]), ("Wylio", [owner("Wylio")]), ("players", [0, 1, 2, 3])]


def test_a_keyword_nobody_present_holds_does_nothing_and_a_defectors_goes_to_the_moderator():
    """QD-203: D201's AYE box "Smuggler: gain 1 Independence" has no effect when no present
    player holds Smuggler (nobody, or only an absent player), and targets the Moderator when
    its holder has defected."""
    def smuggler(holder=None, defected=False):
        c = camp(deck=["D201"], keywords={holder: ["K01"]} if holder is not None else None)
        if defected:
            c["diaries"][holder]["defected"] = True
        t = begin(c, options={"absent": [holder]} if holder is not None else None)
        start = len(t.log_events)
        play_vote(t, decide="aye")
        box = next(d for k, d in kinds(t, start) if k == "box" and d["source"] == "D201" and target_of(d) == "Smuggler")
        got = [d["seat"] for k, d in kinds(t, start)
               if k == "gain" and d["source"] == "D201" and d["what"] == "independence"]
        return t, box, got

    t, box, got = smuggler()
    assert box["seats"] == [] and got == []
    t, box, got = smuggler(holder=3)                 # held only by an absent player
    assert got == []
    t, box, got = smuggler(holder=3, defected=True)  # held by a player who left the campaign
    assert box["seats"] == [t.state.moderator] != [3] and got == [t.state.moderator]


# -- c. the Ideology board ---------------------------------------------------------------
def test_pushes_move_the_slider_stop_at_the_end_and_always_add_a_hegemony_token():
    """QD-204 (the Slider moves the printed spaces toward the Ideology); QD-205 (never past the
    end: the rest is lost); QD-206 (1 Hegemony token per pushed Ideology of the winning side,
    however far the Slider moved, even 0)."""
    force_cards = ["D002", "D7A1", "D203", "D302", "D7B1"]  # AYE pushes Force 2, 2, 1, 1, 1
    t = begin(camp(deck=force_cards))
    expected, zero_moves, done = 0, 0, []
    while len(done) < len(force_cards):
        card = t.state.dilemma
        side = "aye" if card in force_cards else side_with(card, False)
        outcome = getattr(BOX.dilemmas[card], side)
        tokens = dict(t.state.board.tokens)
        start = len(t.log_events)
        play_vote(t, decide=side)
        for p in outcome.pushes:
            ev = next(d for k, d in kinds(t, start)
                      if k == "push" and d["source"] == card and d["ideology"] == p.ideology)
            assert ev["n"] == p.n
            if p.ideology == "force":
                moved = min(p.n, 4 - expected)
                assert ev["moved"] == moved
                expected += moved
                zero_moves += moved == 0
            others = sum(1 for k, d in kinds(t, start) if k == "push" and d["ideology"] == p.ideology
                         and d["source"] != card)
            assert t.state.board.tokens[p.ideology] == tokens[p.ideology] + 1 + others
        assert t.state.board.sliders["force"] == -expected  # Force is the left end of its track
        if card in force_cards:
            done.append(card)
    assert expected == 4 and zero_moves >= 1  # 7 spaces pushed, 4 moved, the rest lost
    assert t.state.board.tokens["force"] >= len(force_cards)


# -- 5. Triggering the end of the game ---------------------------------------------------
def test_a_sand_timer_ends_the_game_on_slots_7_to_9_only():
    """QD-217 (9 Round Counter slots, the sand timer on 7, 8, 9); QD-219 (sand-timer cards on
    slots 1-6 end nothing); QD-218 (one on slot 7 triggers the end); QD-216 (each round draws
    a new card until the end is triggered: no 8th card is drawn)."""
    check_card_lists()
    assert BOX.board.round_slots == 9 and BOX.board.sand_slots == [7, 8, 9]
    t = begin(camp(deck=ONE_SAND))
    for slot in range(1, 8):
        card = t.state.dilemma
        play_vote(t, decide=side_with(card, True))
        assert t.state.round_counter[-1] == [card, side_with(card, True)] and len(t.state.round_counter) == slot
        if slot < 7:
            assert not t.state.end_triggered and voter(t) is not None and t.state.round == slot + 1
    assert t.state.end_triggered and voter(t) is None
    assert [d for k, d in kinds(t) if k == "end_triggered"] == [{"slot": 7, "sand_timer": True}]
    assert len([1 for k, _ in kinds(t) if k == "dilemma"]) == 7
    finish(t)
    assert len(t.state.round_counter) == 7


def test_the_ninth_card_ends_the_game_without_a_sand_timer():
    """QD-220: a full Round Counter (the 9th card, no sand timer) ends the game; QD-217: never
    more than 9 slots."""
    check_card_lists()
    t = begin(camp(deck=ONE_SAND))
    for slot in range(1, 10):
        card = t.state.dilemma
        play_vote(t, decide=side_with(card, False))
        assert t.state.end_triggered == (slot == 9)
    assert [d for k, d in kinds(t) if k == "end_triggered"] == [{"slot": 9, "sand_timer": False}]
    assert len(t.state.campaign.deck) == len(ONE_SAND) - 9  # cards were left: no 10th draw
    finish(t)
    assert len(t.state.round_counter) == 9 and t.state.finished


def test_with_every_ending_attached_an_empty_deck_ends_the_game():
    """QD-221: once all 7 Ending stickers are attached, the game ends when a new round would
    draw from the empty Dilemma deck (not the Troubleshooting state)."""
    c = camp(deck=["D009", "D2A2"])
    c["endings"] = dict(ALL_ENDINGS)
    assert len(c["endings"]) == 7
    t = begin(c)
    play_vote(t)
    assert voter(t) is not None  # one card left: a second round
    play_vote(t)
    assert t.state.end_triggered and len(t.state.round_counter) == 2 and not t.state.campaign.deck
    assert not [1 for k, _ in kinds(t) if k == "troubleshooting"] and not t.state.log_notes
    finish(t)
    assert t.state.finished and "notes" not in t.state.result


def _deck_with_last(card, others, slot):
    """A started game whose `slot`-th card (counting the first drawn as 1) is `card`: the
    deck is shuffled at setup, so a seed that puts it there is looked for."""
    check_card_lists()
    for seed in range(200):
        t = begin(camp(deck=[card] + others), seed=seed)
        deck = t.state.campaign.deck
        if (t.state.dilemma if slot == 1 else deck[len(deck) - (slot - 1)]) == card:
            return t
    raise AssertionError("no seed puts the card there")


def test_the_triggering_cards_envelope_is_opened_before_the_end():
    """QD-222: D001's AYE (sand timer, Envelope 02) placed on slot 7: the end is triggered, but
    first Envelope 02 is opened in full (Story read and applied, its 3 Dilemmas shuffled in)."""
    t = _deck_with_last("D001", CLEAN[:6], 7)
    for _ in range(6):
        play_vote(t, decide="aye")
    assert t.state.dilemma == "D001" and not t.state.end_triggered
    start = len(t.log_events)
    play_vote(t, decide="aye")
    i_env = index(t, lambda k, d: k == "envelope" and d["code"] == "02", start)
    i_story = index(t, lambda k, d: k == "box" and d["source"] == "story ST2-1", start)
    i_end = index(t, lambda k, d: k == "phase" and d["phase"] == "end", start)
    assert i_env < i_story < i_end
    assert [d["slot"] for k, d in kinds(t, start) if k == "end_triggered"] == [7]
    assert {"D201", "D202", "D203"} <= set(t.state.campaign.deck)


def test_the_triggering_cards_mystery_box_is_opened_before_the_end():
    """QD-222: D010's NAY (Mystery box M03) as the 9th card: the game ends with a full Round
    Counter, but M03 is opened and its WARNING! steps applied first."""
    t = _deck_with_last("D010", CLEAN[:8], 9)
    for _ in range(8):
        play_vote(t, decide="aye")
    assert t.state.dilemma == "D010"
    start = len(t.log_events)
    play_vote(t, decide="nay")
    i_box = index(t, lambda k, d: k == "mystery" and d["code"] == "M03", start)
    i_gain = index(t, lambda k, d: k == "gain" and d["source"] == "M03", start)
    i_end = index(t, lambda k, d: k == "phase" and d["phase"] == "end", start)
    assert i_box < i_gain < i_end and "M03" in t.state.campaign.opened


# -- End of the game ---------------------------------------------------------------------
END_CHRONICLES = ("C010", "C012", "C014", "C018")  # End of Game, Ideology scoring, Power scoring, Tax


def ended(events=(), chronicles=END_CHRONICLES, seed=0):
    c = camp(deck=["D009"], chronicles=chronicles, events=events)
    c["endings"] = dict(ALL_ENDINGS)
    t = begin(c, seed=seed)
    cards = {p.seat: p.ideology_card for p in t.state.councilors}
    before_end = t.view(0)["councilors"]
    play_vote(t, decide="aye")
    finish(t, seed)
    return t, cards, before_end


def test_the_end_of_game_procedure_runs_in_order():
    """QD-223: Event Phase, then Scoring (a Chronicles, b Ideology, c Power, d Investments,
    e Agendas, f Taxes), then Cleanup, then Save; QD-226: End of Game Chronicles apply at
    once, the others in their own scoring step; QD-225: Events one at a time, lowest number
    first."""
    t, _, _ = ended(events=("E3", "E1", "E2"))
    end = index(t, lambda k, d: k == "phase" and d["phase"] == "end")

    def first(pred):
        return index(t, pred, end)

    def box_of(source):
        return first(lambda k, d: k in ("box", "box_skipped") and d["source"] == source)

    events = [box_of(f"event {e}") for e in ("E1", "E2", "E3")]
    assert events == sorted(events)
    i_c010 = box_of("C010")
    i_ideology = first(lambda k, d: k == "ideology_scored")
    i_c012 = box_of("C012")
    i_power = first(lambda k, d: k == "power_scored")
    i_c014 = box_of("C014")
    i_invest = first(lambda k, d: k == "investment")
    i_tax_chronicle = box_of("C018")
    i_tax = first(lambda k, d: k == "tax")
    i_cleanup = first(lambda k, d: k == "phase" and d["phase"] == "cleanup")
    assert events[-1] < i_c010 < i_ideology < i_c012 < i_power < i_c014 < i_invest < i_tax_chronicle < i_tax < i_cleanup
    agendas = [i for i, e in enumerate(t.log_events) if i > end and e.type in ("agenda_completed", "agenda_failed")]
    assert all(i_invest < i < i_tax for i in agendas)
    # Save: the campaign now holds the game's points
    assert t.state.finished and t.state.campaign.games_played == 1
    assert [d.hegemony for d in t.state.campaign.diaries] == [p.hegemony for p in t.state.councilors]


def test_without_active_events_the_event_phase_is_skipped():
    """QD-224: no active Event: scoring starts at once with the Chronicle check."""
    t, _, _ = ended()
    end = index(t, lambda k, d: k == "phase" and d["phase"] == "end")
    assert not [d for k, d in kinds(t, end) if k in ("box", "box_skipped") and d["source"].startswith("event")]
    first = next(d for k, d in kinds(t, end + 1) if k in ("box", "box_skipped", "ideology_scored"))
    assert first["source"] == "C010"


def test_every_player_reveals_and_scores_the_kept_ideology_card():
    """QD-227: at Ideology Scoring each player's kept Ideology card (secret until then) is
    revealed and scored for its Favored Ideologies and Balanced pairs, each with its points."""
    for card in BOX.ideology_cards.values():
        assert card.favored or card.balanced
        assert all(f.bonus in (1, 3) for f in card.favored) and all(b.bonus > 0 for b in card.balanced)
    t, cards, before_end = ended(chronicles=())
    assert all(p["ideology_card"] is True for p in before_end if p["seat"] != 0)  # hidden during the game
    scored = {d["seat"]: d for k, d in kinds(t) if k == "ideology_scored"}
    assert sorted(scored) == [0, 1, 2, 3]
    for seat, d in scored.items():
        assert d["card"] == cards[seat]
        got = scoring.ideology_score(BOX.ideology_cards[cards[seat]], t.state.board)
        assert (d["hegemony"], d["independence"]) == (got["hegemony"], got["independence"])
    shown = view(t.rules, t.state, 0)["councilors"]
    assert [p["ideology_card"] for p in shown] == [cards[s] for s in range(4)]  # revealed to all


def test_outcome_markers_show_the_front_during_the_vote_and_leave_with_the_round():
    """QD-137: while a Dilemma is voted on, every viewer sees blue markers for its Aye
    outcomes and red ones for its Nay outcomes (Ideologies and the legacy hint, never the
    back); QD-215: the markers are cleared when the card goes on the Round Counter."""
    from core.engine import view
    from tests.queens_dilemma.harness import BOX, bot_until, campaign, start

    table = start(campaign(4), seed=4)
    bot_until(table, lambda t: any(p.kind == "vote" for p in t.state.prompts))
    card = BOX.dilemmas[table.state.dilemma]
    for viewer in (0, 2, None):
        markers = view(table.rules, table.state, viewer)["markers"]
        assert markers["blue"] == {"pushes": [{"ideology": p.ideology, "n": p.n} for p in card.aye.pushes],
                                   "legacy": card.aye.legacy}
        assert markers["red"]["legacy"] == card.nay.legacy
        assert card.aye.text not in str(markers) and card.nay.text not in str(markers)
    resolved = len(table.state.round_counter)
    bot_until(table, lambda t: len(t.state.round_counter) > resolved)
    if table.state.dilemma:  # the next round's card: its own markers, none of the last card's
        assert table.state.markers["blue"]["pushes"] == [
            {"ideology": p.ideology, "n": p.n} for p in BOX.dilemmas[table.state.dilemma].aye.pushes]
    bot_until(table, lambda t: t.state.finished)
    assert table.state.markers == {} and table.state.dilemma == ""  # the last round's markers are gone
