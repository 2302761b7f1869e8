// The viewer's own hand as cards to click: lead a card, follow with it (Surpass, Copy or Pivot,
// as the legal actions list), seize with it, or pass. Only this seat's hand is ever drawn: the
// view holds no other seat's cards (another seat's hand is only its size, on its board).

import { h } from "/play/ui.js";
import { actButton, legalOf } from "./controls.js";
import { nameOf, playName, textOf } from "./words.js";

const FOLLOW_HINT = { surpass: "same suit, higher number", copy: "face down: one pip of the lead's suit", pivot: "another suit: one pip" };

function cardFace(names, card) {
  return [h("span", { class: "arcs-hand-name" }, nameOf(names, card)), h("small", { class: "arcs-card-text" }, textOf(names, card))];
}

function handCard(ctx, card) {
  const names = ctx.names;
  const lead = legalOf(ctx, "lead").find((a) => a.params.card === card);
  const follows = legalOf(ctx, "play").filter((a) => a.params.card === card);
  const seize = legalOf(ctx, "seize").find((a) => a.params.card === card);
  const suit = (nameOf(names, card, "").split(" ")[0] || "").toLowerCase(); // "Administration 4" -> administration
  if (lead && !follows.length && !seize) {
    // one thing to do with it: the card itself is the button
    return h("li", { class: `arcs-hand-card suit-${suit} can-act`, dataset: { card } },
      h("button", {
        type: "button", class: "arcs-card-button", disabled: ctx.busy || null,
        dataset: { action: "lead", card, focus: `arcs:lead:${card}` },
        "aria-label": `Lead ${nameOf(names, card)}`, onclick: () => ctx.act({ type: "lead", params: lead.params }),
      }, cardFace(names, card), h("span", { class: "arcs-card-verb" }, "Lead")));
  }
  const buttons = [
    ...follows.map((a) => actButton(ctx, a, playName(a.params.kind), { data: { card, kind: a.params.kind }, title: FOLLOW_HINT[a.params.kind] || "" })),
    seize ? actButton(ctx, seize, "Seize with it", { data: { card }, cls: "secondary", title: "Put it face down to take the initiative" }) : null,
  ].filter(Boolean);
  return h("li", { class: `arcs-hand-card suit-${suit}${buttons.length ? " can-act" : ""}`, dataset: { card } },
    h("div", { class: "arcs-card-face" }, cardFace(names, card)),
    buttons.length ? h("div", { class: "arcs-buttons" }, buttons) : null);
}

export function handSection(ctx) {
  const s = ctx.state;
  if (ctx.viewer === null || ctx.viewer === undefined || !Array.isArray(s.hand)) return null;
  const pass = legalOf(ctx, "pass")[0];
  const noSeize = legalOf(ctx, "seize").find((a) => !a.params.card);
  const hint = legalOf(ctx, "lead").length ? "Your lead: click a card to lead it, or pass."
    : legalOf(ctx, "play").length ? "Follow the lead: choose a card and how to play it."
      : noSeize ? "You may seize the initiative with a card of your hand." : "";
  return h("section", { class: "arcs-panel arcs-hand", "aria-labelledby": "arcs-hand-h" },
    h("h2", { id: "arcs-hand-h" }, `Your hand (${s.hand.length})`),
    hint ? h("p", { class: "arcs-hint", role: "status" }, hint) : null,
    s.hand.length ? h("ul", { class: "arcs-hand-row" }, s.hand.map((card) => handCard(ctx, card))) : h("p", { class: "muted" }, "No cards."),
    pass || noSeize ? h("div", { class: "arcs-buttons" },
      pass ? actButton(ctx, pass, "Pass", { cls: "secondary", title: "Pass the lead (the initiative moves on)" }) : null,
      noSeize ? actButton(ctx, noSeize, "Do not seize", { data: { card: "" }, cls: "secondary" }) : null) : null);
}
