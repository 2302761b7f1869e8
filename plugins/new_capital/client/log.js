// The log in words: one sentence per event, seats as "Seat 1 (Ada)", cards by glossary name
// (never by id), dice drawn as dice. Events come redacted for this viewer: another seat's
// secret card is only "a card" here, as the event holds no more.

import { entryInWords, h, humanize } from "/play/ui.js";
import {
  boardActionName, boardOf, columnName, crisisName, dieNode, effectText, matchName, phaseName, plural, rowName, slotName,
  trackName,
} from "./words.js";

/** A diplomacy cube's place in words: the centre, or how far toward which faction. */
function cubeText(board, track, position) {
  if (position === 0) return "the centre";
  const f = (board.factions || []).find((x) => x.track === Number(track) && x.end === Math.sign(position));
  return `${Math.abs(position)} toward ${f ? f.name : position < 0 ? "the left" : "the right"}`;
}

const card = (names, id, fallback = "a card") => (id && names.entry(id) ? names.entry(id).name : fallback);
const cards = (names, ids) => (ids || []).map((id) => card(names, id)).join(", ") || "no cards";
const seatList = (names, seats) => (seats || []).map((s) => names.seat(Number(s))).join(", ") || "nobody";

function totalsText(names, totals) {
  return Object.entries(totals || {}).map(([s, n]) => `${names.seat(Number(s))} ${n}`).join(", ");
}

function dice(data) {
  return h("span", { class: "nc-dice" }, (data.dice || []).map((d) => dieNode(d.shows, d.die === "solo" ? "the phantom die" : d.die)));
}

/** One event as a sentence (a string or a node), or null for bookkeeping nobody needs to read. */
export function sentence(event, names, board = { factions: [] }) {
  const d = event.data || {};
  const seat = Number.isInteger(d.seat) ? names.seat(d.seat) : "";
  switch (event.type) {
    case "action": return null; // the game's own events say what happened
    case "phase": return d.phase ? `— ${phaseName(d.phase)}${d.round ? `, round ${d.round}` : ""} —` : null;
    case "shuffle": return `Shuffled: ${d.what} (${plural(d.count, "card")}).`;
    case "random_pick": return d.picked === undefined ? `A ${d.what} is drawn at random (face down).`
      : d.what === "first player" ? `The first player, drawn at random: ${names.seat(d.picked)}.` : `Drawn at random for the ${d.what}: ${card(names, d.picked, String(d.picked))}.`;
    case "roll": return h("span", {}, `${seat || "The table"} rolls${d.why ? ` for the ${d.why}` : ""}: `, dice(d));
    case "setup": return `The game is set up: ${names.text(d.scenario)}; ${names.seat(d.first)} plays first. Opening columns: ${Object.entries(d.columns || {}).map(([s, c]) => `${names.seat(Number(s))} ${card(names, c)}`).join(", ")}.`;
    case "crisis": return `The Crisis of level ${d.level}: ${card(names, d.card, "a Crisis")}.`;
    case "draft_leader": return d.card ? `${seat} keeps the draft leader ${card(names, d.card)}.` : `${seat} keeps a draft leader (secret until the draft ends).`;
    case "draft_done": return `The draft is done: ${Object.entries(d.leaders || {}).map(([s, c]) => `${names.seat(Number(s))} keeps ${card(names, c)}`).join(", ")}.`;
    case "draw": return d.cards ? `${seat} draws ${cards(names, d.cards)}.` : `${seat} draws ${plural(d.count, "card")}.`;
    case "reshuffle": return `${seat} shuffles the discard pile into a new deck (${plural(d.cards, "card")}).`;
    case "row": return `The ${rowName(d.row)} pool shows ${cards(names, d.pool)}.`;
    case "row_reshuffle": return `The ${rowName(d.row)} discard pile becomes the deck again (${plural(d.cards, "card")}).`;
    case "play": return d.face_up ? `${seat} plays ${card(names, d.card)}.`
      : d.card ? `${seat} plays ${card(names, d.card)} face down.` : `${seat} plays a card face down.`;
    case "card_bonus": return `${seat} gets the lower row of ${card(names, d.card)}.`;
    case "skip": return `${seat} cannot play a card and skips.`;
    case "board_action": {
      if (d.action === "scout") return `${seat} takes the board action Scout: ${rowName(d.row)}, looking for ${matchName(d.match, names)}.`;
      if (d.action === "faction") return `${seat} takes the board action of ${d.faction === "diplomacy" ? "Diplomacy" : names.text(d.faction)}.`;
      if (d.action === "support") return `${seat} takes the board action Support with ${card(names, d.card)}.`;
      return `${seat} takes the board action ${boardActionName(d.action)}.`;
    }
    case "scout": return `${seat} scouts ${rowName(d.row)} for ${matchName(d.match, names)}: the pool shows ${cards(names, d.pool)}.`;
    case "solo_scout": return `${seat} may Scout a row (solo, after the new Crisis).`;
    case "support": return `${seat} gives up the Hunger card ${card(names, d.card)} in Support.`;
    case "attribute": return `${seat} gains ${d.gained} ${trackName(d.track)} (now ${d.position}).`;
    case "reserve": return `${seat}'s reserve: ${d.power} power and ${d.control} control tokens.`;
    case "diplomacy": return `${seat} moves diplomacy cube ${Number(d.track) + 1} to ${cubeText(board, d.track, d.position)}.`;
    case "favored": return `${names.text(d.faction)} now favors ${seat}.`;
    case "leader": return `${seat}'s leader ${card(names, d.card)} acts.`;
    case "recruit": return `${seat} recruits ${card(names, d.card)} into ${columnName(d.column)}, ${slotName(d.slot)}.`;
    case "hero_recruited": return `${seat} recruits the hero ${card(names, d.card)} of ${names.text(d.faction)}${d.next ? `; ${card(names, d.next)} is next` : "; the stack is empty"}.`;
    case "alignment_bonus": return `${seat}'s ${card(names, d.card)} is aligned: its bonus applies.`;
    case "leader_flipped": return `${seat}'s leader ${card(names, d.card)} is flipped face down.`;
    case "leader_moved": return `${seat}'s leader ${card(names, d.card)} moves to ${columnName(d.column)}, ${slotName(d.slot)}.`;
    case "build": return `${seat} builds ${card(names, d.card)} as ${columnName(d.column)}.`;
    case "research": return `${seat} researches ${card(names, d.card)} onto the deck.`;
    case "upgrade_token": return `${seat} places an Upgrade token on ${columnName(d.column)} (${d.tokens} there).`;
    case "upgrade_discarded": return `${seat}'s Upgrade token has nowhere to go and is discarded.`;
    case "upgraded": return `${seat} upgrades ${columnName(d.column)} with ${card(names, d.card)}.`;
    case "extra_action": return `${seat} gains an Extra Action token (${d.tokens} held).`;
    case "extra_action_used": return `${seat} uses an Extra Action token (${d.tokens} left).`;
    case "hunger": return `${seat} takes the Hunger card ${card(names, d.card)}.`;
    case "hunger_deck_empty": return `The Hunger deck is empty: ${seat} takes a Rebellion token instead.`;
    case "rebellion": return `${seat} takes a Rebellion token on ${columnName(d.column)} (${d.tokens} there).`;
    case "rebellion_removed": return `${seat} removes a Rebellion token from ${columnName(d.column)}.`;
    case "burn": return `${seat} burns ${card(names, d.card)} (${d.zone === "hand" ? "from the hand" : "from the discard pile"}).`;
    case "hands_discarded": return "Every hand is discarded.";
    case "reveal": return `The cards face down are revealed: ${Object.entries(d.cards || {}).map(([s, ids]) => `${names.seat(Number(s))} ${cards(names, ids)}`).join("; ")}.`;
    case "bid": return d.power !== undefined ? `${seat} bids ${d.power} power.` : `${seat} bids ${d.control} control.`;
    case "bribe": return `${seat} bribes away the ${crisisName(d.crisis)} penalty.`;
    case "bribed": return `${seat}'s Bribe cancels the ${crisisName(d.kind)} penalty.`;
    case "crisis_check": {
      const phantom = d.phantom !== null && d.phantom !== undefined ? h("span", {}, " with the phantom die ", dieNode(d.phantom, "the phantom die")) : null;
      const outcome = d.mode === "group" ? (d.beaten ? "beaten" : "failed by all") : `failed by ${seatList(names, d.failed)}`;
      return h("span", {}, `${crisisName(d.kind)} crisis (needs ${d.need}): ${totalsText(names, d.totals)}`, phantom,
        ` — ${outcome}; the best: ${seatList(names, d.rewarded)}.`);
    }
    case "penalty": return `${seat} takes the ${crisisName(d.kind)} penalty: ${d.penalty === "hunger" ? "a Hunger card" : "a Rebellion token"}.`;
    case "reward": return `${seat} wins the ${crisisName(d.kind)} reward.`;
    case "seal": return `${seat} places a Seal on slot ${d.slot + 1}${d.alert ? ", an Alert slot" : ""}.`;
    case "no_seal_left": return `${seat} has no Seal left to place.`;
    case "honorary_seal": return `${seat} places the Honorary Seal (position ${d.position} on the chart).`;
    case "track_reset": return `${seat}'s ${trackName(d.track)} track returns to 0.`;
    case "effect_blocked": return `${seat}: “${effectText(d.effect || {})}” does nothing this round (a rule in force blocks it).`;
    case "modifier": {
      const source = String(d.modifier || "").split(":")[1];
      return `${seat} gets the bonus of ${card(names, source, "a rule in force")} for a first card of its kind this round.`;
    }
    case "first_player": return `${names.seat(d.seat)} is the first player now.`;
    case "guildmasters_dealt": return d.cards ? `${seat} is dealt ${cards(names, d.cards)}.` : `${seat} is dealt two Guildmasters.`;
    case "guildmaster": return `${seat} makes ${card(names, d.card)} the active Guildmaster${(d.discarded || []).length ? ` (${cards(names, d.discarded)} is discarded)` : ""}.`;
    case "guildmaster_reshuffle": return `The Guildmaster discard pile becomes the deck again (${plural(d.cards, "card")}).`;
    case "dilemma": return `A Dilemma is revealed: ${card(names, d.card, "a Dilemma")}.`;
    case "dilemma_vote": return d.side === "abstain" ? `${seat} abstains (${plural(d.tokens, "vote token")} left).`
      : `${seat} votes ${d.side === "in_favor" ? "In Favor" : "Against"} (${plural(d.tokens, "vote token")} left).`;
    case "dilemma_reinforce": return `${seat} adds a token ${d.side === "in_favor" ? "In Favor" : "Against"} (${d.committed} committed).`;
    case "dilemma_stop": return `${seat} adds no more tokens.`;
    case "queen_vote": return `The Queen's token goes ${d.side === "in_favor" ? "In Favor" : "Against"}.`;
    case "dilemma_result": return `${card(names, d.card, "The Dilemma")}: ${d.winner === "in_favor" ? "In Favor" : "Against"} wins (${d.counts.in_favor} to ${d.counts.against}). ${d.text || ""}`.trim();
    case "game_end": {
      const seals = Object.entries(d.seals || {}).map(([s, n]) => `${names.seat(Number(s))} ${plural(n, "Seal")}`).join(", ");
      if (d.solo) return `The solo game ends: a ${d.solo} (${seals}; the target was ${d.target}).`;
      return `The game ends (${humanize(d.reason || "")}, round ${d.round}): ${seatList(names, d.winners)} ${d.shared ? "share the win" : "wins"}. ${seals}.`;
    }
    default: {
      const said = names.params(d);
      return `${humanize(event.type)}${said ? `: ${said}` : ""}.`;
    }
  }
}

/** One log entry: its first sentence as the line, the rest below it. */
export function describe(entry, ctx) {
  const events = Array.isArray(entry.events) ? entry.events : [];
  const board = boardOf(ctx);
  return entryInWords(entry, ctx.names, events.map((e) => sentence(e, ctx.names, board)), "nc-log");
}
