// Every other seat's public board in summary: its tokens, tracks, seals and diplomacy, its
// province's columns, and its hidden cards as counts only (the state holds nothing more).

import { h } from "/play/ui.js";
import { playerBoard } from "./board.js";
import { columnsNode, tokensLine } from "./province.js";
import { plural } from "./words.js";

function hiddenCounts(p) {
  const count = (v) => (Array.isArray(v) ? v.length : v);
  const parts = [`hand ${plural(count(p.hand), "card")}`, `deck ${plural(p.deck, "card")}`, `discard ${plural(p.discard.length, "card")}`];
  if (count(p.face_down)) parts.push(`${plural(count(p.face_down), "card")} face down`);
  if (count(p.draft_offer)) parts.push(`${plural(count(p.draft_offer), "draft leader")} to choose from`);
  return parts.join(" · ");
}

export function seatsSection(ctx) {
  const s = ctx.state;
  const others = s.players.filter((p) => p.seat !== ctx.viewer);
  if (!others.length) return null;
  const acting = new Set(ctx.table.activeSeats || []);
  return h("section", { class: "nc-panel nc-seats", "aria-labelledby": "nc-seats-h" },
    h("h2", { id: "nc-seats-h" }, ctx.viewer === null || ctx.viewer === undefined ? "The provinces" : "The other provinces"),
    h("div", { class: "nc-seat-grid" }, others.map((p) => h("details", { class: "nc-seat", dataset: { seat: String(p.seat) }, open: true },
      h("summary", {}, h("strong", {}, ctx.names.seat(p.seat)),
        ` · ${plural(p.seals, "Seal")} · ${plural(p.columns.length, "column")}`,
        s.first === p.seat ? h("span", { class: "badge" }, "first player") : null,
        acting.has(p.seat) ? h("span", { class: "badge acting" }, "to act") : null),
      tokensLine(ctx, p),
      h("p", { class: "nc-facts" }, hiddenCounts(p)),
      playerBoard(ctx, p),
      columnsNode(ctx, p)))));
}
