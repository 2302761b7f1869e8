// The map of Ankist as a grid of its Regions (the glossary names every Region, owned or not):
// each with its base Building, its owner (Main or Vassal Region: a Vassal's base Building is
// covered and produces nothing, QD-059), the Buildings standing in it, and the viewer's
// choices that concern it (take it as a Region, build in it) as buttons.

import { h } from "/play/ui.js";
import { actButton, myPrompts, optionLabel } from "./actions.js";

/** Region name -> {seat, main} from the campaign's Diaries. */
function owners(state) {
  const out = {};
  for (const d of (state.campaign && state.campaign.diaries) || []) {
    for (const r of d.regions || []) out[r] = { seat: d.seat, main: true };
    for (const r of d.vassals || []) out[r] = { seat: d.seat, main: false };
  }
  return out;
}

function buildingsIn(state) {
  const out = {};
  for (const d of (state.campaign && state.campaign.diaries) || []) {
    for (const [code, region] of Object.entries(d.buildings || {})) (out[region] ||= []).push({ code, seat: d.seat });
  }
  return out;
}

export function regionIds(names) {
  return Object.entries(names.glossary).filter(([, e]) => e && e.kind === "region").map(([id]) => id)
    .sort((a, b) => names.text(a).localeCompare(names.text(b)));
}

export function mapSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const owned = owners(s);
  const built = buildingsIn(s);
  const choices = myPrompts(ctx).filter((p) => p.kind === "region" || p.kind === "build").flatMap((p) => p.options);
  const tiles = regionIds(names).map((id) => {
    const entry = names.entry(id);
    const owner = owned[id];
    const mine = owner && owner.seat === ctx.viewer;
    const here = choices.filter((o) => o.params && o.params.region === id);
    return h("li", {
      class: `qd-region${owner ? ` owner-${owner.seat}` : " free"}${mine ? " mine" : ""}${here.length ? " choosable" : ""}`,
      dataset: { region: id, owner: owner ? String(owner.seat) : "" },
    },
    h("h3", {}, entry.name),
    h("p", { class: "qd-region-text" }, owner && !owner.main ? `${entry.text} — covered (Vassal)` : entry.text),
    h("p", { class: "qd-owner" }, owner
      ? [h("span", { class: `qd-seat-dot owner-${owner.seat}`, "aria-hidden": "true" }), `${names.seat(owner.seat)} · ${owner.main ? "Main" : "Vassal"} Region`]
      : h("span", { class: "muted" }, "not yet chosen")),
    (built[id] || []).length
      ? h("ul", { class: "qd-buildings", "aria-label": `Buildings in ${entry.name}` }, built[id].map((b) => h("li", { title: (names.entry(b.code) || {}).text || "" },
        names.text(b.code))))
      : null,
    here.map((o) => actButton(ctx, o, optionLabel(o, names)[0], { data: o.type === "region" ? { region: id, main: String(o.params.main) } : { region: id } })));
  });
  return h("section", { class: "qd-panel qd-map", "aria-labelledby": "qd-map-h" },
    h("h2", { id: "qd-map-h" }, "The map of Ankist"),
    h("ul", { class: "qd-regions" }, tiles));
}
