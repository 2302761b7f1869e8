// The viewer's legal actions as controls. Every control sends one action of the API's own
// types: a listed legal action as it is, or (where the brief's "how many" choices need it: ships
// moved, dice collected) a listed action with only those counts changed, which the server's
// validator judges as it judges any answer. Nothing here decides what is legal.

import { h, humanize } from "/play/ui.js";
import { nameOf, plural, resourceName, shipsText, systemOf } from "./words.js";

/** Turn actions chosen on the map or on the Court, which one payment pays for. */
export const MAP_ACTS = ["tax", "build", "repair", "move", "battle"];
export const COURT_ACTS = ["influence", "secure"];
/** Action types the view's own parts offer; any other type gets a button in the decisions panel. */
export const HANDLED = ["act", "lead", "pass", "play", "seize", "declare", "assign_hits", "assign_building_hits"];

export const isSeated = (ctx) => ctx.viewer !== null && ctx.viewer !== undefined && ctx.table && ctx.table.status === "playing";
export const legalOf = (ctx, type) => (ctx.legal || []).filter((a) => a.type === type);
export const actsOf = (ctx, kind) => legalOf(ctx, "act").filter((a) => a.params && a.params.act === kind);

export function send(ctx, action) {
  return ctx.act({ type: action.type, params: action.params || {} });
}

/** A button that sends one action; `data` adds data-* hooks (data-action is the type). */
export function actButton(ctx, action, label, { data = {}, detail = "", cls = "", title = "" } = {}) {
  const p = action.params || {};
  return h("button", {
    type: "button", class: `arcs-act ${cls}`.trim(), disabled: ctx.busy || null, title: title || null,
    dataset: { action: action.type, ...(p.act ? { act: p.act } : {}), focus: `arcs:${action.type}:${JSON.stringify(p)}`, ...data },
    onclick: () => send(ctx, action),
  }, h("span", { class: "arcs-act-label" }, label), detail ? h("small", { class: "arcs-act-detail" }, detail) : null);
}

// -- paying for a turn action ------------------------------------------------------------
/** The ways the viewer may pay for a map or Court action now: -1 (a pip) and Prelude slots. */
export function payChoices(ctx) {
  const pays = new Set();
  for (const a of legalOf(ctx, "act")) {
    if ([...MAP_ACTS, ...COURT_ACTS].includes(a.params.act)) pays.add(a.params.pay);
  }
  return [...pays].sort((a, b) => a - b);
}

export function currentPay(ctx) {
  const choices = payChoices(ctx);
  const kept = ctx.memory.get("pay");
  if (choices.includes(kept)) return kept;
  return choices.includes(-1) ? -1 : choices[0];
}

export function payText(ctx, pay) {
  if (pay === -1 || pay === undefined) return "a pip of your card";
  const me = (ctx.state.players || [])[ctx.viewer] || {};
  const r = (me.resources || [])[pay];
  return `your ${resourceName(r)} (slot ${pay + 1}, Prelude)`;
}

/** The listed turn actions of one kind payable the chosen way, optionally in one system. */
export function paidActs(ctx, kind, system = null) {
  const pay = currentPay(ctx);
  return actsOf(ctx, kind).filter((a) => a.params.pay === pay && (system === null || a.params.system === system
    || (kind === "move" && a.params.origin === system)));
}

export function paySelect(ctx) {
  const choices = payChoices(ctx);
  if (choices.length < 2) return null;
  const pay = currentPay(ctx);
  return h("div", { class: "arcs-field" },
    h("label", { for: "arcs-pay" }, "Pay for the next action with"),
    h("select", {
      id: "arcs-pay", dataset: { focus: "arcs:pay", control: "pay" },
      onchange: (e) => { ctx.memory.set("pay", Number(e.target.value)); ctx.rerender(); },
    }, choices.map((p) => h("option", { value: String(p), selected: p === pay || null }, payText(ctx, p)))));
}

// -- words for each answer ---------------------------------------------------------------
/** A turn action in words ("Build a city in Fuel 1.2"), for buttons and the log. */
export function actText(act, names, state) {
  const at = (s) => nameOf(names, s, s);
  const here = act.system ? systemOf(state, act.system) : null;
  switch (act.act) {
    case "tax": {
      const b = here && here.buildings[act.building];
      return `Tax ${b ? `${names.seat(b.owner)}'s city` : "the city"} in ${at(act.system)}${act.resource ? ` for ${resourceName(act.resource)}` : ""}`;
    }
    case "build": return `Build a ${act.what} in ${at(act.system)}${act.cost_slot >= 0 ? " beyond its slots" : ""}`;
    case "repair": {
      if (act.piece === "ship") return `Repair a damaged ship in ${at(act.system)}`;
      const b = here && here.buildings[act.building];
      return `Repair your ${b ? b.kind : "building"} in ${at(act.system)}`;
    }
    case "move": {
      const path = act.path || [];
      const via = path.slice(0, -1).map(at);
      return `Move ${shipsText(act.fresh, act.damaged)} from ${at(act.origin)} to ${at(path[path.length - 1])}${via.length ? ` via ${via.join(", ")}` : ""}`;
    }
    case "battle": return `Battle ${names.seat(act.defender)} in ${at(act.system)} with ${diceText(act)}`;
    case "influence": return `Influence ${nameOf(names, act.card)}`;
    case "secure": return `Secure ${nameOf(names, act.card)}`;
    case "spend": return "Spend a resource";
    case "ability": {
      const said = names.params(act.params || {});
      return `Use ${nameOf(names, act.card)}${said ? `: ${said}` : ""}`;
    }
    case "done": return "End your turn";
    default: return humanize(act.act || "act");
  }
}

export function diceText(d) {
  const parts = ["assault", "skirmish", "raid"].filter((k) => d[k]).map((k) => `${d[k]} ${k}`);
  return parts.length ? `${parts.join(", ")} ${parts.length === 1 && (d.assault + d.skirmish + d.raid) === 1 ? "die" : "dice"}` : "no dice";
}

/** The words on any answer's button (the map, the Court and the hand word their own). */
export function answerText(action, ctx) {
  const names = ctx.names;
  const p = action.params || {};
  switch (action.type) {
    case "act": {
      const words = actText(p, names, ctx.state);
      return p.pay >= 0 && !["spend"].includes(p.act) ? `${words}, paying ${payText(ctx, p.pay)}` : p.act === "spend" ? `Spend ${payText(ctx, p.pay)}` : words;
    }
    case "place_resources": return `Slots: ${(p.slots || []).map((r) => (r ? resourceName(r) : "—")).join(", ")}`;
    case "mulligan": return p.redraw ? "Redraw your hand" : "Keep your hand";
    case "place_fleet": return `Place your fleet at ${nameOf(names, p.gate, p.gate)}`;
    case "give": return `Give ${nameOf(names, p.card)}`;
    case "look": return p.rival >= 0 ? `Look at ${names.seat(p.rival)}'s hand` : "Look at no hand";
    case "declare": return p.ambition ? `Declare ${humanize(p.ambition)}` : "Declare no ambition";
    case "pass": return "Pass";
    default: {
      const said = names.params(p);
      return `${humanize(action.type)}${said ? `: ${said}` : ""}`;
    }
  }
}

/** The text of the first card or system an answer names (a Leader to draft, a card to give), or "". */
export function answerDetail(action, names) {
  for (const v of Object.values(action.params || {})) {
    const entry = typeof v === "string" ? names.entry(v) : null;
    if (entry && entry.text) return entry.text;
  }
  return "";
}

/** Hit assignments of the battle as words: "Damage 2 fresh ships of Seat 2". */
export function hitText(action, ctx) {
  const p = action.params || {};
  const state = ctx.state;
  const pending = (state.hits_to_assign || []).find((x) => x.chooser === ctx.viewer) || {};
  const whose = Number.isInteger(pending.owner) ? ctx.names.seat(pending.owner) : "the defender";
  if (action.type === "assign_hits") {
    const parts = [];
    if (p.damage_fresh) parts.push(`damage ${plural(p.damage_fresh, "fresh ship")}`);
    if (p.destroy_fresh) parts.push(`destroy ${plural(p.destroy_fresh, "fresh ship")}`);
    if (p.destroy_damaged) parts.push(`destroy ${plural(p.destroy_damaged, "damaged ship")}`);
    return `${whose}: ${parts.join(", ") || "no ship harmed"}`;
  }
  const here = state.battle ? systemOf(state, state.battle.system) : null;
  const parts = Object.entries(p.hits || {}).map(([i, n]) => {
    const b = here && here.buildings[Number(i)];
    const what = b ? `${b.damaged ? "damaged " : ""}${b.kind} (slot ${Number(i) + 1})` : `building ${Number(i) + 1}`;
    const result = b && (b.damaged || n >= 2) ? "destroyed" : "damaged";
    return `${plural(n, "hit")} on the ${what}: ${result}`;
  });
  return `${whose}: ${parts.join("; ") || "no building harmed"}`;
}

/** The answers no part of the view offers itself: a button each. */
export function otherAnswers(ctx) {
  return (ctx.legal || []).filter((a) => !HANDLED.includes(a.type));
}
