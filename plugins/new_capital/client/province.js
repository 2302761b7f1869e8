// The viewer's province as cards in columns (structures bottom to top, the two leader slots,
// Upgrade and Rebellion tokens), then its hand with each card's Play (or Support) button,
// the cards face down for the Crisis, and its piles and tokens. Only the viewer's own hand
// and face-down cards are here: the state shows another seat's as counts.

import { h } from "/play/ui.js";
import { actButton, optionLabel, optionsOf } from "./actions.js";
import { cardBack, cardNode } from "./cards.js";
import { boardActionName, columnName, plural, slotName } from "./words.js";

function tokens(n, cls, word) {
  if (!n) return null;
  return h("span", { class: `nc-tokens ${cls}`, title: plural(n, word) }, `${plural(n, word)}`);
}

/** One column: its structures (top card last, drawn on top), its slots and tokens. */
export function columnNode(ctx, player, col, i, { mine = false } = {}) {
  const names = ctx.names;
  const top = col.structures.length - 1;
  const structures = col.structures.map((id, k) => cardNode(names, id, { compact: k !== top, extra: k === top ? "top" : "covered" }));
  const slots = col.slots.map((slot, si) => h("li", { class: `nc-slot${slot.leader ? "" : " empty"}`, dataset: { slot: String(si) } },
    h("small", { class: "muted" }, slotName(si)),
    slot.leader ? cardNode(names, slot.leader, { tag: "div", compact: !mine }) : h("span", { class: "muted" }, "empty"),
    slot.flipped.length ? h("small", { class: "nc-flipped" }, `${plural(slot.flipped.length, "leader")} flipped below: `,
      slot.flipped.map((f) => names.text(f)).join(", ")) : null));
  return h("li", { class: "nc-column", dataset: { column: String(i) }, "aria-label": `${columnName(i)} of ${names.seat(player.seat)}` },
    h("h4", {}, columnName(i).replace(/^c/, "C"), tokens(col.upgrades, "upgrade", "Upgrade token"), tokens(col.rebellion, "rebellion", "Rebellion token")),
    h("ol", { class: "nc-structures", "aria-label": "Structures, bottom to top" }, structures),
    h("ul", { class: "nc-slots", "aria-label": "Leader slots" }, slots));
}

export function columnsNode(ctx, player, opts = {}) {
  if (!player.columns.length) return h("p", { class: "muted" }, "No columns yet.");
  return h("ol", { class: "nc-columns" }, player.columns.map((col, i) => columnNode(ctx, player, col, i, opts)));
}

/** The viewer's hand, right below its decisions: each card's Play (or Support) button. */
export function handSection(ctx) {
  if (ctx.viewer === null || ctx.viewer === undefined || !ctx.state.players[ctx.viewer]) return null;
  const me = ctx.state.players[ctx.viewer];
  const names = ctx.names;
  const hand = Array.isArray(me.hand) ? me.hand : [];
  const cards = hand.map((id) => {
    const controls = [...optionsOf(ctx, "play", { card: id }), ...optionsOf(ctx, "board", { action: "support", card: id })]
      .map((o) => actButton(ctx, o, o.type === "play" ? "Play" : "Support", { detail: o.type === "play" ? "" : optionLabel(ctx, o)[1] }));
    return cardNode(names, id, { controls });
  });
  return h("section", { class: "nc-panel nc-hand", "aria-labelledby": "nc-hand-h" },
    h("h2", { id: "nc-hand-h" }, `Your hand (${hand.length})`),
    cards.length ? h("ul", { class: "nc-cards" }, cards) : h("p", { class: "muted" }, "No cards in hand."));
}

function piles(ctx, me) {
  const names = ctx.names;
  const faceDown = Array.isArray(me.face_down) ? me.face_down : [];
  const top = me.discard.length ? me.discard[me.discard.length - 1] : null;
  return h("div", { class: "nc-piles" },
    faceDown.length ? h("div", {}, h("h3", {}, "Face down for the Crisis"),
      h("ul", { class: "nc-cards" }, faceDown.map((id) => cardNode(names, id, { compact: true, extra: "only you see it until the reveal" })))) : null,
    (me.resolving || []).length ? h("div", {}, h("h3", {}, "Resolving"), h("ul", { class: "nc-cards" }, me.resolving.map((id) => cardNode(names, id, { compact: true })))) : null,
    h("p", { class: "nc-facts" },
      `Deck: ${plural(me.deck, "card")} · Discard: ${plural(me.discard.length, "card")}`, top ? ` (top: ${names.text(top)})` : "",
      ` · Burned: ${me.burned.length ? me.burned.map((c) => names.text(c)).join(", ") : "none"}`));
}

/** The viewer's reserve and other tokens, and the board action its cube covers this round. */
export function tokensLine(ctx, p) {
  return h("p", { class: "nc-facts nc-reserve", dataset: { seat: String(p.seat) } },
    h("span", { class: "nc-token power" }, `${p.reserve_power} power`), " · ",
    h("span", { class: "nc-token control" }, `${p.reserve_control} control`), " tokens in reserve · ",
    `${plural(p.extra_actions, "Extra Action token")} · board cube: ${p.board_cube === "top" ? "free (no board action yet)" : boardActionName(p.board_cube)}`);
}

export function provinceSection(ctx) {
  if (ctx.viewer === null || ctx.viewer === undefined) return null;
  const me = ctx.state.players[ctx.viewer];
  if (!me) return null;
  const offer = Array.isArray(me.draft_offer) ? me.draft_offer : [];
  return h("section", { class: "nc-panel nc-province", "aria-labelledby": "nc-province-h" },
    h("h2", { id: "nc-province-h" }, "Your province"),
    tokensLine(ctx, me),
    columnsNode(ctx, me, { mine: true }),
    offer.length ? h("div", {}, h("h3", {}, "Your draft leaders (secret)"),
      h("ul", { class: "nc-cards" }, offer.map((id) => cardNode(ctx.names, id)))) : null,
    piles(ctx, me));
}

export { cardBack };
