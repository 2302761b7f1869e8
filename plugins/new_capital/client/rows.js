// The common rows: the three Structure tiers, the Advanced Actions and the Leaders, each
// with its pool face up (deck and discard as counts). A pool card the viewer may take now
// carries the button for it: Build, Upgrade a column to it, Research or Recruit.

import { h } from "/play/ui.js";
import { actButton, columnText, optionsOf } from "./actions.js";
import { cardNode } from "./cards.js";
import { ROWS, plural } from "./words.js";

const TAKE = { t1: ["build"], t2: ["upgrade_card"], t3: ["upgrade_card"], adv: ["research"], leaders: ["recruit"] };

function controlsFor(ctx, row, card) {
  const out = [];
  for (const type of TAKE[row]) {
    for (const o of optionsOf(ctx, type, { card })) {
      const label = type === "build" ? "Build" : type === "research" ? "Research" : type === "recruit" ? "Recruit"
        : `Upgrade ${columnText(ctx, o.params.column)}`;
      out.push(actButton(ctx, o, label));
    }
  }
  return out;
}

/** The pool cards this view places controls on (the decisions panel leaves them out). */
export function rowPlaced(ctx, option) {
  if (!["build", "upgrade_card", "research", "recruit"].includes(option.type)) return false;
  const rows = ctx.state.rows || {};
  return Object.entries(TAKE).some(([row, types]) => types.includes(option.type) && rows[row] && rows[row].pool.includes(option.params.card));
}

export function rowsSection(ctx) {
  const rows = ctx.state.rows || {};
  return h("section", { class: "nc-panel nc-rows", "aria-labelledby": "nc-rows-h" },
    h("h2", { id: "nc-rows-h" }, "The common rows"),
    h("div", { class: "nc-row-grid" }, ROWS.filter(([key]) => rows[key]).map(([key, title]) => {
      const row = rows[key];
      return h("div", { class: "nc-row", dataset: { row: key } },
        h("h3", {}, title),
        h("p", { class: "nc-facts" }, `Deck ${plural(row.deck, "card")} · discard ${plural(row.discard.length, "card")}`),
        row.pool.length
          ? h("ul", { class: "nc-cards" }, row.pool.map((id) => cardNode(ctx.names, id, { controls: controlsFor(ctx, key, id) })))
          : h("p", { class: "muted" }, "The pool is empty."));
    })));
}
