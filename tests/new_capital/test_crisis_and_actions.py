"""Crisis, Rebellion, Reserve and action-card rules of The Queen's New Capital (QNC-110..148),
played through the engine."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected
from core.state import Event
from plugins.new_capital.content import BASIC_NAMES
from plugins.new_capital.province import turn_order
from tests.new_capital.harness import (
    PACK, act, add_column, auto, card_of, check, kinds, move_card, new_game, options, pl, put_leader,
    set_hand, set_pool, until_prompt,
)
from tests.new_capital.harness import clear_leaders, scripted  # shared arrangements

FIRST = 1  # seed 0: seat 1 is the first player of round 1 (turn order 1, 2, 3, 0 with 4 seats)


# -- local helpers ----------------------------------------------------------------------
def cid(seat: int, card: str) -> str:
    return card_of(seat, card) if card.startswith("B-") else card


def play_until(table, until, plan=None, log=None):
    """auto() with a scripted policy; the events begin with a marker of the current phase."""
    start = Event(type="phase", data={"round": table.state.round, "phase": table.state.phase})
    return [start] + auto(table, until=until, policy=scripted(plan or {}, log))


def next_round(n):
    return lambda t: t.state.round >= n


def crisis_table(players=4, crisis="C1C", hands=None):
    """Round 1, no leaders anywhere, `crisis` active, each seat's hand exactly `hands[seat]`
    (basic card names like "B-MOBILIZE" or advanced ids): seats with no cards skip."""
    t = new_game(players, seed=0)
    clear_leaders(t)
    move_card(t, crisis, "crisis")
    hands = hands or {}
    for s in range(players):
        set_hand(t, s, [cid(s, c) for c in hands.get(s, [])])
    return t


def of(events, type, **match):
    return [e.data for e in events if e.type == type and all(e.data.get(k) == v for k, v in match.items())]


def index(events, type, **match):
    return [i for i, e in enumerate(events) if e.type == type and all(e.data.get(k) == v for k, v in match.items())]


def checks(events):
    return {e.data["kind"]: e.data for e in events if e.type == "crisis_check"}


def phase_events(events, phase):
    out, current = [], ""
    for e in events:
        if e.type == "phase":
            current = e.data["phase"]
        elif current == phase:
            out.append(e)
    return out


POWER2 = ["B-MOBILIZE"]
POWER3 = ["B-MOBILIZE", "B-ELITE"]


# -- QNC-110 / QNC-111 ---------------------------------------------------------------------
def test_each_crisis_phase_checks_the_warfare_and_political_challenge_of_the_active_card_QNC_110():
    """QNC-110: one Crisis phase = two checks, warfare then political, both read from the active
    crisis card (here C1B: group warfare, 6 for 4 players; individual political, 2)."""
    assert all(c.warfare and c.political for c in PACK.crises.values())
    t = crisis_table(crisis="C1B", hands={s: ["B-MORALE"] for s in range(4)})
    events = play_until(t, next_round(2))
    found = [(e.data["kind"], e.data["mode"], e.data["need"]) for e in events if e.type == "crisis_check"]
    assert found == [("warfare", "group", PACK.crises["C1B"].warfare.values["4"]),
                     ("political", "individual", PACK.crises["C1B"].political.value)]
    assert of(events, "reveal")[0]["crisis"] == "C1B"
    check(t)


def test_face_down_cards_are_turned_face_up_when_the_crisis_phase_starts_QNC_111():
    """QNC-111: during the Development phase a played crisis card is hidden from the others;
    at the start of the Crisis phase every face-down card is public."""
    t = crisis_table(hands={0: ["B-MOBILIZE"], 2: ["B-MORALE", "B-ENVOY"]})
    pl(t, FIRST).reserve_power = 1  # a bid prompt will pause the Crisis phase
    play_until(t, lambda t: pl(t, 2).face_down)
    assert t.view(1)["players"][2]["face_down"] == 1
    assert t.view(2)["players"][2]["face_down"] == pl(t, 2).face_down and len(pl(t, 2).face_down) == 1
    events = play_until(t, until_prompt("bid_power", FIRST))
    assert t.state.phase == "crisis" and t.state.revealed
    both = sorted([card_of(2, "B-MORALE"), card_of(2, "B-ENVOY")])
    revealed = of(events, "reveal")[0]["cards"]
    assert {s: sorted(c) for s, c in revealed.items()} == {0: [card_of(0, "B-MOBILIZE")], 1: [], 2: both, 3: []}
    view = t.view(1)["players"]
    assert view[0]["face_down"] == [card_of(0, "B-MOBILIZE")]
    assert sorted(view[2]["face_down"]) == both
    check(t)


# -- QNC-112 / QNC-122 ---------------------------------------------------------------------
def test_warfare_crisis_is_fully_resolved_before_the_political_check_QNC_112_122():
    """QNC-112: the warfare penalties (a Rebellion placement waiting on a choice) and rewards all
    happen before the political crisis is checked. QNC-122: rewards come at once, in turn order."""
    t = crisis_table(crisis="C2B", hands={2: POWER2, 3: POWER2})  # warfare: individual 2, Rebellion
    add_column(t, FIRST, "S05")   # two columns: the Rebellion token needs a choice
    events = play_until(t, until_prompt("rebellion_column", FIRST))
    assert [c for c in checks(events)] == ["warfare"]
    assert of(events, "penalty", seat=FIRST, kind="warfare")
    assert not of(events, "reward")
    events += play_until(t, next_round(2))
    political = index(events, "crisis_check", kind="political")[0]
    war_steps = index(events, "penalty", kind="warfare") + index(events, "reward", kind="warfare") \
        + index(events, "rebellion")
    assert war_steps and max(war_steps) < political
    assert [d["seat"] for d in of(events, "reward", kind="warfare")] == [2, 3]
    check(t)


# -- QNC-113 / QNC-114 / QNC-130 / QNC-133 ---------------------------------------------------
def test_warfare_counts_power_and_political_counts_control_QNC_113():
    """QNC-113: power cards count only in the warfare crisis, control cards only in the political."""
    t = crisis_table(hands={0: ["B-MOBILIZE"], 2: ["B-ENVOY", "B-MORALE"]})
    events = play_until(t, next_round(2))
    c = checks(events)
    assert c["warfare"]["totals"] == {0: 2, 1: 0, 2: 0, 3: 0}
    assert c["political"]["totals"] == {0: 0, 1: 0, 2: 3, 3: 0}
    check(t)


def test_total_is_cards_plus_bid_reserve_tokens_each_worth_one_and_spent_QNC_114_130_133():
    """QNC-114: total = card power/control + the reserve tokens bid. QNC-130: each token is 1.
    QNC-133: bid tokens are spent (the reserve keeps only what was not bid)."""
    t = crisis_table(crisis="C2C", hands={0: ["B-MOBILIZE"]})  # no reserve rewards
    pl(t, 0).reserve_power, pl(t, 0).reserve_control = 3, 2
    pl(t, 2).reserve_power = 2
    plan = {(0, "bid_power"): [{"n": 1}], (0, "bid_control"): [{"n": 2}], (2, "bid_power"): [{"n": 2}]}
    events = play_until(t, next_round(2), plan)
    c = checks(events)
    assert c["warfare"]["totals"][0] == 3      # 2 (Mobilize Army) + 1 token
    assert c["warfare"]["totals"][2] == 2      # 2 tokens, no card
    assert c["political"]["totals"][0] == 2    # 2 tokens
    assert (pl(t, 0).reserve_power, pl(t, 0).reserve_control) == (2, 0)
    assert pl(t, 2).reserve_power == 0
    check(t)


# -- QNC-115 / QNC-117 / QNC-119 / QNC-121 ---------------------------------------------------
def test_individual_challenge_penalises_each_seat_below_the_number_and_rewards_the_top_QNC_115_117_119_121():
    """C1C warfare: individual 2, Hunger. Totals 3/2/1/0: the 1 and the 0 take Hunger (QNC-115),
    the 2 is safe (QNC-117), only the strict top gets the reward (QNC-119). Political
    (individual 1): nobody has control, all take Hunger and nobody is rewarded (QNC-121)."""
    t = crisis_table(crisis="C1C", hands={1: POWER3, 2: POWER2, 3: ["B-ELITE"]})
    events = play_until(t, next_round(2))
    c = checks(events)
    assert c["warfare"]["totals"] == {1: 3, 2: 2, 3: 1, 0: 0}
    assert c["warfare"]["failed"] == [3, 0] and c["warfare"]["rewarded"] == [1]
    assert [(d["seat"], d["penalty"]) for d in of(events, "penalty", kind="warfare")] == [(3, "hunger"), (0, "hunger")]
    assert [d["seat"] for d in of(events, "reward", kind="warfare")] == [1]
    assert c["political"]["failed"] == [1, 2, 3, 0] and not of(events, "reward", kind="political")
    hungers = of(events, "hunger")
    assert sorted(d["seat"] for d in hungers) == [0, 0, 1, 2, 3, 3]
    for d in hungers:
        assert d["card"] in PACK.hunger and d["card"] in pl(t, d["seat"]).discard + pl(t, d["seat"]).hand
    check(t)


def test_individual_challenge_nobody_reached_gives_no_reward_QNC_121():
    """QNC-121: with every total below the number, the top seats get nothing."""
    t = crisis_table(crisis="C1C", hands={0: ["B-ELITE"], 2: ["B-ELITE"]})
    events = play_until(t, next_round(2))
    c = checks(events)["warfare"]
    assert c["totals"][0] == c["totals"][2] == 1 and c["failed"] == [1, 2, 3, 0]
    assert c["rewarded"] == [] and not of(events, "reward")
    check(t)


# -- QNC-116 / QNC-117 / QNC-121 -------------------------------------------------------------
def _power_hands(players, total):
    hands, left = {}, total
    for s in range(players):
        take = min(3, left)
        hands[s] = {3: POWER3, 2: POWER2, 1: ["B-ELITE"], 0: []}[take] + ["B-MORALE"]
        left -= take
    assert left == 0
    return hands


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("margin", [-1, 0])
def test_group_challenge_sums_all_totals_against_the_value_for_the_player_count_QNC_116_117_121(players, margin):
    """C1B warfare is a group challenge (3/4/6 for 2/3/4 players, Hunger). QNC-116: the sum of all
    totals is compared with the value for the table's size; short of it, everyone takes the
    penalty. QNC-117: exactly the value beats it. QNC-121: an unbeaten group crisis rewards nobody."""
    need = PACK.crises["C1B"].warfare.values[str(players)]
    t = crisis_table(players, crisis="C1B", hands=_power_hands(players, need + margin))
    order = turn_order(t.state)
    events = play_until(t, next_round(2))
    c = checks(events)["warfare"]
    assert c["need"] == need and sum(c["totals"].values()) == need + margin
    warfare_penalised = [d["seat"] for d in of(events, "penalty", kind="warfare")]
    if margin < 0:
        assert c["beaten"] is False
        assert warfare_penalised == order and c["rewarded"] == []
        assert not of(events, "reward", kind="warfare")
    else:
        assert c["beaten"] is True and warfare_penalised == []
        top = max(c["totals"].values())
        assert sorted(c["rewarded"]) == sorted(s for s, v in c["totals"].items() if v == top)
    check(t)


# -- QNC-118 ---------------------------------------------------------------------------------
def test_penalty_is_the_hunger_or_rebellion_printed_on_the_crisis_QNC_118():
    """QNC-118: C1B prints Hunger for warfare and Rebellion for political: a seat failing both
    gets one Hunger card and one Rebellion token."""
    t = crisis_table(crisis="C1B", hands={1: ["B-MORALE"], 2: ["B-MORALE"], 3: ["B-MORALE"]})
    events = play_until(t, next_round(2))
    assert [(d["kind"], d["penalty"]) for d in of(events, "penalty", seat=0)] == [("warfare", "hunger"),
                                                                               ("political", "rebellion")]
    assert len(of(events, "hunger", seat=0)) == 1
    assert of(events, "rebellion", seat=0) == [{"seat": 0, "column": 0, "tokens": 1}]
    assert pl(t, 0).columns[0].rebellion == 1
    assert all(pl(t, s).columns[0].rebellion == 0 for s in (1, 2, 3))
    check(t)


# -- QNC-119 / QNC-120 / QNC-122 -------------------------------------------------------------
def test_tied_top_totals_all_get_the_reward_in_turn_order_QNC_119_120_122():
    """QNC-120: seats 0 and 2 tie on the top total and both are rewarded; seat 3, lower, is not
    (QNC-119). QNC-122: rewards go in turn order (seat 2 before seat 0, first player is 1)."""
    t = crisis_table(crisis="C1C", hands={0: POWER3, 2: POWER3, 3: POWER2})
    events = play_until(t, next_round(2))
    c = checks(events)["warfare"]
    assert c["rewarded"] == [2, 0]
    assert [d["seat"] for d in of(events, "reward", kind="warfare")] == [2, 0]
    check(t)


# -- QNC-123 / QNC-124 / QNC-125 -------------------------------------------------------------
@pytest.mark.parametrize("tokens,allowed", [
    ([1, 0, 0], [1, 2]),     # QNC-123: a column without a token, player's choice
    ([1, 1, 1], [0, 1, 2]),  # QNC-124: all have one: any column takes a second
    ([2, 2, 2], [0, 1, 2]),  # QNC-125: all have two: the fewest
    ([3, 2, 2], [1, 2]),
])
def test_rebellion_token_goes_on_a_column_with_the_fewest_tokens_by_choice_QNC_123_124_125(tokens, allowed):
    """QNC-123..125: where a Rebellion token (C1B political penalty) may be placed."""
    t = crisis_table(crisis="C1B", hands={s: ["B-MORALE"] for s in (0, 2, 3)})
    add_column(t, FIRST, "S05")
    add_column(t, FIRST, "S09")
    for col, n in zip(pl(t, FIRST).columns, tokens):
        col.rebellion = n
    play_until(t, until_prompt("rebellion_column", FIRST))
    assert sorted(o["column"] for o in options(t, FIRST, "rebellion_column")) == allowed
    pick = allowed[-1]
    act(t, FIRST, "rebellion_column", column=pick)
    assert [c.rebellion for c in pl(t, FIRST).columns] == [n + (i == pick) for i, n in enumerate(tokens)]
    check(t)


# -- QNC-126 / QNC-129 / QNC-127 -------------------------------------------------------------
def test_column_in_rebellion_scores_no_structure_points_until_both_tokens_go_QNC_126_129():
    """Seat 0: draft column (Might), an Influence column with 2 Rebellion tokens, a clean Wealth
    column. Administrate removes one token; QNC-129: one is left, so QNC-126: that column still
    scores nothing while the other two score."""
    t = crisis_table(hands={0: ["B-ADMINISTRATE"]})
    assert PACK.structures[pl(t, 0).columns[0].structures[0]].attributes == {"might": 1}
    rebel = add_column(t, 0, "S19")   # Influence 1
    add_column(t, 0, "S09")           # Wealth 1
    pl(t, 0).columns[rebel].rebellion = 2
    events = play_until(t, next_round(2), {(0, "administrate"): [{"column": rebel}]})
    assert of(events, "rebellion_removed", seat=0) == [{"seat": 0, "column": rebel, "tokens": 1}]
    scored = {d["track"]: d["gained"] for d in (e.data for e in phase_events(events, "score"))
              if "track" in d and d.get("seat") == 0}
    assert scored == {"might": 1, "wealth": 1}
    check(t)


def test_rebellion_does_not_stop_score_leaders_in_its_column_QNC_127():
    """QNC-127: a Score leader under a column in Rebellion still fires."""
    t = crisis_table()
    rebel = add_column(t, 0, "S19")
    pl(t, 0).columns[rebel].rebellion = 1
    put_leader(t, 0, "L02", rebel, 0)  # Score: +1 Influence
    events = play_until(t, next_round(2))
    fired = [e.data for e in phase_events(events, "score") if e.type == "leader"]
    assert fired == [{"seat": 0, "card": "L02"}]
    assert {"seat": 0, "track": "influence", "gained": 1, "position": 1} in of(phase_events(events, "score"), "attribute")
    check(t)


# -- QNC-128 ---------------------------------------------------------------------------------
def test_column_in_rebellion_can_take_upgrade_tokens_and_be_upgraded_QNC_128():
    """QNC-128: Build's Upgrade token may go on a column with a Rebellion token, and the second
    token upgrades it."""
    t = crisis_table(hands={FIRST: ["B-BUILD"]})
    col = add_column(t, FIRST, "S04")         # Tier 1 settlement
    pl(t, FIRST).columns[col].rebellion = 1
    pl(t, FIRST).columns[col].upgrades = 1
    set_pool(t, "t2", ["S26", "S30", "S34"])  # one Tier 2 settlement
    act(t, FIRST, "play", card=card_of(FIRST, "B-BUILD"))
    act(t, FIRST, "build", card="upgrade")
    assert {"column": col} in options(t, FIRST, "upgrade_column")
    ev = act(t, FIRST, "upgrade_column", column=col)
    assert pl(t, FIRST).columns[col].structures == ["S04", "S26"]
    assert pl(t, FIRST).columns[col].rebellion == 1
    assert of(ev, "upgraded", seat=FIRST)
    check(t)


# -- QNC-131 / QNC-132 -----------------------------------------------------------------------
def test_reserve_bids_in_turn_order_power_and_control_together_all_before_the_checks_QNC_131_132():
    """QNC-131: after the reveal, each seat in turn order bids power then control, once.
    QNC-132: every bid is made before the warfare check, and nobody bids again between the
    warfare and the political check (a warfare Rebellion choice happens in between)."""
    t = crisis_table(crisis="C2B", hands={2: POWER2})
    add_column(t, FIRST, "S05")
    for s in range(4):
        pl(t, s).reserve_power, pl(t, s).reserve_control = 2, 1
    log = []
    events = play_until(t, next_round(2), log=log)
    crisis_prompts = [(s, k, step) for s, k, step, _, _, _ in log if k not in ("turn", "end_burn")]
    bids = [(s, k) for s, k, step in crisis_prompts if k.startswith("bid")]
    assert bids == [(s, k) for s in (1, 2, 3, 0) for k in ("bid_power", "bid_control")]
    first_check = next(i for i, (_, _, step) in enumerate(crisis_prompts) if step.endswith("_crisis"))
    assert all(not k.startswith("bid") for _, k, _ in crisis_prompts[first_check:])
    assert any(k == "rebellion_column" and step == "warfare_crisis" for _, k, step in crisis_prompts)
    reveal, bid_ev = index(events, "reveal")[0], index(events, "bid")
    assert len(bid_ev) == 8 and reveal < min(bid_ev) and max(bid_ev) < index(events, "crisis_check")[0]
    check(t)


# -- QNC-134 ---------------------------------------------------------------------------------
def test_reserve_from_this_rounds_cards_comes_after_the_checks_and_cannot_be_bid_QNC_134():
    """QNC-134: Intimidate (2) and Elite Deploy (1) reserve icons are collected as the last step,
    after both checks; the bid offers only the token held before (1)."""
    t = crisis_table(crisis="C2C", hands={0: ["B-INTIMIDATE", "B-ELITE"]})
    pl(t, 0).reserve_power = 1
    log = []
    events = play_until(t, next_round(2), {(0, "bid_power"): [{"n": 1}]}, log)
    bid_prompts = [opts for s, k, _, _, opts, _ in log if s == 0 and k == "bid_power"]
    assert len(bid_prompts) == 1
    assert sorted(o["n"] for o in bid_prompts[0]) == [0, 1]
    collected = index(events, "reserve", seat=0)
    political = index(events, "crisis_check", kind="political")[0]
    assert collected and min(collected) > political
    assert max(index(events, "penalty") + index(events, "reward")) < min(collected)
    assert of(events, "reserve", seat=0)[-1]["power"] == 3   # 1 - 1 bid + 2 + 1
    assert pl(t, 0).reserve_power == 3
    check(t)


# -- QNC-135 ---------------------------------------------------------------------------------
def test_every_starting_deck_has_one_of_each_of_the_ten_basic_cards_QNC_135():
    """QNC-135: each seat's 10 own cards are one copy of each of the ten named cards."""
    t = new_game(4, seed=0, draft=False)
    for p in t.state.players:
        cards = p.deck + p.hand + p.discard
        assert len(cards) == 10
        assert sorted(PACK.action(c).name for c in cards) == sorted(BASIC_NAMES)
        assert all(c.startswith(f"{p.seat}:") for c in cards)


# -- QNC-136 / QNC-148 -----------------------------------------------------------------------
def test_research_takes_a_pool_card_onto_the_deck_top_and_it_is_drawn_next_QNC_136_148():
    """QNC-136: Research offers the 3 Advanced pool cards, the chosen one goes on top of the deck
    and the pool is refilled. QNC-148: it is the next card drawn (first of round 2's draw)."""
    t = crisis_table(hands={FIRST: ["B-RESEARCH"]})
    pool = list(t.state.rows["adv"].pool)
    act(t, FIRST, "play", card=card_of(FIRST, "B-RESEARCH"))
    assert sorted(o["card"] for o in options(t, FIRST, "research")) == sorted(pool)
    chosen = pool[1]
    act(t, FIRST, "research", card=chosen)
    assert pl(t, FIRST).deck[-1] == chosen
    new_pool = t.state.rows["adv"].pool
    assert len(new_pool) == 3 and chosen not in new_pool and set(pool) - {chosen} <= set(new_pool)
    events = play_until(t, next_round(2))
    draws = of(phase_events(events, "development"), "draw", seat=FIRST)
    assert draws and draws[-1]["cards"][0] == chosen
    check(t)


# -- QNC-137 ---------------------------------------------------------------------------------
def test_recruit_takes_a_pool_leader_into_any_slot_under_a_structure_QNC_137():
    """QNC-137: Recruit offers the 3 pool leaders, places the chosen one in a slot of any
    column, and refills the pool."""
    t = crisis_table(hands={FIRST: ["B-RECRUIT"]})
    add_column(t, FIRST, "S05")
    set_pool(t, "leaders", ["L39", "L27", "L02"])
    act(t, FIRST, "play", card=card_of(FIRST, "B-RECRUIT"))
    assert sorted(o["card"] for o in options(t, FIRST, "recruit")) == ["L02", "L27", "L39"]
    act(t, FIRST, "recruit", card="L27")
    slots = sorted((o["column"], o["slot"]) for o in options(t, FIRST, "leader_slot"))
    assert slots == [(0, 0), (0, 1), (1, 0), (1, 1)]
    act(t, FIRST, "leader_slot", card="L27", column=1, slot=1)
    assert pl(t, FIRST).columns[1].slots[1].leader == "L27"
    pool = t.state.rows["leaders"].pool
    assert len(pool) == 3 and "L27" not in pool and {"L39", "L02"} <= set(pool)
    check(t)


# -- QNC-138 / QNC-139 / QNC-140 -------------------------------------------------------------
def test_build_tier1_from_the_pool_into_a_new_column_and_refill_QNC_138():
    """QNC-138: Build offers each Tier 1 pool card (and the Upgrade option); the chosen card
    opens a new column and the pool is refilled."""
    t = crisis_table(hands={FIRST: ["B-BUILD"]})
    pool = list(t.state.rows["t1"].pool)
    act(t, FIRST, "play", card=card_of(FIRST, "B-BUILD"))
    assert sorted(o["card"] for o in options(t, FIRST, "build")) == sorted(pool + ["upgrade"])
    act(t, FIRST, "build", card=pool[0])
    cols = pl(t, FIRST).columns
    assert len(cols) == 2 and cols[1].structures == [pool[0]]
    new_pool = t.state.rows["t1"].pool
    assert len(new_pool) == 3 and pool[0] not in new_pool
    check(t)


def test_build_upgrade_option_places_one_upgrade_token_QNC_139():
    """QNC-139: Build's second option gives one Upgrade token, placed on a chosen column."""
    t = crisis_table(hands={FIRST: ["B-BUILD"]})
    col = add_column(t, FIRST, "S04")
    act(t, FIRST, "play", card=card_of(FIRST, "B-BUILD"))
    act(t, FIRST, "build", card="upgrade")
    assert sorted(o["column"] for o in options(t, FIRST, "upgrade_column")) == [0, col]
    ev = act(t, FIRST, "upgrade_column", column=col)
    assert [c.upgrades for c in pl(t, FIRST).columns] == [0, 1]
    assert of(ev, "upgrade_token", seat=FIRST, column=col, tokens=1)
    assert len(pl(t, FIRST).columns) == 2
    check(t)


def test_build_tier1_option_is_not_offered_with_four_columns_QNC_140():
    """QNC-140: with 4 columns, Build only gives the Upgrade token."""
    t = crisis_table(hands={FIRST: ["B-BUILD"]})
    for s in ("S04", "S05", "S09"):
        add_column(t, FIRST, s)
    pool = list(t.state.rows["t1"].pool)
    act(t, FIRST, "play", card=card_of(FIRST, "B-BUILD"))
    assert (FIRST, "build") not in kinds(t)
    assert kinds(t) == [(FIRST, "upgrade_column")]
    with pytest.raises(ActionRejected):
        act(t, FIRST, "build", card=pool[0])
    assert len(pl(t, FIRST).columns) == 4 and t.state.rows["t1"].pool == pool
    check(t)


# -- QNC-141 / QNC-142 -----------------------------------------------------------------------
def test_administrate_removes_a_rebellion_token_QNC_141():
    """QNC-141: Administrate may remove one Rebellion token from a chosen column."""
    t = crisis_table(hands={FIRST: ["B-ADMINISTRATE"]})
    col = add_column(t, FIRST, "S05")
    pl(t, FIRST).columns[col].rebellion = 2
    act(t, FIRST, "play", card=card_of(FIRST, "B-ADMINISTRATE"))
    assert {"column": col} in options(t, FIRST, "administrate")
    assert {"column": 0} not in options(t, FIRST, "administrate")
    act(t, FIRST, "administrate", column=col)
    assert [c.rebellion for c in pl(t, FIRST).columns] == [0, 1]
    check(t)


def test_administrate_moves_an_unlocked_diplomacy_cube_one_space_QNC_142():
    """QNC-142: Administrate may move an unlocked cube one space either way; a cube on a
    Favored space (locked) is not offered."""
    t = crisis_table(hands={FIRST: ["B-ADMINISTRATE"]})
    pl(t, FIRST).diplomacy = [5, -1]
    act(t, FIRST, "play", card=card_of(FIRST, "B-ADMINISTRATE"))
    opts = options(t, FIRST, "administrate")
    assert sorted((o["track"], o["direction"]) for o in opts) == [(1, -1), (1, 1)]
    act(t, FIRST, "administrate", track=1, direction=1)
    assert pl(t, FIRST).diplomacy == [5, 0]
    check(t)


# -- QNC-143 ---------------------------------------------------------------------------------
def test_crisis_cards_go_face_down_and_give_power_control_now_and_reserve_later_QNC_143():
    """QNC-143: Mobilize Army / Elite Deploy / Intimidate (warfare) and Raise Morale / Send Envoy
    (political) stay face down and hidden, count their power/control in this round's crises and
    give their reserve tokens at the end of the Crisis phase."""
    kinds_ = {n: PACK.actions[f"B-{k}"].kind for n, k in
              [("Mobilize Army", "MOBILIZE"), ("Elite Deploy", "ELITE"), ("Intimidate", "INTIMIDATE"),
               ("Raise Morale", "MORALE"), ("Send Envoy", "ENVOY")]}
    assert kinds_ == {"Mobilize Army": "warfare", "Elite Deploy": "warfare", "Intimidate": "warfare",
                      "Raise Morale": "political", "Send Envoy": "political"}
    cards = ["B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-ENVOY"]
    t = crisis_table(crisis="C2C", hands={FIRST: cards, 2: ["B-MORALE"]})  # no reserve rewards
    play_until(t, lambda t: len(pl(t, FIRST).face_down) == 4)
    assert sorted(pl(t, FIRST).face_down) == sorted(card_of(FIRST, c) for c in cards)
    assert not any(c in pl(t, FIRST).discard for c in pl(t, FIRST).face_down)
    assert t.view(0)["players"][FIRST]["face_down"] == 4
    events = play_until(t, next_round(2))
    c = checks(events)
    assert c["warfare"]["totals"][FIRST] == 3 and c["political"]["totals"][FIRST] == 1
    assert c["political"]["totals"][2] == 2
    assert (pl(t, FIRST).reserve_power, pl(t, FIRST).reserve_control) == (3, 1)
    assert (pl(t, 2).reserve_power, pl(t, 2).reserve_control) == (0, 0)
    check(t)


# -- QNC-144 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("protect,kept", [("political", "warfare"), ("warfare", "political")])
def test_bribe_cancels_the_penalty_its_owner_chooses_QNC_144(protect, kept):
    """QNC-144: a face-down Bribe, once revealed, cancels one of the two penalties (both failed
    here, C1C), chosen by its owner; the other penalty still applies."""
    t = crisis_table(crisis="C1C", hands={FIRST: ["B-BRIBE"]})
    play_until(t, lambda t: pl(t, FIRST).face_down)
    assert pl(t, FIRST).face_down == [card_of(FIRST, "B-BRIBE")]
    assert t.view(0)["players"][FIRST]["face_down"] == 1
    events = play_until(t, until_prompt("bribe", FIRST))
    assert of(events, "reveal") and not index(events, "crisis_check")
    assert sorted(o["crisis"] for o in options(t, FIRST, "bribe")) == ["political", "warfare"]
    events += act(t, FIRST, "bribe", crisis=protect)
    events += play_until(t, next_round(2))
    assert [d["kind"] for d in of(events, "penalty", seat=FIRST)] == [kept]
    assert [d["kind"] for d in of(events, "bribed", seat=FIRST)] == [protect]
    assert len(of(events, "hunger", seat=FIRST)) == 1
    assert len(of(events, "hunger", seat=2)) == 2   # no Bribe: both penalties
    check(t)


# -- QNC-145 ---------------------------------------------------------------------------------
def test_extra_action_token_is_gained_from_an_effect_and_carries_over_QNC_145():
    """QNC-145: A03 (Research; with 3+ columns an Extra Action) gives a token; unused in round 1
    (nothing left to play), it is still there in round 2 and can be used then."""
    t = crisis_table(hands={FIRST: ["A03"]})
    add_column(t, FIRST, "S04")
    add_column(t, FIRST, "S05")
    ev = act(t, FIRST, "play", card="A03")
    ev += act(t, FIRST, "research", card=t.state.rows["adv"].pool[0])
    assert pl(t, FIRST).extra_actions == 1 and of(ev, "extra_action", seat=FIRST, tokens=1)
    play_until(t, next_round(2))
    assert pl(t, FIRST).extra_actions == 1
    for s in range(4):
        set_hand(t, s, [])
    set_hand(t, FIRST, [card_of(FIRST, c) for c in ("B-MOBILIZE", "B-ELITE", "B-MORALE", "B-ENVOY", "B-INTIMIDATE")])
    events = play_until(t, next_round(3), {(FIRST, "extra_action"): [{"use": True}]})
    assert of(events, "extra_action_used", seat=FIRST, tokens=0)
    assert pl(t, FIRST).extra_actions == 0
    check(t)


# -- QNC-146 ---------------------------------------------------------------------------------
def test_extra_action_tokens_are_spent_one_at_a_time_in_turn_order_after_all_regular_turns_QNC_146():
    """QNC-146: seat 2 holds 1 token and seat 0 holds 2. After the 16 regular turns, tokens go
    one at a time in turn order (2, then 0, then 0 again: no limit per round), each giving one
    more card."""
    four = ["B-MOBILIZE", "B-ELITE", "B-MORALE", "B-ENVOY"]
    t = crisis_table(hands={0: four + ["B-INTIMIDATE", "B-BRIBE"], 1: four, 2: four + ["B-INTIMIDATE"], 3: four})
    pl(t, 2).extra_actions = 1
    pl(t, 0).extra_actions = 2
    plan = {(0, "extra_action"): [{"use": True}, {"use": True}], (2, "extra_action"): [{"use": True}]}
    log = []
    events = play_until(t, next_round(2), plan, log)
    dev = [(s, k, a.get("regular")) for s, k, step, a, _, rnd in log if rnd == 1 and k in ("turn", "extra_action")]
    assert dev[:16] == [(s, "turn", True) for _ in range(4) for s in (1, 2, 3, 0)]
    assert dev[16:] == [(2, "extra_action", None), (2, "turn", False),
                        (0, "extra_action", None), (0, "turn", False),
                        (0, "extra_action", None), (0, "turn", False)]
    assert [p.extra_actions for p in t.state.players] == [0, 0, 0, 0]
    revealed = of(events, "reveal")[0]["cards"]
    assert {s: len(c) for s, c in revealed.items()} == {0: 6, 1: 4, 2: 5, 3: 4}
    check(t)


# -- QNC-147 ---------------------------------------------------------------------------------
def test_card_played_with_an_extra_action_follows_its_category_QNC_147():
    """QNC-147: with Extra Actions, a green card (Administrate) resolves at once and is discarded,
    a red card (Mobilize Army) goes face down and counts in the warfare crisis."""
    four = ["B-ELITE", "B-MORALE", "B-ENVOY", "B-INTIMIDATE"]
    t = crisis_table(hands={FIRST: four + ["B-ADMINISTRATE", "B-MOBILIZE"]})
    pl(t, FIRST).extra_actions = 2
    plan = {(FIRST, "turn"): [{"card": card_of(FIRST, c)} for c in four + ["B-ADMINISTRATE", "B-MOBILIZE"]],
            (FIRST, "extra_action"): [{"use": True}, {"use": True}],
            (FIRST, "administrate"): [{"track": 1, "direction": 1}]}
    before = list(pl(t, FIRST).diplomacy)
    events = play_until(t, next_round(2), plan)
    admin = index(events, "play", card=card_of(FIRST, "B-ADMINISTRATE"))[0]
    assert events[admin].data["face_up"] is True
    moved = index(events, "diplomacy", seat=FIRST)
    assert moved and admin < moved[0] < index(events, "play", card=card_of(FIRST, "B-MOBILIZE"))[0]
    assert pl(t, FIRST).diplomacy == [before[0], before[1] + 1]
    assert of(events, "play", card=card_of(FIRST, "B-MOBILIZE"))[0]["face_up"] is False
    reveal = of(events, "reveal")[0]["cards"][FIRST]
    assert card_of(FIRST, "B-MOBILIZE") in reveal and card_of(FIRST, "B-ADMINISTRATE") not in reveal
    assert checks(events)["warfare"]["totals"][FIRST] == 1 + 2   # Elite Deploy + Mobilize Army
    check(t)


def test_red_card_played_with_an_extra_action_has_no_effect_until_revealed_QNC_147():
    """QNC-147: a red Advanced card (A22: Mobilize Army, 2 power, draw 1) played with an Extra
    Action goes face down like any red card, so nothing of it resolves while it is hidden."""
    four = ["B-ELITE", "B-MORALE", "B-ENVOY", "B-INTIMIDATE"]
    t = crisis_table(hands={FIRST: four + ["A22"]})
    pl(t, FIRST).extra_actions = 1
    plan = {(FIRST, "turn"): [{"card": card_of(FIRST, c)} for c in four] + [{"card": "A22"}],
            (FIRST, "extra_action"): [{"use": True}]}
    events = play_until(t, next_round(2), plan)
    dev = events[:index(events, "phase", phase="crisis")[0]]
    played = index(dev, "play", card="A22")[0]
    assert dev[played].data["face_up"] is False
    assert "A22" in of(events, "reveal")[0]["cards"][FIRST]
    assert not of(dev[played:], "draw", seat=FIRST)   # A22's draw must wait for the reveal
