// The round as the table sees it: chapter, initiative, who is to act, the turn being taken
// (its card, pips and what they buy) and the cards played this round (the lead, each follow as
// Surpass, Copy face down or Pivot, and who seized), the battle being fought.

import { h, humanize } from "/play/ui.js";
import { diceText } from "./controls.js";
import { nameOf, playName, plural } from "./words.js";

export function statusBar(ctx) {
  const t = ctx.table;
  const s = ctx.state;
  const names = ctx.names;
  const waiting = [...new Set((t.prompts || []).filter((p) => p.blocking).map((p) => names.seat(p.seat)))];
  const mine = ctx.viewer !== null && (t.prompts || []).some((p) => p.seat === ctx.viewer);
  return h("div", { class: "arcs-bar", role: "status" },
    h("span", { dataset: { chapter: String(s.chapter) } }, `Chapter ${s.chapter} of 5`),
    h("span", { class: "arcs-initiative", dataset: { initiative: String(s.initiative) } },
      h("span", { class: `arcs-dot seat-${s.initiative}`, "aria-hidden": "true" }), `Initiative: ${names.seat(s.initiative)}${s.seized ? " (seized)" : ""}`),
    t.status === "playing"
      ? h("span", { class: mine ? "arcs-yours" : "" }, mine ? "Your move. " : "", `Waiting for: ${waiting.join(", ") || "nobody"}`)
      : h("span", {}, t.status === "finished" ? `The game is over${Number.isInteger(s.winner) && s.winner >= 0 ? `: ${names.seat(s.winner)} wins` : ""}.` : "Waiting for players."));
}

function turnLine(ctx) {
  const turn = ctx.state.turn;
  if (!turn) return null;
  const names = ctx.names;
  return h("p", { class: "arcs-turn", dataset: { seat: String(turn.seat), pips: String(turn.pips) } },
    h("span", { class: `arcs-dot seat-${turn.seat}`, "aria-hidden": "true" }),
    `${names.seat(turn.seat)}'s turn (${playName(turn.kind)}): ${turn.pips} pip${turn.pips === 1 ? "" : "s"} left for ${(turn.actions || []).join(", ") || "nothing"}`,
    turn.prelude ? " · Prelude open" : "", turn.weapon ? " · may battle" : "");
}

function battleLine(ctx) {
  const b = ctx.state.battle;
  if (!b) return null;
  const names = ctx.names;
  const kinds = {};
  for (const d of b.dice || []) kinds[d] = (kinds[d] || 0) + 1;
  const rolled = Object.keys(kinds).length ? diceText({ assault: kinds.assault || 0, skirmish: kinds.skirmish || 0, raid: kinds.raid || 0 }) : "";
  const left = ["hit", "building_hit", "self_hit", "intercept", "key"].filter((k) => b[k]).map((k) => plural(b[k], humanize(k).toLowerCase()));
  return h("p", { class: "arcs-battle-line", dataset: { system: b.system } },
    `Battle in ${nameOf(names, b.system, b.system)}: ${names.seat(b.attacker)} attacks ${b.defender >= 0 ? names.seat(b.defender) : "the defender"}`,
    rolled ? ` with ${rolled}` : "", left.length ? ` · to resolve: ${left.join(", ")}` : "");
}

export function roundSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const plays = s.plays || [];
  return h("section", { class: "arcs-panel arcs-round", "aria-labelledby": "arcs-round-h" },
    h("h2", { id: "arcs-round-h" }, "This round"),
    turnLine(ctx),
    battleLine(ctx),
    plays.length
      ? h("ol", { class: "arcs-plays" }, plays.map((p) => h("li", { class: `arcs-play kind-${p.kind}`, dataset: { seat: String(p.seat), kind: p.kind } },
        h("span", { class: `arcs-dot seat-${p.seat}`, "aria-hidden": "true" }),
        h("strong", {}, playName(p.kind)), ` by ${names.seat(p.seat)}: `,
        p.card ? h("span", { class: "arcs-played-card", title: (names.entry(p.card) || {}).text || "" }, nameOf(names, p.card)) : h("span", { class: "muted" }, "a card face down"),
        p.seized ? " · seized the initiative" : "",
        p.kind === "lead" && s.declared ? " · zero marker on it" : "")))
      : h("p", { class: "muted" }, "No card played yet this round."),
    h("p", { class: "muted" }, `Action deck: ${s.action_deck_count ?? 0} · discard: ${s.action_discard_count ?? 0} face down${(s.action_discard_up || []).length ? `, ${s.action_discard_up.length} face up` : ""}`));
}
