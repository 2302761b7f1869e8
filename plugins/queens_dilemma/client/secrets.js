// The viewer's secret cards: its Ideology card (and the two drawn while it chooses), its
// Investment card and its Agenda cards. Only what the server left in this viewer's view is
// here: another seat's cards are counts or flags there, shown as such in the standings.

import { h } from "/play/ui.js";

function card(names, id, kind, extra = null) {
  const entry = names.entry(id) || { name: id, text: "" };
  return h("li", { class: `qd-card ${kind}`, dataset: { card: id, kind } },
    h("strong", { class: "qd-card-name" }, entry.name),
    entry.text ? h("span", { class: "qd-card-text" }, entry.text) : null,
    extra ? h("small", { class: "muted" }, extra) : null);
}

export function secretsSection(ctx) {
  if (ctx.viewer === null || ctx.viewer === undefined) return null;
  const s = ctx.state;
  const names = ctx.names;
  const me = s.councilors[ctx.viewer];
  const diary = s.campaign.diaries[ctx.viewer];
  const items = [];
  if (me && typeof me.ideology_card === "string" && me.ideology_card) items.push(card(names, me.ideology_card, "ideology", "your Ideology card"));
  for (const id of (me && Array.isArray(me.drawn_ideology) ? me.drawn_ideology : [])) items.push(card(names, id, "ideology", "drawn: keep one"));
  if (me && typeof me.investment === "string" && me.investment) items.push(card(names, me.investment, "investment", "your Investment card"));
  for (const a of (diary && Array.isArray(diary.agendas) ? diary.agendas : [])) {
    items.push(card(names, a.code, "agenda", a.deadline === null || a.deadline === undefined ? "Agenda, ongoing" : `Agenda, until game ${a.deadline}`));
  }
  return h("section", { class: "qd-panel qd-secrets", "aria-labelledby": "qd-secrets-h" },
    h("h2", { id: "qd-secrets-h" }, "Your secret cards"),
    h("p", { class: "muted" }, "Only you see these."),
    items.length ? h("ul", { class: "qd-cards" }, items) : h("p", { class: "muted" }, "You hold no secret cards yet."));
}
