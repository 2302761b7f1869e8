// Each councilor's Treasury and points this game, and the campaign's standings from the
// Diaries (what the campaign keeps between games). Wide tables scroll inside their own box.

import { h } from "/play/ui.js";
import { roles } from "./dilemma.js";
import { RESOURCES, characterOf, resourceName } from "./words.js";

const INFAMY_TIER = 5; // a penalty tier for every 5 Infamy (QD-271)

function hiddenCards(ctx, c, diary) {
  const names = ctx.names;
  if (c.seat === ctx.viewer) return "yours: see Your secret cards";
  const parts = [];
  if (typeof c.ideology_card === "string" && c.ideology_card) parts.push(`Ideology ${names.text(c.ideology_card)}`);
  else if (c.ideology_card) parts.push("an Ideology card");
  if (typeof c.investment === "string" && c.investment) parts.push(names.text(c.investment));
  else if (c.investment) parts.push("an Investment card");
  const agendas = diary ? (Array.isArray(diary.agendas) ? diary.agendas.length : diary.agendas) : 0;
  if (agendas) parts.push(`${agendas} Agenda${agendas === 1 ? "" : "s"}`);
  return parts.join(", ") || "none";
}

function table(caption, head, rows) {
  return h("div", { class: "scroll", role: "region", "aria-label": caption, tabindex: "0" },
    h("table", { class: "qd-table" }, h("caption", {}, caption),
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows)));
}

export function standingsSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const diaries = s.campaign.diaries;
  const game = table("This game: Treasury and points",
    ["Councilor", "Power", "Hegemony", "Independence", "Infamy", ...RESOURCES.map((r) => resourceName(r)), "Heraldry", "Hidden cards"],
    s.councilors.map((c) => h("tr", { class: c.seat === ctx.viewer ? "you" : null, dataset: { seat: String(c.seat) } },
      h("th", { scope: "row" }, names.seat(c.seat), h("small", { class: "qd-character" }, characterOf(s, c.seat, names)), roles(s, c.seat),
        c.absent ? h("span", { class: "badge" }, "absent") : null),
      h("td", { dataset: { stat: "power" } }, String(c.power)),
      h("td", { dataset: { stat: "hegemony" } }, String(c.hegemony)),
      h("td", { dataset: { stat: "independence" } }, String(c.independence)),
      h("td", { dataset: { stat: "infamy" } }, String(c.infamy)),
      RESOURCES.map((r) => h("td", { dataset: { stat: r } }, String(c.resources[r] ?? 0))),
      h("td", {}, String(c.heraldry)),
      h("td", { class: "wrap" }, hiddenCards(ctx, c, diaries[c.seat])))));
  const campaign = table("The campaign: Diaries",
    ["Councilor", "Hegemony", "Independence", "Infamy (tier)", "Regions", "Skills", "Keywords", "Fate"],
    diaries.map((d) => h("tr", { class: d.seat === ctx.viewer ? "you" : null, dataset: { seat: String(d.seat) } },
      h("th", { scope: "row" }, names.seat(d.seat), h("small", { class: "qd-character" }, names.text(d.character)),
        d.defected ? h("span", { class: "badge" }, "defected") : null),
      h("td", {}, String(d.hegemony)),
      h("td", {}, String(d.independence)),
      h("td", {}, `${d.infamy} (${Math.floor(d.infamy / INFAMY_TIER)})`),
      h("td", {}, [...d.regions.map((r) => names.text(r)), ...d.vassals.map((v) => `${names.text(v)} (Vassal)`)].join(", ") || "—"),
      h("td", {}, d.skills.map((k) => names.text(k.code) + (k.used ? ` (used ${k.used})` : "")).join(", ") || "—"),
      h("td", {}, d.keywords.map((k) => names.text(k)).join(", ") || "—"),
      h("td", {}, d.fate ? names.text(d.fate) : "—"))));
  const c = s.campaign;
  const facts = [
    `Game ${s.game_number} of the campaign (${c.games_played} played before)`,
    `Dilemma deck: ${typeof c.deck === "number" ? c.deck : c.deck.length} cards`,
    `Stories read: ${c.stories.length}`,
    `Endings attached: ${Object.keys(c.endings).length}`,
    c.finale_next || s.finale ? "the Grand Finale" : null,
  ].filter(Boolean);
  const final = (c.final || []).length
    ? h("ol", { class: "qd-final", "aria-label": "Grand Finale ranking" }, [...c.final].sort((a, b) => a.rank - b.rank)
      .map((r) => h("li", {}, `${names.seat(r.seat)}: ${r.total}`)))
    : null;
  return h("section", { class: "qd-panel qd-standings", "aria-labelledby": "qd-standings-h" },
    h("h2", { id: "qd-standings-h" }, "Standings"),
    game,
    h("p", { class: "qd-facts" }, facts.join(" · ")),
    campaign, final);
}
