// The Faction Heroes' part of the New Capital table (QNC-207, QNC-216..221): each faction's
// stack with its top hero face up and how many are left; a hero the viewer may recruit now
// (Favored by its faction) carries the Recruit button.

import { h } from "/play/ui.js";
import { actButton, optionsOf } from "/play/views/game/new-capital/actions.js";
import { cardNode } from "/play/views/game/new-capital/cards.js";
import { plural } from "/play/views/game/new-capital/words.js";

export function render(ctx) {
  const m = ctx.state && ctx.state.module_state ? ctx.state.module_state["faction-heroes"] : null;
  if (!m || !m.pools) return null;
  const names = ctx.names;
  const stacks = Object.entries(m.pools).map(([faction, pool]) => h("li", { class: "nc-hero-stack", dataset: { faction } },
    h("h3", {}, names.text(faction)),
    h("p", { class: "nc-facts" }, plural(pool.count, "hero"), " in the stack"),
    pool.top ? h("ul", { class: "nc-cards" }, cardNode(names, pool.top, {
      controls: optionsOf(ctx, "recruit", { card: pool.top }).map((o) => actButton(ctx, o, `Recruit ${names.text(pool.top)}`)),
    })) : h("p", { class: "muted" }, "None left.")));
  return h("section", { class: "nc-panel nc-heroes", "aria-labelledby": "nc-heroes-h" },
    h("h2", { id: "nc-heroes-h" }, "Faction Heroes"),
    h("p", { class: "muted" }, "Favored by a faction, you may recruit its top hero (one per faction, two at most)."),
    h("ul", { class: "nc-hero-stacks" }, stacks));
}
