// The active Crisis: its two challenges (what each needs at this player count, the penalty,
// the reward), every seat's cards face down for it (their values once revealed) and the
// reserve bids so far, and the Crisis deck. The viewer's Bribe choice sits here.

import { h } from "/play/ui.js";
import { actButton, optionLabel, optionsOf } from "./actions.js";
import { CRISES, crisisName, crisisUnit, dieNode, plural } from "./words.js";

function needText(challenge, players) {
  if (challenge.mode === "individual") return `each player needs ${challenge.value}`;
  const n = String(Math.max(2, players));
  return `all players together need ${challenge.values[n]}`;
}

function challengeCard(ctx, entry, kind) {
  const ch = entry[kind];
  if (!ch) return null;
  const unit = crisisUnit(kind);
  const players = ctx.state.players.length;
  return h("div", { class: `nc-challenge ${kind}`, dataset: { challenge: kind } },
    h("h4", {}, `${crisisName(kind)} (${ch.mode === "group" ? "group" : "individual"})`),
    h("p", {}, `${needText(ch, players)} ${unit}`, players === 1 && ch.mode === "group" ? "; the die plays a phantom player" : ""),
    h("p", { class: "muted" }, `Failing it: a ${ch.penalty === "hunger" ? "Hunger card" : "Rebellion token"}. The best: ${ch.reward}.`));
}

function cardValue(names, id) {
  const e = names.entry(id) || {};
  const parts = [];
  if (e.power) parts.push(`${e.power} power`);
  if (e.control) parts.push(`${e.control} control`);
  if (e.bribe) parts.push("Bribe");
  return `${names.text(id)}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}

/** Each seat's face-down cards and bids: names once revealed, else counts. */
function bidsTable(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const rows = s.players.map((p) => {
    const down = Array.isArray(p.face_down)
      ? (p.face_down.length ? p.face_down.map((id) => cardValue(names, id)).join(", ") : "none")
      : `${plural(p.face_down, "card")} face down`;
    return h("tr", { class: p.seat === ctx.viewer ? "you" : null, dataset: { seat: String(p.seat) } },
      h("th", { scope: "row" }, names.seat(p.seat)),
      h("td", { class: "wrap" }, down),
      h("td", { dataset: { bid: "power" } }, String(p.bid_power)),
      h("td", { dataset: { bid: "control" } }, String(p.bid_control)),
      h("td", {}, p.bribes.length ? p.bribes.map(crisisName).join(", ") : "—"));
  });
  return h("div", { class: "scroll", role: "region", "aria-label": "Cards and bids for the Crisis", tabindex: "0" },
    h("table", { class: "nc-table" }, h("caption", {}, s.revealed ? "Revealed cards and reserve bids" : "Cards face down and reserve bids so far"),
      h("thead", {}, h("tr", {}, ["Seat", "Crisis cards", "Power bid", "Control bid", "Bribe protects"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows)));
}

export function crisisSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const entry = s.crisis ? names.entry(s.crisis) : null;
  const bribes = optionsOf(ctx, "bribe").map((o) => actButton(ctx, o, optionLabel(ctx, o)[0]));
  return h("section", { class: "nc-panel nc-crisis", "aria-labelledby": "nc-crisis-h" },
    h("h2", { id: "nc-crisis-h" }, entry ? `The Crisis: ${entry.name}` : "The Crisis"),
    entry ? h("div", { class: "nc-crisis-card", dataset: { crisis: s.crisis, level: String(entry.level) } },
      h("p", { class: "nc-facts" }, `Level ${entry.level} · ${plural(s.crisis_deck, "Crisis card")} left in the deck · ${s.crises_done.length} ${s.crises_done.length === 1 ? "crisis" : "crises"} faced`),
      h("div", { class: "nc-challenges" }, CRISES.map((k) => challengeCard(ctx, entry, k)))) : h("p", { class: "muted" }, "No Crisis is showing."),
    bidsTable(ctx),
    bribes.length ? h("div", { class: "nc-buttons", role: "group", "aria-label": "Your Bribe" }, bribes) : null);
}

/** The phase die: in a multiplayer game it counts the first player's turns this round; in
 * a solo game it is the phantom player's roll in the group challenges. */
export function dieSection(ctx) {
  const s = ctx.state;
  const solo = s.players.length === 1;
  return h("div", { class: "nc-die-box", dataset: { die: String(s.die) } },
    dieNode(s.die, solo ? "the phantom die" : "the phase die"),
    h("span", {}, solo ? "Phantom die (solo): added to group challenges" : `Phase die: the first player's turn ${s.die} of this round`));
}
