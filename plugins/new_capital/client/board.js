// A seat's player board: the four attribute tracks, the nine seal slots (the Alert ones
// marked; a seal the viewer places now is a button on its slot), the two diplomacy tracks
// between their factions; and the table's Scenario card and Honorary Seal chart.

import { h } from "/play/ui.js";
import { actButton, optionsOf } from "./actions.js";
import { TRACKS, boardOf, plural, trackName } from "./words.js";

function trackRow(ctx, p, track, max) {
  const at = p.tracks[track] ?? 0;
  const cells = [];
  for (let i = 0; i <= max; i++) {
    cells.push(h("span", { class: `nc-space${i === at ? " here" : ""}${i === max ? " top" : ""}`, "aria-hidden": "true" }, i === at ? "●" : String(i)));
  }
  const entry = ctx.names.entry(track);
  return h("div", { class: "nc-track-row", dataset: { track, position: String(at) }, title: entry ? entry.text : "" },
    h("span", { class: "nc-track-name" }, trackName(track)),
    h("span", { class: "nc-track", role: "img", "aria-label": `${trackName(track)} at ${at} of ${max}` }, cells));
}

function sealSlots(ctx, p, alerts) {
  const mine = p.seat === ctx.viewer;
  return h("ol", { class: "nc-seals", "aria-label": `Seal slots of ${ctx.names.seat(p.seat)}` }, p.seal_slots.map((filled, i) => {
    const option = mine ? optionsOf(ctx, "seal_slot", { slot: i })[0] : null;
    return h("li", { class: `nc-seal${filled ? " filled" : ""}${alerts[i] ? " alert" : ""}`, dataset: { slot: String(i) } },
      h("span", { class: "nc-seal-mark", "aria-hidden": "true" }, filled ? "✦" : alerts[i] ? "!" : "·"),
      h("small", {}, `${i + 1}${alerts[i] ? " Alert" : ""}${filled ? ": sealed" : ""}`),
      option ? actButton(ctx, option, `Seal slot ${i + 1}`, { cls: "small" }) : null);
  }));
}

function diplomacyTracks(ctx, p, board) {
  const at = board.favored_at || 5;
  return [0, 1].map((track) => {
    const left = (board.factions || []).find((f) => f.track === track && f.end === -1);
    const right = (board.factions || []).find((f) => f.track === track && f.end === 1);
    const pos = p.diplomacy[track];
    const cells = [];
    for (let i = -at; i <= at; i++) {
      cells.push(h("span", { class: `nc-space${i === pos ? " here" : ""}${i === 0 ? " centre" : ""}${Math.abs(i) === at ? " favored" : ""}`, "aria-hidden": "true" }, i === pos ? "■" : ""));
    }
    const where = pos === 0 ? "at the centre" : `${Math.abs(pos)} toward ${(pos < 0 ? left : right)?.name || "a faction"}${Math.abs(pos) >= at ? " (Favored)" : ""}`;
    return h("div", { class: "nc-diplomacy", dataset: { track: String(track), position: String(pos) } },
      h("div", { class: "nc-diplomacy-ends" }, h("span", {}, left ? left.name : ""), h("span", {}, right ? right.name : "")),
      h("div", { class: "nc-dtrack", role: "img", "aria-label": `Diplomacy track ${track + 1}: ${where}` }, cells));
  });
}

/** One seat's board: tracks, seals, diplomacy. */
export function playerBoard(ctx, p) {
  const board = boardOf(ctx);
  const max = board.track_max || 5;
  return h("div", { class: "nc-player-board", dataset: { seat: String(p.seat) } },
    h("div", { class: "nc-tracks" }, TRACKS.map((t) => trackRow(ctx, p, t, max))),
    h("p", { class: "nc-facts" }, `${plural(p.seals, "Seal")} (${p.seals_reserve} left in reserve)`, p.honorary ? " · holds the Honorary Seal" : ""),
    sealSlots(ctx, p, board.seal_alerts || []),
    diplomacyTracks(ctx, p, board));
}

function honoraryChart(ctx) {
  const s = ctx.state;
  const scenario = ctx.names.entry(s.scenario) || {};
  return h("div", { class: "nc-honorary" },
    h("h3", {}, "Honorary Seal chart"),
    scenario.honorary ? h("p", { class: "muted" }, `Objective: ${scenario.honorary}.`) : null,
    s.honorary_chart.length
      ? h("ol", { "aria-label": "Honorary Seals placed" }, s.honorary_chart.map((e) => h("li", {},
        `${e.seats.map((x) => ctx.names.seat(x)).join(", ")} — round ${e.round}, ${e.phase}`)))
      : h("p", { class: "muted" }, "Nobody has placed the Honorary Seal yet."));
}

export function boardSection(ctx) {
  const s = ctx.state;
  const me = ctx.viewer === null || ctx.viewer === undefined ? null : s.players[ctx.viewer];
  const scenario = ctx.names.entry(s.scenario);
  return h("section", { class: "nc-panel nc-board", "aria-labelledby": "nc-board-h" },
    h("h2", { id: "nc-board-h" }, me ? "Your tracks, seals and diplomacy" : "The Scenario"),
    me ? playerBoard(ctx, me) : null,
    scenario ? h("div", { class: "nc-scenario", dataset: { scenario: s.scenario } },
      h("h3", {}, `Scenario: ${scenario.name}`), h("p", {}, scenario.text)) : null,
    honoraryChart(ctx));
}
