// What else lies on the table: the Chronicles in play (their Herald, whose Heraldry token
// holds the action this Voting Phase), the active Events, and the Story so far (Stories read,
// Endings attached), all by glossary name with their text.

import { h } from "/play/ui.js";

function named(names, id, extra = "") {
  const entry = names.entry(id) || { name: id, text: "" };
  return h("li", { dataset: { card: id } }, h("strong", {}, entry.name), extra ? ` ${extra}` : "",
    entry.text ? h("span", { class: "qd-card-text" }, entry.text) : null);
}

export function chroniclesSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const parts = [];
  if (s.chronicles.length) {
    parts.push(h("h3", {}, "Chronicles in play"), h("ul", { class: "qd-cards" }, s.chronicles.map((ch) => named(names, ch.code, [
      ch.instant ? "(Instant)" : "",
      ch.herald !== null && ch.herald !== undefined ? `· Herald ${names.seat(ch.herald)}` : "",
      ch.slot_taken_by !== null && ch.slot_taken_by !== undefined ? `· action taken by ${names.seat(ch.slot_taken_by)}` : "",
      ch.tokens ? `· ${ch.tokens} token(s)` : "",
    ].filter(Boolean).join(" ")))));
  }
  if (s.events_active.length) {
    parts.push(h("h3", {}, "Events"), h("ul", { class: "qd-cards" }, s.events_active.map((id) => named(names, id,
      s.event_slots[id] !== undefined ? `· action taken by ${names.seat(s.event_slots[id])}` : ""))));
  }
  const c = s.campaign;
  if (c.stories.length) parts.push(h("h3", {}, "The Story so far"), h("ul", { class: "qd-cards" }, c.stories.map((id) => named(names, id))));
  const endings = Object.entries(c.endings);
  if (endings.length) parts.push(h("h3", {}, "Endings"), h("ul", { class: "qd-cards" }, endings.map(([line, id]) => named(names, id, `(Storyline ${line})`))));
  if (!parts.length) return null;
  return h("section", { class: "qd-panel qd-chronicles", "aria-labelledby": "qd-chronicles-h" },
    h("h2", { id: "qd-chronicles-h" }, "Chronicles and the Story"), parts);
}
