// The log in words: one sentence per event, seats as "Seat 1 (Ada)", cards and systems by their
// glossary names, battle dice drawn as dice with their symbols. Events come redacted for this
// viewer: another seat's Copy is only "a card face down", a hand dealt to another seat only
// its size.

import { h, humanize } from "/play/ui.js";
import { actText } from "./controls.js";
import { ambitionName, nameOf, playName, plural, resourceName, shipsText } from "./words.js";

/** A die face's symbols: hits, building hits, self-hits, intercepts, keys. */
const SYMBOLS = [["hit", "✹", "hit"], ["building_hit", "▣", "building hit"], ["self_hit", "✖", "self-hit"],
  ["intercept", "⛨", "intercept"], ["key", "⚷", "key"]];

function faceWords(face) {
  const parts = SYMBOLS.filter(([k]) => face && face[k]).map(([k, , word]) => plural(face[k], word));
  return parts.join(", ") || "blank";
}

function dice(data) {
  return h("span", { class: "arcs-dice" }, (data.dice || []).map((d) => {
    const face = d.shows && typeof d.shows === "object" ? d.shows : {};
    const marks = SYMBOLS.flatMap(([k, symbol]) => Array.from({ length: face[k] || 0 }, () => symbol)).join("") || "–";
    return h("span", { class: `arcs-die die-${d.die}`, role: "img", "aria-label": `${d.die} die: ${faceWords(face)}`, title: `${d.die}: ${faceWords(face)}` }, marks);
  }));
}

const card = (names, id, fallback = "a card") => nameOf(names, id, fallback);
const place = (names, id) => nameOf(names, id, id || "somewhere");

function resourcesText(resources) {
  return Object.entries(resources || {}).filter(([, n]) => n).map(([r, n]) => `${n} ${resourceName(r)}`).join(", ") || "nothing";
}

/** One event as a sentence (a string or a node), or null for bookkeeping nobody needs to read. */
export function sentence(event, names, state) {
  const d = event.data || {};
  const seat = Number.isInteger(d.seat) ? names.seat(d.seat) : "";
  switch (event.type) {
    case "action": return null; // the game's own events say what happened
    case "phase": return null;
    case "setup": return `Setup: ${card(names, d.setup_card, "a setup card")}; ${names.seat(d.initiative)} holds the initiative; the Court shows ${(d.court || []).map((c) => card(names, c)).join(", ")}.`;
    case "shuffle": return `The ${d.what} ${d.what && d.what.endsWith("s") ? "are" : "is"} shuffled (${d.count} cards).`;
    case "random_pick": return d.picked === undefined ? `Drawn at random for ${d.what} (from ${d.count}).` : `Drawn at random for ${d.what}: ${card(names, String(d.picked), String(d.picked))}.`;
    case "chapter": return `— Chapter ${d.chapter} begins —`;
    case "dealt": return Array.isArray(d.hand) ? `${seat} is dealt ${d.hand.map((c) => card(names, c)).join(", ")}.` : `${seat} is dealt ${plural(d.count, "card")}.`;
    case "mulligan": return Array.isArray(d.hand) ? `${seat} redraws: ${d.hand.map((c) => card(names, c)).join(", ")}.` : `${seat} redraws their hand.`;
    case "played": return d.card ? `${seat} plays ${card(names, d.card)} as ${playName(d.kind)}.` : `${seat} plays a card face down as ${playName(d.kind)}.`;
    case "passed": return `${seat} passes.`;
    case "seized": case "initiative_seized": return `${seat} seizes the initiative.`;
    case "initiative": return `${seat} takes the initiative${d.why ? ` (${d.why})` : ""}.`;
    case "declared": return `${seat} declares ${ambitionName(d.ambition)} (marker ${d.marker})${d.zero_marker ? "; the zero marker goes on the lead card" : ""}.`;
    case "ambition_declared": return `${seat} declares ${ambitionName(d.ambition)} with ${card(names, d.card)} (marker ${d.marker}).`;
    case "round_over": return `The round ends: ${names.seat(d.initiative)} holds the initiative.`;
    case "spent": return `${seat} spends ${resourceName(d.resource)}.`;
    case "taxed": return `${seat} taxes in ${place(names, d.system)}${d.resource ? `, gaining ${resourceName(d.resource)}` : ", gaining nothing"}${Number.isInteger(d.captive) ? `, and captures an agent of ${names.seat(d.captive)}` : ""}.`;
    case "tax": return `${seat} taxes in ${place(names, d.system)}${d.resource ? `, gaining ${resourceName(d.resource)}` : ""}.`;
    case "built": return d.placed === false ? `${seat} builds a ${d.what} in ${place(names, d.system)}, but none is left in supply.` : `${seat} builds a ${d.what} in ${place(names, d.system)}.`;
    case "repaired": return `${seat} repairs a ${d.piece} in ${place(names, d.system)}.`;
    case "moved": return `${seat} moves ${shipsText(d.fresh, d.damaged)} from ${place(names, d.origin)} to ${place(names, (d.path || [])[d.path.length - 1])}${(d.path || []).length > 1 ? ` via ${d.path.slice(0, -1).map((s) => place(names, s)).join(", ")}` : ""}.`;
    case "move": return `${seat} moves ships from ${place(names, d.origin)}${d.via ? ` (${d.via})` : ""}.`;
    case "influenced": return `${seat} places an agent on ${card(names, d.card)}.`;
    case "influence": return `${seat} influences ${d.card ? card(names, d.card) : (d.cards || []).map((c) => card(names, c)).join(", ")}${d.via ? ` (${d.via})` : ""}.`;
    case "court_taken": return `${seat} ${d.how === "ransack" ? "ransacks" : "secures"} ${card(names, d.card)}.`;
    case "court_revealed": return `${card(names, d.card)} joins the Court.`;
    case "battle": return `${names.seat(d.attacker)} attacks ${Number.isInteger(d.defender) && d.defender >= 0 ? names.seat(d.defender) : "the defender"} in ${place(names, d.system)}.`;
    case "roll": return h("span", {}, `${seat || "The table"} rolls${d.why ? ` (${humanize(d.why).toLowerCase()})` : ""}: `, dice(d));
    case "ships_hit": return `${names.seat(d.owner)}'s ships in ${place(names, d.system)}: ${d.damaged} damaged, ${d.destroyed} destroyed.`;
    case "buildings_hit": return `${names.seat(d.owner)}'s buildings in ${place(names, d.system)} are hit${(d.destroyed || []).length ? `: ${d.destroyed.join(", ")} destroyed` : ""}.`;
    case "outrage": return `${seat} is Outraged in ${resourceName(d.resource)}.`;
    case "stolen": return `${names.seat(d.thief)} steals ${d.card ? card(names, d.card) : resourceName(d.resource)} from ${names.seat(d.victim)}.`;
    case "battle_over": return `The battle in ${place(names, d.system)} is over.`;
    case "battle_lapsed": return `${seat}'s battle in ${place(names, d.system)} no longer happens.`;
    case "secure_lapsed": return `${seat} can no longer secure ${card(names, d.card)}.`;
    case "resources_placed": return `${seat} places resources: ${(d.slots || []).map((r) => (r ? resourceName(r) : "—")).join(", ")}${(d.discarded || []).length ? `; discards ${d.discarded.map(resourceName).join(", ")}` : ""}.`;
    case "resources_gained": return `${seat} gains ${resourcesText(d.resources)}${d.card ? ` (${card(names, d.card)})` : ""}.`;
    case "resource_stolen": return `${seat} steals ${plural(d.count || 1, resourceName(d.resource))} from ${names.seat(d.rival)}${d.card ? ` (${card(names, d.card)})` : ""}.`;
    case "guild_stolen": return `${seat} takes ${card(names, d.card)} from ${names.seat(d.rival)}.`;
    case "guild_given": return `${seat} gives ${card(names, d.card)} to ${names.seat(d.recipient)}.`;
    case "fleet_placed": return `${seat} places a fleet of ${plural(d.ships, "ship")} at ${place(names, d.gate)}.`;
    case "ships_placed": return `${seat} places ships (${card(names, d.card)}): ${Object.entries(d.systems || {}).map(([s, n]) => `${n} in ${place(names, s)}`).join(", ")}.`;
    case "ability": return `${seat} uses ${card(names, d.card)}.`;
    case "union_attached": return `${seat} attaches ${card(names, d.card)} to ${card(names, d.action_card)}.`;
    case "union_settled": return `The Union on ${card(names, d.card)} is settled.`;
    case "hand_shown": return Array.isArray(d.cards) ? `${seat} sees ${names.seat(d.rival)}'s hand: ${d.cards.map((c) => card(names, c)).join(", ")}.` : `${seat} looks at ${names.seat(d.rival)}'s hand.`;
    case "scored": {
      const power = Object.entries(d.power || {}).filter(([, n]) => n).map(([s, n]) => `${names.seat(Number(s))} +${n}`);
      return `Chapter ${d.chapter} is scored (${(d.ambitions || []).map(ambitionName).join(", ") || "no ambition"}): ${power.join(", ") || "no Power gained"}.`;
    }
    case "draft_rows": return `The Leaders on offer: ${(d.leaders || []).map((c) => card(names, c)).join(", ")}; the Lore: ${(d.lore || []).map((c) => card(names, c)).join(", ")}.`;
    case "draft_pick": return `${seat} drafts ${card(names, d.card)}.`;
    case "draft_done": return "The draft is over.";
    case "game_end": return `The game ends${Array.isArray(d.winners) ? `: ${d.winners.map((s) => names.seat(s)).join(", ")} win${d.winners.length === 1 ? "s" : ""}` : ""}.`;
    default: {
      const said = names.params(d);
      return `${humanize(event.type)}${said ? `: ${said}` : ""}.`;
    }
  }
}

/** What an answer that changed nothing on the table was, by its prompt (the public part of
 * every seat's `action` event names the prompt answered). */
const QUIET = {
  seize: "does not seize the initiative", "arcs.act": "ends the turn", declare: "declares no ambition",
  mulligan: "keeps the hand",
};

/** The viewer's own answer in words when its events say nothing else ("Build a city in …"). */
function ownAnswer(entry, names, state) {
  const a = entry.action;
  if (!a) return null;
  if (a.type === "act") return a.params && a.params.act === "done" ? `${names.seat(entry.seat)} ends the turn.` : `${names.seat(entry.seat)}: ${actText(a.params || {}, names, state)}.`;
  if (a.type === "seize" && !(a.params || {}).card) return `${names.seat(entry.seat)} does not seize the initiative.`;
  if (a.type === "declare" && !(a.params || {}).ambition) return `${names.seat(entry.seat)} declares no ambition.`;
  if (a.type === "assign_hits" || a.type === "assign_building_hits") return `${names.seat(entry.seat)} assigns the hits.`;
  return null;
}

/** One log entry: its first sentence as the line, the rest below it. */
export function describe(entry, ctx) {
  const names = ctx.names;
  const events = Array.isArray(entry.events) ? entry.events : [];
  const lines = events.map((e) => sentence(e, names, ctx.state)).filter((l) => l !== null && l !== "");
  if (!lines.length) {
    const own = ownAnswer(entry, names, ctx.state);
    if (own) return own;
    const acted = events.find((e) => e.type === "action");
    const d = (acted && acted.data) || {};
    const seat = Number.isInteger(entry.seat) ? entry.seat : d.seat;
    if (!Number.isInteger(seat)) return null;
    const quiet = QUIET[d.prompt];
    return quiet ? `${names.seat(seat)} ${quiet}.` : `${names.seat(seat)} answers: ${humanize(d.prompt || "a prompt")}.`;
  }
  if (lines.length === 1) return h("span", { class: "arcs-log" }, lines[0]);
  return h("span", { class: "arcs-log" }, lines[0], h("ul", { class: "events" }, lines.slice(1).map((l) => h("li", {}, l))));
}
