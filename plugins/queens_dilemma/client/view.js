// The Queen's Dilemma's table view for the reference client (api/static/play/views.js has the
// contract): the Dilemma and its vote, the viewer's decisions, the Ideology board, the
// viewer's secret cards, the map of Ankist, the standings and the Chronicles. It reads only
// the viewer's redacted state and the glossary, and acts only with the viewer's legal actions.

import { h, humanize } from "/play/ui.js";
import { decisionsPanel, myPrompts } from "./actions.js";
import { boardSection } from "./board.js";
import { chroniclesSection } from "./chronicles.js";
import { dilemmaSection } from "./dilemma.js";
import { mapSection } from "./map.js";
import { secretsSection } from "./secrets.js";
import { standingsSection } from "./standings.js";

export { describe } from "./log.js";
export const styles = "./view.css";

/** Who the table waits for, and the viewer's other decisions (the vote has its own controls). */
function turnBar(ctx) {
  const t = ctx.table;
  const s = ctx.state;
  const names = ctx.names;
  const waiting = (t.prompts || []).filter((p) => p.blocking).map((p) => `${names.seat(p.seat)} (${p.kind === "vote" ? "voting" : humanize(p.kind).toLowerCase()})`);
  const yours = myPrompts(ctx).some((p) => p.kind !== "payment");
  return h("div", { class: "qd-bar", role: "status" },
    h("span", {}, `Game ${s.game_number} · Round ${s.round} · ${humanize(s.phase || "—")}`),
    h("span", {}, "Leader: ", names.seat(s.leader), " · Moderator: ", names.seat(s.moderator)),
    t.status === "playing"
      ? h("span", { class: yours ? "qd-yours" : "" }, yours ? "Your decision is waiting. " : "", `Waiting for: ${[...new Set(waiting)].join(", ") || "nobody"}`)
      : h("span", {}, t.status === "finished" ? "The game is over." : "Waiting for players."));
}

export function render(ctx) {
  const s = ctx.state;
  if (!s || !s.campaign) return null;
  const decisions = decisionsPanel(ctx);
  return h("div", { class: "qd-view", dataset: { phase: s.phase || "", round: String(s.round) } },
    turnBar(ctx),
    decisions ? h("section", { class: "qd-panel qd-decisions", "aria-labelledby": "qd-decisions-h" },
      h("h2", { id: "qd-decisions-h" }, "Your decision"), decisions) : null,
    dilemmaSection(ctx),
    h("div", { class: "qd-grid" }, boardSection(ctx), secretsSection(ctx)),
    mapSection(ctx),
    standingsSection(ctx),
    chroniclesSection(ctx));
}
