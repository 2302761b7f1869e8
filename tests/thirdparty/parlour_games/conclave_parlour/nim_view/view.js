// Nim's table view (a third-party game's own client view): each heap as a row of stones;
// clicking a stone takes it and every stone to its right in that heap.
import { h } from "/play/ui.js";

export const styles = "./view.css";

export function render(ctx) {
  const { state, names, legal } = ctx;
  const mine = new Map(legal.filter((a) => a.type === "take").map((a) => [`${a.params.heap}/${a.params.count}`, a]));
  const heaps = state.heaps.map((size, heap) => h("li", { class: "nim-heap", dataset: { heap } },
    h("span", { class: "nim-label" }, `Heap ${heap + 1}: ${size} left`),
    h("span", { class: "nim-stones" }, Array.from({ length: size }, (_, i) => {
      const count = size - i;
      const action = mine.get(`${heap}/${count}`);
      return h("button", {
        type: "button", class: "nim-stone", disabled: !action || ctx.busy,
        "aria-label": `Take ${count} from heap ${heap + 1}`, dataset: { heap, count, focus: `stone/${heap}/${i}` },
        onclick: () => action && ctx.act(action),
      }, "●");
    }))));
  return [
    h("h2", {}, "Nim"),
    h("p", { class: "nim-turn" }, state.finished ? "Game over." : `${names.seat(state.turn)} to take.`),
    h("ol", { class: "nim-heaps" }, heaps),
  ];
}

export function describe(entry, ctx) {
  const took = (entry.events || []).find((e) => e && e.type === "took");
  if (!took) return null;
  const { seat, heap, count, left } = took.data;
  return `${ctx.names.seat(seat)} took ${count} from heap ${heap + 1} (${left} left).`;
}
