// The Arcs table view for the reference client (api/static/play/views.js has the contract): the
// round and the viewer's decisions, the map of the Reach, the Court, the ambitions, the viewer's
// hand and every player's board. It reads only the viewer's redacted state and the glossary,
// and acts only with the viewer's legal actions (controls.js says how).

import { h, humanize } from "/play/ui.js";
import { ambitionsSection, courtSection } from "./court.js";
import {
  COURT_ACTS, MAP_ACTS, actButton, answerDetail, answerText, isSeated, legalOf, otherAnswers, paySelect,
} from "./controls.js";
import { handSection } from "./hand.js";
import { mapSection } from "./map.js";
import { playersSection } from "./players.js";
import { roundSection, statusBar } from "./round.js";
import { nameOf } from "./words.js";

export { describe } from "./log.js";
export const styles = "./view.css";

/** The turn's own choices: how to pay, where the map and Court choices are, the Prelude
 * spends and card abilities, other turn answers, and ending the turn. */
function turnControls(ctx) {
  const acts = legalOf(ctx, "act");
  if (!acts.length) return null;
  const kinds = new Set(acts.map((a) => a.params.act));
  const onMap = MAP_ACTS.filter((k) => kinds.has(k));
  const onCourt = COURT_ACTS.filter((k) => kinds.has(k));
  const here = acts.filter((a) => ![...MAP_ACTS, ...COURT_ACTS].includes(a.params.act));
  const done = here.filter((a) => a.params.act === "done");
  const rest = here.filter((a) => a.params.act !== "done");
  const where = [
    onMap.length ? `${onMap.join(", ")}: select a system on the map` : "",
    onCourt.length ? `${onCourt.join(" or ")}: use the Court card's button` : "",
  ].filter(Boolean);
  return h("div", { class: "arcs-decision", dataset: { prompt: "act" } },
    h("h4", {}, "Your turn"),
    where.length ? h("p", {}, `${where.join("; ")}.`) : null,
    paySelect(ctx),
    rest.length ? h("div", { class: "arcs-buttons" }, rest.map((a) => actButton(ctx, a, answerText(a, ctx), {
      cls: "secondary", data: a.params.card ? { card: a.params.card } : {},
    }))) : null,
    done.length ? h("div", { class: "arcs-buttons" }, done.map((a) => actButton(ctx, a, "End your turn", { cls: "secondary" }))) : null);
}

function hint(text, prompt) {
  return h("div", { class: "arcs-decision", dataset: { prompt } }, h("p", {}, text));
}

/** Everything the viewer may answer now, each either here or pointed to where it is. */
function decisionsPanel(ctx) {
  if (!isSeated(ctx) || !(ctx.legal || []).length) return null;
  const names = ctx.names;
  const parts = [];
  if (legalOf(ctx, "lead").length || legalOf(ctx, "pass").length) parts.push(hint("Lead a card of your hand (below), or pass.", "lead"));
  if (legalOf(ctx, "play").length) parts.push(hint(`Follow ${nameOf(names, ctx.state.lead)}: choose a card of your hand (below) and how to play it.`, "follow"));
  if (legalOf(ctx, "seize").length) parts.push(hint("Seize the initiative with a card of your hand (below), or do not.", "seize"));
  if (legalOf(ctx, "declare").length) parts.push(hint("Declare an ambition (the Ambitions below), or declare none.", "declare"));
  if (legalOf(ctx, "assign_hits").length || legalOf(ctx, "assign_building_hits").length) {
    const b = ctx.state.battle || {};
    parts.push(h("div", { class: "arcs-decision", dataset: { prompt: "hits" } },
      h("p", {}, `Assign the hits in ${nameOf(names, b.system, b.system)}: the system is selected on the map.`),
      h("button", { type: "button", class: "secondary", dataset: { focus: "arcs:show-battle" },
        onclick: () => { ctx.memory.set("sel", b.system); ctx.rerender(); } }, `Show ${nameOf(names, b.system, b.system)}`)));
  }
  const turn = turnControls(ctx);
  if (turn) parts.push(turn);
  const other = otherAnswers(ctx);
  if (other.length) {
    const byType = new Map();
    for (const a of other) { if (!byType.has(a.type)) byType.set(a.type, []); byType.get(a.type).push(a); }
    for (const [type, actions] of byType) {
      const prompt = (ctx.table.prompts || []).find((p) => p.seat === ctx.viewer && (p.options || []).some((o) => o.type === type));
      parts.push(h("div", { class: "arcs-decision", dataset: { prompt: type } },
        h("h4", {}, (prompt && prompt.text) || humanize(prompt ? prompt.kind : type)),
        h("div", { class: "arcs-buttons" }, actions.map((a) => actButton(ctx, a, answerText(a, ctx),
          { data: { type }, detail: answerDetail(a, names) })))));
    }
  }
  return h("section", { class: "arcs-panel arcs-decisions", "aria-labelledby": "arcs-decisions-h" },
    h("h2", { id: "arcs-decisions-h" }, "Your decision"), parts);
}

export function render(ctx) {
  const s = ctx.state;
  if (!s || !Array.isArray(s.players) || !s.systems) return null;
  return h("div", { class: "arcs-view", dataset: { chapter: String(s.chapter), round: String(s.round || 0) } },
    statusBar(ctx),
    decisionsPanel(ctx),
    h("div", { class: "arcs-top" }, mapSection(ctx), h("div", { class: "arcs-side" }, roundSection(ctx), handSection(ctx))),
    courtSection(ctx),
    ambitionsSection(ctx),
    playersSection(ctx));
}
