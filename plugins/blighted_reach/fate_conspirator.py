"""The Conspirator (FATE23, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say. Its Conspiracy tokens are HIDDEN information: each shows a player colour on its
face, and the colours (on the ambition boxes and in the Conspirator's supply) are kept in
`state.conspiracies` / `state.conspiracy_supply`, which are not in the state's `visible`
fields; every view gets `conspiracy_view` (the colours to the Conspirator alone, where the
tokens lie and how many to everyone), and the events that name a face are addressed to
the Conspirator, with a public part that does not, until a token is revealed (`face`: a
face-down token's face has a name of its own, which `hidden_faces` gives `conclave_secrets`).

- F2301 Setup side: Resettle (`fate_c`), gain Farseers, collect the 8 Conspiracy tokens (2
  per colour of the box's four, `collect_conspiracies`, whatever the player count), gain
  Conspiracies, Scoring and Foiling Conspiracies into the booklet. Objective side, the final
  objective "Control the Proceedings": the movement of Scoring Conspiracies (below) and the
  space a wrong guess gives (Foiling).
- F2302 Farseers: a reprint of the base Farseers (BC17), whose rules it plays.
- F2303 Conspiracies (ability): the Conspirator's declaration places no ambition marker (one
  must still be Available): the marker the declaration placed goes back to the Available
  ones and a Conspiracy of a colour the Conspirator chooses goes face down into the box
  (`conspiracy_declared`, for a lead card's and a card's declaration alike); with none left
  in its supply it cannot declare (`out_of_conspiracies`). When it secures a card it may
  refill the Court with one of its Guild cards instead of the deck's top card, placing a
  Conspiracy in a box with no marker (`conspiracy_refill`, `court_flow.REFILL_RULES`).
- F2304 Scoring Conspiracies (law): after the ambitions are scored, the Conspiracies on the
  scored (declared) ambitions are revealed; the marker moves once by: +1 per Conspiracy left
  face down, +1 per revealed one whose colour is first or tied for first in its ambition,
  -1 (away from 0) per other revealed one; the revealed ones go back to the supply
  (`score_conspiracies`, on `arcs_chapter_scored`, before the campaign's winner is looked for).
- F2305 Foiling Conspiracies (law): a Rival of the Conspirator who secures a Vox card, or a
  card with the Conspirator's agents on it, may name a face-down Conspiracy and a colour:
  right, the token goes back to the Conspirator's supply; wrong, the Conspirator advances 1
  (`foil_offer`, on `arcs_court_secured`).

Readings:
- "Scored ambitions" are those with a marker in their box when the chapter is scored; a box
  holding only Conspiracies is not scored, so its tokens stay face down (and count again the
  next chapter).
- "First place or tied for it" needs a count of at least 1 (as winning does, BR-088); with 2
  players a seat tied with the ambition's tokens is tied for first. A colour nobody plays is
  never in first place.
- With no Conspiracy left the Conspirator cannot declare at all (the card replaces the
  marker by a token; with no token there is nothing to place).
- The Guild card refilling the Court may be any the Conspirator holds, the one just secured
  included; the tokens' order in a box is public (a guess names a token by it).
- The supply's colours are secret too: otherwise the tokens left would tell which colours
  lie face down.
"""
from __future__ import annotations

from core.hookspecs import hookimpl
from core.state import Action
from plugins.arcs import court_flow, court_ops
from plugins.arcs.abilities import standing
from plugins.arcs.content import box_for
from plugins.arcs.scoring import PHANTOM
from plugins.blighted_reach import fates, objectives
from plugins.blighted_reach.booklet import in_booklet
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.fate_c import is_campaign, seat_of
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.setup import PLAYER_COLOURS
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

CONSPIRATOR = "FATE23"
CONSPIRACIES = "F2303"
SCORING = "F2304"
FOILING = "F2305"
PER_COLOUR = 2  # F2301 step 3: 2 Conspiracy tokens per player colour, 8 in all
SCORED = "conspiracy_scored"          # the objective's count for the Scoring movement
GUESSED_WRONG = "conspiracy_guessed_wrong"  # ... and for a Rival's wrong guess

standing("conspiracies", "scoring_conspiracies", "foiling_conspiracies")


def conspirator(state: BlightedReachState) -> int:
    """The seat playing the Conspirator (-1 none)."""
    return seat_of(state, CONSPIRATOR) if is_campaign(state) else -1


def _conspiring(state: BlightedReachState, seat: int) -> bool:
    """The seat is the Conspirator and holds its Conspiracies card."""
    return seat >= 0 and seat == conspirator(state) and CONSPIRACIES in state.play_area[seat]


def face(colour: str) -> str:
    """A face-down Conspiracy's face as the Conspirator alone is shown it (in its view and its
    private events): a name of its own, so that no public mention of a colour (the seats'
    colours, a revealed or guessed Conspiracy's) is taken for it (`hidden_faces`)."""
    return f"conspiracy:{colour}"


def colour_seat(state: BlightedReachState, colour: str) -> int | None:
    return state.colours.index(colour) if colour in state.colours else None


def place_conspiracy(ctx, seat: int, ambition: str, colour: str, why: str) -> None:
    """A Conspiracy of `colour` from the supply face down into the ambition's box: its colour
    told to the Conspirator alone."""
    state = ctx.state
    state.conspiracy_supply.remove(colour)
    state.conspiracies.setdefault(ambition, []).append(colour)
    ctx.emit("conspiracy_placed", to=[seat], public={"seat": seat, "ambition": ambition, "why": why},
             seat=seat, ambition=ambition, face=face(colour), why=why)


def _colour_options(state: BlightedReachState, kind: str, **params) -> list[Action]:
    return [Action(kind, {**params, "colour": c}) for c in sorted(set(state.conspiracy_supply))]


# -- F2301 setup step 3 ----------------------------------------------------------------------
@fates.handler("collect_conspiracies")
def collect_conspiracies(ctx, seat: int, card_id: str, effect) -> None:
    state = ctx.state
    state.conspiracy_supply = [c for c in PLAYER_COLOURS for _ in range(PER_COLOUR)]
    state.conspiracies = {}
    ctx.emit("conspiracies_collected", seat=seat, count=len(state.conspiracy_supply), why=card_id)


# -- F2303 declaring with a Conspiracy --------------------------------------------------------
def out_of_conspiracies(state, seat: int, ambition: str) -> str:
    """`court_ops.DECLARE_LIMITS`: the Conspirator declares only with a Conspiracy to place."""
    if is_campaign(state) and _conspiring(state, seat) and not state.conspiracy_supply:
        return f"{CONSPIRACIES}: no Conspiracy is left in your supply to declare with"
    return ""


court_ops.DECLARE_LIMITS.append(out_of_conspiracies)


def _return_marker(state: BlightedReachState, ambition: str):
    """The marker the declaration just placed back among the Available ones, in the board's
    order (as the chapter's clean-up keeps them)."""
    box = box_for(state)
    marker = state.ambition_boxes[ambition].pop()
    order = {m.id: i for i, m in enumerate(box.board.ambition_markers)}
    state.markers_available = sorted([*state.markers_available, marker], key=lambda m: order[m.id])
    return marker


def conspiracy_declared(ctx, seat: int, ambition: str) -> None:
    """The Conspirator declared `ambition` (a lead card, a card's effect): no marker stays;
    it is asked which colour goes face down into the box (after the declaration's own
    abilities, which are pushed after this)."""
    state = ctx.state
    if not _conspiring(state, seat) or not state.ambition_boxes.get(ambition) or not state.conspiracy_supply:
        return
    marker = _return_marker(state, ambition)
    ctx.emit("marker_withheld", seat=seat, ambition=ambition, marker=marker.id, why=CONSPIRACIES)
    ctx.push(conspiracy_ask, seat=seat, ambition=ambition)


@hookimpl(specname="arcs_declared_by_card")
def conspiracy_declared_by_card(ctx, seat, ambition):
    if is_campaign(ctx.state):
        conspiracy_declared(ctx, seat, ambition)


@steps("conspiracy_ask")
def conspiracy_ask(ctx, seat: int, ambition: str):
    options = _colour_options(ctx.state, "conspire")
    if options:
        ctx.ask(seat, "conspiracy", options, resume=conspiracy_chosen, ambition=ambition)


@steps("conspiracy_chosen")
def conspiracy_chosen(ctx, seat, params, ambition: str):
    place_conspiracy(ctx, seat, ambition, params["colour"], CONSPIRACIES)


# -- F2303 refilling the Court with a Guild card ---------------------------------------------
def unmarked_boxes(state: BlightedReachState) -> list[str]:
    return [a for a, markers in state.ambition_boxes.items() if not markers]


def refill_options(state: BlightedReachState, seat: int) -> list[Action]:
    return [o for guild in state.players[seat].guild for a in unmarked_boxes(state)
            for o in _colour_options(state, "conspiracy_refill", guild=guild, ambition=a)]


def conspiracy_refill(ctx, seat: int, card: str, position: int) -> bool:
    """`court_flow.REFILL_RULES`: the Conspirator secured a card; with a Guild card, a box
    without a marker and a Conspiracy, it is asked how the place is refilled."""
    state = ctx.state
    if not is_campaign(state) or not _conspiring(state, seat):
        return False
    options = refill_options(state, seat)
    if not options:
        return False
    decline = Action("conspiracy_refill", {"guild": "", "ambition": "", "colour": ""})
    ctx.prompt(seat, "conspiracy_refill", [decline, *options], resume=refill_chosen, card=card, position=position)
    return True


court_flow.REFILL_RULES.append(conspiracy_refill)


@steps("conspiracy_refill_chosen")
def refill_chosen(ctx, seat, params, card: str, position: int):
    state = ctx.state
    guild = params["guild"]
    if not guild:
        court_flow.refill(ctx, position)
    else:
        state.players[seat].guild.remove(guild)
        state.court_row[position] = guild
        state.court_agents[guild] = [0] * len(state.players)
        ctx.emit("court_refilled", seat=seat, position=position, card=guild, why=CONSPIRACIES)
        place_conspiracy(ctx, seat, params["ambition"], params["colour"], CONSPIRACIES)
    ctx.hook.arcs_court_secured(ctx=ctx, seat=seat, card=card, position=position)


# -- F2305 Foiling Conspiracies ---------------------------------------------------------------
def note_secured(state: BlightedReachState, seat: int, card: str, rivals_to: str) -> None:
    """`arcs_take_court_card`, before the agents leave the card: whether a Rival of the
    Conspirator secures a card with the Conspirator's agents."""
    if not is_campaign(state):
        return
    c = conspirator(state)
    agents = state.court_agents.get(card, [])
    state.foil_card = card if (c >= 0 and seat != c and rivals_to == "captives"
                               and c < len(agents) and agents[c] > 0) else ""


def face_down(state: BlightedReachState) -> list[tuple[str, int]]:
    return [(a, i) for a in sorted(state.conspiracies) for i in range(len(state.conspiracies[a]))]


def foil_offer(ctx, seat: int, card: str) -> None:
    """`arcs_court_secured`: a Rival of the Conspirator secured a Vox card or a card that held
    the Conspirator's agents: it may guess one face-down Conspiracy."""
    state = ctx.state
    if not is_campaign(state):
        return
    had_agents, state.foil_card = state.foil_card == card, ""
    c = conspirator(state)
    if c < 0 or seat == c or not in_booklet(state, FOILING) or not face_down(state):
        return
    court = rules_box().court
    if not had_agents and not (card in court and court[card].kind == "vox"):
        return
    ctx.push(foil_ask, seat=seat, card=card)


@steps("conspiracy_foil_ask")
def foil_ask(ctx, seat: int, card: str):
    tokens = face_down(ctx.state)
    if not tokens:
        return
    options = [Action("foil", {"ambition": "", "index": -1, "colour": ""})]
    options += [Action("foil", {"ambition": a, "index": i, "colour": colour})
                for a, i in tokens for colour in PLAYER_COLOURS]
    ctx.prompt(seat, "foil_conspiracy", options, resume=foil_guessed, card=card)


@steps("conspiracy_foil_guessed")
def foil_guessed(ctx, seat, params, card: str):
    ambition, index, colour = params["ambition"], params["index"], params["colour"]
    if not ambition:
        return
    state = ctx.state
    c = conspirator(state)
    tokens = state.conspiracies[ambition]
    if tokens[index] == colour:
        tokens.pop(index)
        if not tokens:
            del state.conspiracies[ambition]
        state.conspiracy_supply.append(colour)
        ctx.emit("conspiracy_foiled", seat=seat, ambition=ambition, index=index, colour=colour, right=True, card=card)
        return
    moved = objectives.advance_on_event(box_for(state), campaign_box(), state, GUESSED_WRONG, 1, seat=c)
    ctx.emit("conspiracy_foiled", seat=seat, ambition=ambition, index=index, colour=colour, right=False, card=card,
             spaces=moved.get(c, 0), marker=state.objective_markers[c])


# -- F2304 Scoring Conspiracies ---------------------------------------------------------------
def first_places(state: BlightedReachState, ambition: str) -> set[int]:
    """The seats first or tied for first in the ambition now (a count of at least 1)."""
    counts = objectives.standings(box_for(state), campaign_box(), state, ambition)
    best = max(counts.values(), default=0)
    return {s for s, n in counts.items() if n == best and s != PHANTOM} if best > 0 else set()


def score_conspiracies(ctx) -> None:
    """`arcs_chapter_scored` (the boxes still hold their markers): reveal the Conspiracies on
    the scored ambitions, move the Conspirator's marker once by the sum, return the revealed."""
    state = ctx.state
    c = conspirator(state)
    if c < 0 or not state.conspiracies or not in_booklet(state, SCORING):
        return
    scored = objectives.declared_ambitions(state)
    revealed = {a: state.conspiracies.pop(a) for a in sorted(state.conspiracies) if a in scored}
    hidden = sum(len(tokens) for tokens in state.conspiracies.values())
    right = wrong = 0
    for ambition, colours in revealed.items():
        firsts = first_places(state, ambition)
        for colour in colours:
            if colour_seat(state, colour) in firsts:
                right += 1
            else:
                wrong += 1
        state.conspiracy_supply.extend(colours)
    net = hidden + right - wrong
    spaces = move_marker(state, c, net)
    ctx.emit("conspiracies_revealed", seat=c, revealed=revealed, right=right, wrong=wrong, face_down=hidden,
             spaces=spaces, marker=state.objective_markers[c])


def move_marker(state: BlightedReachState, seat: int, net: int) -> int:
    """One movement of the objective marker: toward 0 (stopping there) for a positive sum,
    away from it for a negative one. Returns the signed spaces moved toward 0."""
    if seat >= len(state.objective_markers) or state.objective_markers[seat] < 0:
        return 0
    if net >= 0:
        return objectives.advance_on_event(box_for(state), campaign_box(), state, SCORED, net, seat=seat).get(seat, 0)
    state.objective_markers[seat] -= net
    return net


# -- what each viewer sees, and the tokens' invariants ---------------------------------------
def conspiracy_view(state: BlightedReachState, viewer: int | None) -> dict:
    """Where the Conspiracies lie (their box, in order) and how many are in the supply, for
    everyone; their colours only for the Conspirator."""
    mine = viewer is not None and viewer == conspirator(state)
    return {"boxes": {a: [face(colour) if mine else "" for colour in tokens] for a, tokens in sorted(state.conspiracies.items())},
            "supply": sorted(face(c) for c in state.conspiracy_supply) if mine else [],
            "supply_count": len(state.conspiracy_supply)}


def hidden_faces(state: BlightedReachState, viewer: int | None) -> set[str]:
    """`conclave_secrets`: the faces of the Conspiracies face down or in the supply, for every
    viewer but the Conspirator."""
    if viewer is not None and viewer == conspirator(state):
        return set()
    return {face(c) for c in [*state.conspiracy_supply, *(c for tokens in state.conspiracies.values() for c in tokens)]}


def conspiracy_problems(state: BlightedReachState) -> list[str]:
    """Collected, the 8 tokens are all in the supply or on ambition boxes, 2 per colour, and no
    box is listed without one. (Which boxes exist is not checked: a Fate's own box, Edenguard,
    is off the board between a chapter's clean-up and the next deal.)"""
    on_boxes = [colour for tokens in state.conspiracies.values() for colour in tokens]
    tokens = [*state.conspiracy_supply, *on_boxes]
    if not tokens:
        return []
    out = []
    if sorted(tokens) != sorted(c for c in PLAYER_COLOURS for _ in range(PER_COLOUR)):
        out.append(f"the Conspiracy tokens are {sorted(tokens)}, not 2 of each colour")
    for ambition, colours in state.conspiracies.items():
        if not colours:
            out.append(f"the Conspiracies on {ambition!r} are an empty entry")
    return out
