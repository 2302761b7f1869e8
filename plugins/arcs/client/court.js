// The Court row (each card with its text and the agents on it, by seat) and the ambitions (the
// markers in each box, the Available markers, a 2-player game's tokens). Influence and Secure
// are the Court cards' own buttons; declaring is the ambitions' buttons.

import { h, humanize } from "/play/ui.js";
import { actButton, legalOf, paidActs } from "./controls.js";
import { AMBITIONS, nameOf, resourceName, textOf } from "./words.js";

/** An ambition marker's Power for first/second place, face up or flipped (the view's
 * `marker_values`, printed on the markers: ARCS-233). */
function markerText(values, id, flipped) {
  const v = (values || {})[id];
  if (!v) return id;
  return flipped ? `${v[2]}/${v[3]}` : `${v[0]}/${v[1]}`;
}

function agentsRow(agents, names) {
  const on = (agents || []).map((n, seat) => [seat, n]).filter(([, n]) => n > 0);
  if (!on.length) return h("p", { class: "muted arcs-agents" }, "No agents");
  return h("ul", { class: "arcs-agents", "aria-label": "Agents on this card" }, on.map(([seat, n]) =>
    h("li", { class: `seat-${seat}`, dataset: { seat: String(seat), agents: String(n) } },
      h("span", { class: `arcs-dot seat-${seat}`, "aria-hidden": "true" }), `${names.seat(seat)}: ${n}`)));
}

function courtCard(ctx, card) {
  const names = ctx.names;
  const influence = paidActs(ctx, "influence").filter((a) => a.params.card === card);
  const secure = paidActs(ctx, "secure").filter((a) => a.params.card === card);
  const buttons = [
    ...influence.map((a) => actButton(ctx, a, "Influence", { data: { card }, title: `Place an agent on ${nameOf(names, card)}` })),
    ...secure.map((a) => actButton(ctx, a, "Secure", { data: { card }, cls: "danger", title: `Take ${nameOf(names, card)}` })),
  ];
  return h("li", { class: `arcs-court-card${buttons.length ? " can-act" : ""}`, dataset: { card } },
    h("h3", {}, nameOf(names, card)),
    h("p", { class: "arcs-card-text" }, textOf(names, card)),
    agentsRow((ctx.state.court_agents || {})[card], names),
    buttons.length ? h("div", { class: "arcs-buttons" }, buttons) : null);
}

export function courtSection(ctx) {
  const s = ctx.state;
  const row = (s.court_row || []).filter(Boolean);
  const discard = s.court_discard || [];
  return h("section", { class: "arcs-panel arcs-court", "aria-labelledby": "arcs-court-h" },
    h("h2", { id: "arcs-court-h" }, "The Court"),
    h("ul", { class: "arcs-court-row" }, row.map((card) => courtCard(ctx, card))),
    h("p", { class: "muted" }, `Court deck: ${s.court_deck_count ?? 0} cards. Discard: `,
      discard.length ? discard.map((c, i) => [i ? ", " : "", nameOf(ctx.names, c)]) : "none", "."),
    (s.resolving || []).length ? h("p", {}, "Resolving: ", s.resolving.map((c) => nameOf(ctx.names, c)).join(", ")) : null);
}

export function ambitionsSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const declares = legalOf(ctx, "declare");
  const boxes = s.ambition_boxes || {};
  const tokens = s.ambition_tokens || {};
  const items = AMBITIONS.map((a) => {
    const markers = boxes[a] || [];
    const option = declares.find((d) => d.params.ambition === a);
    return h("li", { class: `arcs-ambition${s.ambition_declared === a ? " declared" : ""}`, dataset: { ambition: a } },
      h("h3", {}, nameOf(names, a, humanize(a))),
      h("p", { class: "arcs-card-text" }, textOf(names, a)),
      h("p", { class: "arcs-markers" }, markers.length
        ? markers.map((m) => h("span", { class: `arcs-marker${m[1] ? " flipped" : ""}`, title: `Marker ${m[0]}: first ${markerText(s.marker_values, m[0], m[1])}` }, markerText(s.marker_values, m[0], m[1])))
        : h("span", { class: "muted" }, "no marker")),
      (tokens[a] || []).length ? h("p", { class: "muted" }, `Tokens: ${tokens[a].map(resourceName).join(", ")}`) : null,
      option ? actButton(ctx, option, `Declare ${humanize(a)}`, { data: { ambition: a } }) : null);
  });
  const none = declares.find((d) => !d.params.ambition);
  const available = (s.markers_available || []).map((m) => markerText(s.marker_values, m[0], m[1]));
  return h("section", { class: "arcs-panel arcs-ambitions", "aria-labelledby": "arcs-amb-h" },
    h("h2", { id: "arcs-amb-h" }, "Ambitions"),
    h("p", {}, `Available markers: ${available.join(", ") || "none"}`,
      s.ambition_declared ? ` · Declared this round: ${humanize(s.ambition_declared)}${s.declared ? " (zero marker on the lead card)" : ""}` : ""),
    h("ul", { class: "arcs-ambition-row" }, items),
    none ? h("div", { class: "arcs-buttons" }, actButton(ctx, none, "Declare no ambition", { data: { ambition: "" }, cls: "secondary" })) : null);
}
