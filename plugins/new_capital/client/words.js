// The Queen's New Capital's vocabulary in words: tracks, crises, rows, board actions, the
// effect vocabulary (content.EffectOp) and the phase die. The table's parts and the log
// share it so both say things the same way.

import { h, humanize } from "/play/ui.js";

export const TRACKS = ["influence", "might", "morale", "wealth"];
export const ROWS = [["t1", "Tier 1 Structures"], ["t2", "Tier 2 Structures"], ["t3", "Tier 3 Structures"],
  ["adv", "Advanced Actions"], ["leaders", "Leaders"]];
export const ROW_NAMES = Object.fromEntries(ROWS);
export const CRISES = ["warfare", "political"];
const CRISIS_UNIT = { warfare: "power", political: "control" };
const BOARD_ACTIONS = { resupply: "Resupply", scout: "Scout", faction: "Faction action", support: "Support", top: "none yet" };
const PHASES = { development: "Development", crisis: "Crisis", score: "Score", refresh: "Refresh", setup: "Setup" };
const DIE_FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

export const trackName = (t) => humanize(t || "");
export const crisisName = (k) => (k === "warfare" ? "Warfare" : k === "political" ? "Political" : humanize(k || ""));
export const crisisUnit = (k) => CRISIS_UNIT[k] || "points";
export const boardActionName = (a) => BOARD_ACTIONS[a] || humanize(a || "");
export const phaseName = (p) => PHASES[p] || humanize(p || "—");
export const rowName = (r) => ROW_NAMES[r] || humanize(r || "");
export const columnName = (i) => `column ${Number(i) + 1}`;
export const slotName = (s) => (Number(s) === 0 ? "top slot" : "bottom slot");
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A Scout's "colour": a structure type, action kind or leader type, or a faction's name. */
export function matchName(match, names) {
  const entry = names.entry(match);
  return entry ? entry.name : humanize(match || "");
}

/** The board entry of the glossary (factions, seal slots with Alerts, the tracks' top). */
export function boardOf(ctx) {
  const entry = ctx.names.entry(ctx.state && ctx.state.pack);
  return entry && entry.kind === "board" ? entry : { factions: [], seal_alerts: [], track_max: 5, favored_at: 5, solo_die: [] };
}

/** One effect of the content vocabulary in words (the glossary's faces say the same). */
export function effectText(e) {
  const n = e.n ?? 1;
  switch (e.op) {
    case "attr": return e.track === "any" ? `+${n} on a track of your choice` : `+${n} ${trackName(e.track)}`;
    case "reserve": {
      const parts = [];
      if (e.power) parts.push(plural(e.power, "power token"));
      if (e.control) parts.push(plural(e.control, "control token"));
      return `${parts.join(" and ") || "nothing"} to your reserve`;
    }
    case "upgrade": return "an Upgrade token";
    case "extra_action": return plural(n, "Extra Action token");
    case "hunger": return "take a Hunger card";
    case "rebellion": return "take a Rebellion token";
    case "remove_rebellion": return "remove a Rebellion token";
    case "draw": return `draw ${plural(n, "card")}`;
    case "burn": return "burn a card";
    case "feather": return "one more free board action this round";
    case "diplomacy": return "move a diplomacy cube one space";
    case "choice": return `either ${(e.options || []).map(effectsText).join(" or ")}`;
    default: return humanize(e.op || "");
  }
}

export const effectsText = (effects) => (effects || []).map(effectText).join(", ") || "nothing";

/** A die drawn as a die: the face's pips for 1-6, else the number in a die's box. */
export function dieNode(value, label = "the die") {
  const n = Number(value);
  const pips = Number.isInteger(n) && n >= 1 && n <= 6;
  return h("span", { class: `nc-die${pips ? "" : " plain"}`, role: "img", "aria-label": `${label} shows ${value}`, title: `${label}: ${value}` },
    pips ? DIE_FACES[n - 1] : String(value));
}

/** The direction toward a faction on a diplomacy track, in words. */
export function towardText(board, track, direction, names) {
  const f = (board.factions || []).find((x) => x.track === Number(track) && x.end === Number(direction));
  return f ? `toward ${f.name}` : direction < 0 ? "left" : "right";
}
