// The Ideology board: three Sliders on tracks of 9 spaces (the centre and 4 toward each
// Ideology, ruling QD-R1; the centre and its neighbours are silver, QD-083), the Hegemony
// tokens beside each Ideology, and where the Dilemma's Aye (blue) and Nay (red) markers would
// push; then the Round Counter with the Dilemmas resolved this game.

import { h } from "/play/ui.js";
import { AXES, ideologyName, sideName } from "./words.js";

const HALF = 4;          // spaces on each side of the centre (ruling QD-R1)
const SILVER = 1;        // the centre and its two neighbours
const ROUND_SLOTS = 9;   // the Round Counter's slots; a sand timer ends the game on 7-9 (QD-214..220)
const SAND_SLOTS = [7, 8, 9];

/** Which way a side's markers push each Ideology: {ideology: [{side, n}]}. */
function markerPushes(markers) {
  const out = {};
  for (const [colour, side] of [["blue", "aye"], ["red", "nay"]]) {
    for (const p of (markers && markers[colour] && markers[colour].pushes) || []) {
      (out[p.ideology] ||= []).push({ side, n: p.n ?? 1 });
    }
  }
  return out;
}

function ideologyLabel(ideology, tokens, pushes, end) {
  return h("div", { class: `qd-ideology ${end}`, dataset: { ideology } },
    h("strong", {}, ideologyName(ideology)),
    h("span", { class: "qd-tokens", title: "Hegemony tokens beside this Ideology" }, ` ${tokens} ◆`),
    (pushes[ideology] || []).map((p) => h("span", { class: `qd-push side-${p.side}` }, ` ${sideName(p.side)} +${p.n}`)));
}

function axisRow(board, [first, second], pushes) {
  const pos = board.sliders[first] ?? 0;
  const toward = pos === 0 ? "at the centre" : `${Math.abs(pos)} toward ${ideologyName(pos < 0 ? first : second)}`;
  const cells = [];
  for (let i = -HALF; i <= HALF; i++) {
    cells.push(h("span", {
      class: `qd-space${Math.abs(i) <= SILVER ? " silver" : ""}${i === pos ? " slider" : ""}${i === 0 ? " centre" : ""}`,
      "aria-hidden": "true",
    }, i === pos ? "●" : ""));
  }
  return h("div", { class: "qd-axis", dataset: { axis: first, position: String(pos) } },
    h("div", { class: "qd-axis-labels" },
      ideologyLabel(first, board.tokens[first] ?? 0, pushes, "left"),
      ideologyLabel(second, board.tokens[second] ?? 0, pushes, "right")),
    h("div", { class: "qd-track", role: "img", "aria-label": `${ideologyName(first)}–${ideologyName(second)} Slider: ${toward}` }, cells));
}

export function boardSection(ctx) {
  const s = ctx.state;
  const pushes = markerPushes(s.markers);
  return h("section", { class: "qd-panel qd-board", "aria-labelledby": "qd-board-h" },
    h("h2", { id: "qd-board-h" }, "Ideology board"),
    h("div", { class: "qd-axes" }, AXES.map((axis) => axisRow(s.board, axis, pushes))),
    roundCounter(ctx));
}

function roundCounter(ctx) {
  const s = ctx.state;
  const slots = [];
  for (let i = 1; i <= ROUND_SLOTS; i++) {
    const filled = s.round_counter[i - 1];
    const sand = SAND_SLOTS.includes(i);
    slots.push(h("li", { class: `qd-slot${filled ? ` side-${filled[1]}` : ""}${sand ? " sand" : ""}`, dataset: { slot: String(i) } },
      h("span", { class: "qd-slot-n" }, `${i}`, sand ? h("small", { class: "muted" }, " · a sand timer here ends the game") : null),
      filled ? h("span", {}, `${ctx.names.text(filled[0])}: ${sideName(filled[1])}`) : h("span", { class: "muted" }, "empty")));
  }
  return h("div", { class: "qd-rounds" },
    h("h3", {}, `Round Counter · game ${s.game_number}, round ${s.round}`, s.end_triggered ? h("span", { class: "badge" }, "end triggered") : null),
    h("ol", { class: "qd-slots", "aria-label": "Dilemmas resolved this game" }, slots));
}
