// The Dilemmas' part of the New Capital table (QNC-208/209, QNC-222..234): the Dilemma being
// voted on with both outcomes, each seat's side and committed tokens, the viewer's vote and
// reinforce buttons, every seat's vote tokens, the outcome still in force and past results.
// The face-down Dilemmas are only a count.

import { h } from "/play/ui.js";
import { actButton, optionLabel, optionsOf } from "/play/views/game/new-capital/actions.js";
import { plural } from "/play/views/game/new-capital/words.js";

const SIDE = { in_favor: "In Favor", against: "Against", abstain: "Abstained" };

function dilemmaCard(names, id, winner = null) {
  const e = names.entry(id) || { name: "a Dilemma", text: "" };
  return h("div", { class: "nc-dilemma-card", dataset: { dilemma: id } },
    h("h3", {}, e.name), e.text ? h("p", {}, e.text) : null,
    h("ul", { class: "nc-outcomes" },
      h("li", { class: `in-favor${winner === "in_favor" ? " won" : ""}` }, h("strong", {}, "In Favor: "), e.in_favor || ""),
      h("li", { class: `against${winner === "against" ? " won" : ""}` }, h("strong", {}, "Against: "), e.against || "")));
}

function voteTable(ctx, m) {
  const v = m.vote;
  const names = ctx.names;
  const rows = ctx.state.players.map((p) => {
    const key = String(p.seat);
    const side = v && v.sides[key] ? SIDE[v.sides[key]] : v && v.out.includes(p.seat) ? SIDE.abstain : "—";
    return h("tr", { class: p.seat === ctx.viewer ? "you" : null, dataset: { seat: key } },
      h("th", { scope: "row" }, names.seat(p.seat)),
      h("td", {}, side),
      h("td", {}, v && v.committed[key] ? String(v.committed[key]) : "0"),
      h("td", {}, String(m.tokens[key] ?? 0)));
  });
  return h("div", { class: "scroll", role: "region", "aria-label": "Dilemma votes", tabindex: "0" },
    h("table", { class: "nc-table" }, h("caption", {}, v ? "The vote so far" : "Vote tokens"),
      h("thead", {}, h("tr", {}, ["Seat", "Side", "Tokens committed", "Tokens held"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows)));
}

export function render(ctx) {
  const m = ctx.state && ctx.state.module_state ? ctx.state.module_state.dilemmas : null;
  if (!m) return null;
  const names = ctx.names;
  const current = m.zones.current[0];
  const last = m.results[m.results.length - 1];
  const buttons = [...optionsOf(ctx, "dilemma_vote"), ...optionsOf(ctx, "dilemma_reinforce")]
    .map((o) => actButton(ctx, o, optionLabel(ctx, o)[0], { cls: o.params.side === "abstain" || o.params.add === false ? "secondary" : "" }));
  const counts = m.vote ? Object.entries(m.vote.sides).reduce((acc, [k, side]) => { acc[side] += m.vote.committed[k]; return acc; }, { in_favor: 0, against: 0 }) : null;
  return h("section", { class: "nc-panel nc-dilemmas", "aria-labelledby": "nc-dil-h" },
    h("h2", { id: "nc-dil-h" }, "Dilemmas"),
    current ? dilemmaCard(names, current, m.vote ? null : last && last.card === current ? last.winner : null)
      : h("p", { class: "muted" }, "No Dilemma is face up."),
    m.vote && m.vote.queen ? h("p", {}, `The Queen's token: ${SIDE[m.vote.queen]}.`) : null,
    counts ? h("p", { class: "nc-facts", dataset: { favor: String(counts.in_favor), against: String(counts.against) } },
      `In Favor ${counts.in_favor} — Against ${counts.against} (a tie goes Against)`) : null,
    buttons.length ? h("div", { class: "nc-buttons", role: "group", "aria-label": "Your Dilemma vote" }, buttons) : null,
    voteTable(ctx, m),
    m.lasting ? h("p", {}, `In force until the next Dilemma: ${names.text(m.lasting.card)}, ${SIDE[m.lasting.side]}.`) : null,
    m.results.length ? h("ul", { class: "nc-facts-list", "aria-label": "Dilemma results" }, m.results.map((r) =>
      h("li", {}, `Round ${r.round}: ${names.text(r.card)} — ${SIDE[r.winner]} (${r.counts.in_favor} to ${r.counts.against})`))) : null,
    h("p", { class: "nc-facts" }, `${plural(m.zones.deck, "Dilemma")} face down to come`));
}
