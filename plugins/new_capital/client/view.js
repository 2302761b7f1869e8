// The Queen's New Capital's table view for the reference client (api/static/play/views.js
// has the contract): who is to act and the phase die, the viewer's decisions, the Crisis and
// its bids, the viewer's province and board, the common rows, the modules' parts, the other
// provinces and, in a solo game, its own parts. It reads only the viewer's redacted state and
// the glossary, and acts only with the viewer's legal actions.

import { h } from "/play/ui.js";
import { decisionsPanel, myPrompts } from "./actions.js";
import { boardSection } from "./board.js";
import { crisisSection, dieSection } from "./crisis.js";
import { handSection, provinceSection } from "./province.js";
import { rowPlaced, rowsSection } from "./rows.js";
import { seatsSection } from "./seats.js";
import { soloSection } from "./solo.js";
import { phaseName } from "./words.js";

export { describe } from "./log.js";
export const styles = "./view.css";

/** Action types a module's part draws its own controls for, by module. */
const MODULE_TYPES = { guildmasters: ["guildmaster"], dilemmas: ["dilemma_vote", "dilemma_reinforce"] };

function turnBar(ctx) {
  const t = ctx.table;
  const s = ctx.state;
  const names = ctx.names;
  const waiting = [...new Set((t.prompts || []).filter((p) => p.blocking).map((p) => names.seat(p.seat)))];
  const yours = myPrompts(ctx).length > 0;
  return h("div", { class: "nc-bar", role: "status" },
    h("span", {}, s.round ? `Round ${s.round} · ${phaseName(s.phase)}${s.step ? ` (${s.step.replace(/_/g, " ")})` : ""}` : "Setup: the leader draft"),
    h("span", {}, `First player: ${names.seat(s.first)}`),
    dieSection(ctx),
    t.status === "playing"
      ? h("span", { class: yours ? "nc-yours" : "" }, yours ? "Your decision is waiting. " : "", `Waiting for: ${waiting.join(", ") || "nobody"}`)
      : h("span", { class: "nc-result" }, t.status === "finished" ? resultText(ctx) : "Waiting for players."));
}

/** The end of the game in words: who won, on what. */
function resultText(ctx) {
  const r = ctx.table.result || {};
  const winners = (r.winners || []).map((s) => ctx.names.seat(s)).join(", ");
  if (r.solo) return `The solo game is over: a ${r.solo} (target ${r.target} Seals).`;
  return `The game is over: ${winners || "nobody"} ${r.shared ? "share the win" : "wins"}${r.decided_by && r.decided_by !== "seals" ? ` (decided by ${r.decided_by})` : ""}.`;
}

/** Whether an option's control is drawn somewhere other than the decisions panel. */
function placedBy(ctx, parts) {
  const hand = new Set(Array.isArray((ctx.state.players[ctx.viewer] || {}).hand) ? ctx.state.players[ctx.viewer].hand : []);
  const heroes = parts["faction-heroes"] ? heroTops(ctx.state) : new Set();
  return (o) => {
    const p = o.params || {};
    if (o.type === "play" && hand.has(p.card)) return true;
    if (o.type === "board" && p.action === "support" && hand.has(p.card)) return true;
    if (o.type === "bribe" || o.type === "seal_slot") return true;
    if (rowPlaced(ctx, o)) return true;
    if (o.type === "recruit" && heroes.has(p.card)) return true;
    return Object.entries(MODULE_TYPES).some(([id, types]) => parts[id] && types.includes(o.type));
  };
}

function heroTops(state) {
  const pools = ((state.module_state || {})["faction-heroes"] || {}).pools || {};
  return new Set(Object.values(pools).map((p) => p.top).filter(Boolean));
}

export function render(ctx) {
  const s = ctx.state;
  if (!s || !Array.isArray(s.players) || !s.rows) return null;
  const parts = Object.fromEntries(["guildmasters", "dilemmas", "faction-heroes"].map((id) => [id, ctx.part(id)]));
  const decisions = decisionsPanel(ctx, placedBy(ctx, parts));
  return h("div", { class: "nc-view", dataset: { phase: s.phase || "", round: String(s.round), step: s.step || "" } },
    turnBar(ctx),
    decisions ? h("section", { class: "nc-panel nc-decisions", "aria-labelledby": "nc-decisions-h" },
      h("h2", { id: "nc-decisions-h" }, "Your decision"), decisions) : null,
    handSection(ctx),
    soloSection(ctx),
    crisisSection(ctx),
    h("div", { class: "nc-grid" }, parts.dilemmas, parts.guildmasters),
    provinceSection(ctx),
    boardSection(ctx),
    rowsSection(ctx),
    parts["faction-heroes"],
    seatsSection(ctx));
}
