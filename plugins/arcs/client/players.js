// Each player's board as the table sees it: Power, resources in their six slots (a slot under a
// city left on the board is covered), cities still on the board, pieces in supply, Outrage,
// Trophies, Captives, Guild and Lore cards, the Leader, and how many cards are in hand (only the
// viewer's own hand is shown as cards, in its own section).

import { h } from "/play/ui.js";
import { nameOf, playerOf, plural, resourceName, textOf } from "./words.js";

function slots(state, player) {
  const printed = state.resource_slots || [];
  return h("ol", { class: "arcs-slots", "aria-label": "Resource slots" }, player.resources.map((r, i) => {
    const [raid, cityslot] = printed[i] || [0, null];
    const covered = cityslot !== null && cityslot !== undefined && player.cities_on_board[cityslot - 1];
    const label = covered ? "covered by a city" : resourceName(r);
    return h("li", { class: `arcs-res ${r ? `type-${r}` : "empty"}${covered ? " covered" : ""}`, title: `Slot ${i + 1} (raid cost ${raid}): ${label}`,
      dataset: { slot: String(i), resource: r || "" } }, covered ? "▦" : r ? resourceName(r).slice(0, 3) : "·");
  }));
}

function counted(list, keyOf) {
  const groups = new Map();
  for (const item of list) {
    const key = keyOf(item);
    groups.set(key, (groups.get(key) || 0) + 1);
  }
  return [...groups.entries()].map(([key, n]) => ({ key, n }));
}

function cardList(names, cards) {
  if (!cards.length) return h("span", { class: "muted" }, "none");
  return cards.map((c, i) => [i ? ", " : "", h("span", { class: "arcs-named", title: textOf(names, c) }, nameOf(names, c))]);
}

function board(ctx, seat) {
  const s = ctx.state;
  const names = ctx.names;
  const p = playerOf(s, seat);
  const citiesLeft = p.cities_on_board.filter(Boolean).length;
  const trophies = counted(p.trophies, (t) => `${t[0]}|${t[1]}`)
    .map(({ key, n }) => { const [owner, kind] = key.split("|"); return `${plural(n, kind)} of ${Number(owner) >= 0 ? names.seat(Number(owner)) : "no player"}`; });
  const captives = counted(p.captives, (owner) => owner).map(({ key, n }) => `${n} of ${names.seat(Number(key))}`);
  const hand = (s.hand_counts || [])[seat] ?? 0;
  const you = seat === ctx.viewer;
  return h("li", { class: `arcs-board seat-${seat}${you ? " you" : ""}`, dataset: { seat: String(seat) } },
    h("h3", {}, h("span", { class: `arcs-dot seat-${seat}`, "aria-hidden": "true" }), names.seat(seat), you ? " (you)" : "",
      s.initiative === seat ? h("span", { class: "badge" }, "initiative") : null),
    h("p", { class: "arcs-power" }, h("strong", {}, `${p.power} Power`), ` · ${plural(hand, "card")} in hand`),
    slots(s, p),
    h("dl", { class: "arcs-facts" },
      h("dt", {}, "Cities on board"), h("dd", {}, `${citiesLeft} of ${p.cities_on_board.length}`),
      h("dt", {}, "Supply"), h("dd", {}, `${plural(p.ships, "ship")}, ${plural(p.starports, "starport")}, ${plural(p.agents, "agent")}`),
      h("dt", {}, "Outrage"), h("dd", {}, p.outrage.length ? p.outrage.map(resourceName).join(", ") : h("span", { class: "muted" }, "none")),
      h("dt", {}, "Trophies"), h("dd", { dataset: { trophies: String(p.trophies.length) } }, trophies.join("; ") || h("span", { class: "muted" }, "none")),
      h("dt", {}, "Captives"), h("dd", { dataset: { captives: String(p.captives.length) } }, captives.join("; ") || h("span", { class: "muted" }, "none")),
      h("dt", {}, "Guild cards"), h("dd", {}, cardList(names, p.guild)),
      p.lore.length ? [h("dt", {}, "Lore"), h("dd", {}, cardList(names, p.lore))] : null,
      p.leader ? [h("dt", {}, "Leader"), h("dd", {}, cardList(names, [p.leader]))] : null));
}

export function playersSection(ctx) {
  const n = (ctx.state.players || []).length;
  const order = Array.from({ length: n }, (_, i) => i);
  return h("section", { class: "arcs-panel arcs-players", "aria-labelledby": "arcs-players-h" },
    h("h2", { id: "arcs-players-h" }, "Players"),
    h("ul", { class: "arcs-boards" }, order.map((seat) => board(ctx, seat))));
}
