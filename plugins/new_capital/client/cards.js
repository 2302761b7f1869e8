// A card as the table shows it: its glossary name and effect text (never its id as words),
// a colour by kind, and the controls that concern it below.

import { h, humanize } from "/play/ui.js";

const KIND_CLASS = { actions: "action", structures: "structure", leaders: "leader", crises: "crisis", hunger: "hunger" };

/** The class a card's kind and colour give it (improvement green, warfare red, political blue). */
function cardClass(entry) {
  const kind = KIND_CLASS[entry.kind] || entry.kind || "card";
  const colour = entry.card_kind || entry.type || "";
  return `nc-card ${kind}${colour ? ` ${kind}-${colour}` : ""}${entry.hero ? " hero" : ""}`;
}

/** What a card says under its name: a structure's tier and type, an action card's numbers. */
function tagline(entry) {
  if (entry.kind === "structures") return ""; // its text says tier, type, faction and attributes
  if (entry.kind === "actions") {
    const parts = [humanize(entry.card_kind || "")];
    if (entry.power) parts.push(`${entry.power} power`);
    if (entry.control) parts.push(`${entry.control} control`);
    return parts.join(" · ");
  }
  if (entry.kind === "leaders") return `${humanize(entry.type)} leader${entry.hero ? " · Hero" : ""}`;
  if (entry.kind === "hunger") return "Hunger";
  return "";
}

export function cardNode(names, id, { extra = null, controls = [], compact = false, tag = "li" } = {}) {
  const entry = names.entry(id) || { name: "a card", text: "", kind: "" };
  const line = tagline(entry);
  return h(tag, { class: `${cardClass(entry)}${compact ? " compact" : ""}`, dataset: { card: id } },
    h("strong", { class: "nc-card-name" }, entry.name),
    line ? h("small", { class: "nc-card-tag" }, line) : null,
    !compact && entry.text ? h("span", { class: "nc-card-text" }, entry.text) : null,
    extra ? h("small", { class: "nc-card-extra" }, extra) : null,
    controls.length ? h("div", { class: "nc-card-controls" }, controls) : null);
}

/** A face-down card (another seat's, or a deck): a back with what may be said of it. */
export function cardBack(label, tag = "li") {
  return h(tag, { class: "nc-card back", "aria-label": label }, h("span", { class: "nc-card-name" }, label));
}
