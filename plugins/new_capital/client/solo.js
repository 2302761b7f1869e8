// The solo game's own parts (QNC-236..242): the round the game ends after, the Seals to
// reach, the phantom die in group challenges, the free Scout after each new Crisis.

import { h } from "/play/ui.js";
import { dieNode } from "./words.js";

export function soloSection(ctx) {
  const s = ctx.state;
  if (s.players.length !== 1) return null;
  const scenario = ctx.names.entry(s.scenario) || {};
  const me = s.players[0];
  const end = scenario.solo_end_round;
  return h("section", { class: "nc-panel nc-solo", "aria-labelledby": "nc-solo-h" },
    h("h2", { id: "nc-solo-h" }, "Solo game"),
    h("ul", { class: "nc-facts-list" },
      h("li", { dataset: { solo: "rounds" } }, end ? `Round ${s.round} of ${end}: the game ends before the Refresh of round ${end}.` : `Round ${s.round}.`),
      h("li", { dataset: { solo: "target" } }, scenario.seals ? `Target: ${scenario.seals} Seals (you hold ${me.seals}).` : `You hold ${me.seals} Seals.`),
      h("li", { dataset: { solo: "die" } }, "The phantom die, rolled for each group challenge: ", dieNode(s.die, "the phantom die"),
        " (its faces: ", ...(((ctx.names.entry(s.pack) || {}).solo_die) || []).map((f) => `${f} `), ")"),
      h("li", {}, "After each new Crisis you may Scout a row, the board cube untouched.")));
}
