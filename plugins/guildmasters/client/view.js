// The Guildmasters' part of the New Capital table (QNC-206..215): the active Guildmaster and
// what it changes this round, the two dealt to the round's first player (shown to that
// player only: the others' view holds a count) with the buttons to choose, the deck and the
// discard pile. The game's view places this part beside the Crisis.

import { h } from "/play/ui.js";
import { actButton, optionsOf } from "/play/views/game/new-capital/actions.js";
import { cardNode } from "/play/views/game/new-capital/cards.js";
import { plural } from "/play/views/game/new-capital/words.js";

export function render(ctx) {
  const m = ctx.state && ctx.state.module_state ? ctx.state.module_state.guildmasters : null;
  if (!m) return null;
  const names = ctx.names;
  const zones = m.zones;
  const dealt = Array.isArray(zones.dealt) ? zones.dealt : [];
  const choosing = m.chooser !== null && m.chooser !== undefined;
  return h("section", { class: "nc-panel nc-guildmasters", "aria-labelledby": "nc-gm-h" },
    h("h2", { id: "nc-gm-h" }, "Guildmasters"),
    m.active
      ? h("div", { class: "nc-active-gm" }, h("h3", {}, "Active this round"), h("ul", { class: "nc-cards" }, cardNode(names, m.active)))
      : h("p", { class: "muted" }, choosing ? "No Guildmaster is active until the choice is made." : "No Guildmaster is active yet."),
    choosing ? h("div", { class: "nc-gm-choice", dataset: { chooser: String(m.chooser) } },
      h("h3", {}, m.chooser === ctx.viewer ? "Choose the active Guildmaster" : `${names.seat(m.chooser)} chooses from two Guildmasters`),
      dealt.length
        ? h("ul", { class: "nc-cards" }, dealt.map((id) => cardNode(names, id, {
          controls: optionsOf(ctx, "guildmaster", { card: id }).map((o) => actButton(ctx, o, `Make ${names.text(id)} active`)),
        })))
        : h("p", { class: "muted" }, `${plural(typeof zones.dealt === "number" ? zones.dealt : 0, "card")} face down to you.`)) : null,
    h("p", { class: "nc-facts" }, `Deck: ${plural(zones.deck, "card")} · discard pile: ${zones.discard.length ? zones.discard.map((c) => names.text(c)).join(", ") : "empty"}`));
}
