// The viewer's own decisions as buttons: each sends exactly one of its legal actions (an entry
// of a prompt's options, which the API lists for the viewer's own prompts), except the
// bargaining payment, whose amount and reason are typed in and which the server judges.

import { h, humanize } from "/play/ui.js";
import { amount, passName, resourceName, sideName } from "./words.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The viewer's open prompts that list answers, in the order the server gives them. */
export function myPrompts(ctx) {
  const t = ctx.table;
  if (!t || ctx.viewer === null || ctx.viewer === undefined || t.status !== "playing") return [];
  return (t.prompts || []).filter((p) => p.seat === ctx.viewer && p.options && p.options.length);
}

export const promptOf = (ctx, kind) => myPrompts(ctx).find((p) => p.kind === kind) || null;

/** The legal action of `type` whose params include `params`, or null. */
export function findOption(options, type, params = {}) {
  return (options || []).find((o) => o.type === type
    && Object.entries(params).every(([k, v]) => same(o.params ? o.params[k] : undefined, v))) || null;
}

/** A button that sends one action; `data` becomes data-* hooks (data-action is the type). */
export function actButton(ctx, option, label, { data = {}, detail = "", cls = "" } = {}) {
  const focus = `qd:${option.type}:${JSON.stringify(option.params || {})}`;
  return h("button", {
    type: "button", class: `qd-act ${cls}`.trim(), disabled: ctx.busy || null,
    dataset: { action: option.type, focus, ...data },
    onclick: () => ctx.act({ type: option.type, params: option.params || {} }),
  }, h("span", { class: "qd-act-label" }, label), detail ? h("small", { class: "qd-act-detail" }, detail) : null);
}

/** The words on a decision's button, and a second line (a card's text) where it helps. */
export function optionLabel(option, names) {
  const p = option.params || {};
  const text = (id) => (names.entry(id) && names.entry(id).text) || "";
  switch (option.type) {
    case "region": return [`Take ${names.text(p.region)} as ${p.main ? "a Main" : "a Vassal"} Region`, text(p.region)];
    case "build": return [`Build in ${names.text(p.region)}`, ""];
    case "produce": return [`Take ${amount(p.n, p.resource)}`, ""];
    case "invest_pick": return [`Keep ${names.text(p.card)}`, text(p.card)];
    case "keep_ideology": return [`Keep ${names.text(p.card)}`, text(p.card)];
    case "decide": return [`${sideName(p.side)} wins`, "as Moderator"];
    case "leader": return [`Make ${names.seat(p.seat)} the Leader`, ""];
    case "bonus": return [`Pass Bonus: ${names.text(p.source)}`, text(p.source)];
    case "no_bonus": return ["No Pass Bonus", ""];
    case "cover": return [`Cover ${names.text(p.skill)}`, text(p.skill)];
    case "crossroad": return [`Choice ${Number(p.option) + 1} of ${names.text(p.code)}`, ""];
    case "invest": return [p.pay ? "Pay for your Investment (success)" : "Do not pay (failure)", ""];
    case "complete": return [`Complete ${names.text(p.agenda)}`, text(p.agenda)];
    case "agendas_done": return ["Complete no more Agendas", ""];
    case "pay": return [forcedPaymentText(p), ""];
    default: {
      const said = names.params(p);
      return [`${humanize(option.type)}${said ? `: ${said}` : ""}`, ""];
    }
  }
}

function forcedPaymentText(p) {
  const parts = [];
  if (p.resource) parts.push(`${p.resource} in kind`);
  if (p.gold) parts.push(`${p.gold} Gold`);
  if (p.infamy) parts.push(`${p.infamy} Infamy`);
  return `Pay ${parts.join(" + ") || "nothing"}`;
}

/** The voting turn: place Power on a side, raise or stay, or take a Pass Action. */
export function voteControls(ctx) {
  const prompt = promptOf(ctx, "vote");
  if (!prompt) return null;
  const options = prompt.options;
  const votes = options.filter((o) => o.type === "vote");
  const raises = options.filter((o) => o.type === "raise");
  const powers = [...new Set((votes.length ? votes : raises).map((o) => o.params.power))].sort((a, b) => a - b);
  const kept = Number(ctx.memory.get("vote.power"));
  const power = powers.includes(kept) ? kept : powers[0];
  const parts = [];
  if (powers.length) {
    parts.push(h("div", { class: "qd-field" },
      h("label", { for: "qd-vote-power" }, votes.length ? "Power to place" : "Power to add"),
      h("select", {
        id: "qd-vote-power", dataset: { focus: "qd:vote-power", control: "power" },
        onchange: (e) => { ctx.memory.set("vote.power", Number(e.target.value)); ctx.rerender(); },
      }, powers.map((n) => h("option", { value: String(n), selected: n === power || null }, `${n} Power`)))));
  }
  const buttons = [];
  for (const side of ["aye", "nay"]) {
    const option = findOption(votes, "vote", { side, power });
    if (option) buttons.push(actButton(ctx, option, `Vote ${sideName(side)} with ${power} Power`, { data: { side }, cls: `side-${side}` }));
  }
  const raise = findOption(raises, "raise", { power });
  if (raise) buttons.push(actButton(ctx, raise, `Raise by ${power} Power`));
  const stay = findOption(options, "stay");
  if (stay) buttons.push(actButton(ctx, stay, "Stay"));
  for (const option of options.filter((o) => o.type === "pass")) {
    const { action, source } = option.params;
    const detail = source ? ((ctx.names.entry(source) || {}).text || "") : "";
    buttons.push(actButton(ctx, option, `Pass: ${passName(action, source, ctx.names)}`,
      { data: { pass: action, ...(source ? { source } : {}) }, detail, cls: "secondary" }));
  }
  parts.push(h("div", { class: "qd-buttons" }, buttons));
  return h("div", { class: "qd-vote-controls", role: "group", "aria-label": "Your voting turn" },
    h("p", { class: "qd-your-turn" }, "Your turn to vote."), parts);
}

/**
 * A bargaining payment (QD-R5): any amount of one Resource held, to another councilor, with
 * the deal's words. Built from the viewer's Treasury the way the decision's validator reads it.
 */
export function paymentForm(ctx) {
  const prompt = promptOf(ctx, "payment");
  if (!prompt) return null;
  const state = ctx.state;
  const me = state.councilors[ctx.viewer];
  const recipients = [...new Set(prompt.options.map((o) => o.params.to))];
  const held = Object.entries(me.resources).filter(([, n]) => n > 0).map(([r]) => r);
  if (!recipients.length || !held.length) return null;
  const m = ctx.memory;
  const to = recipients.includes(m.get("pay.to")) ? m.get("pay.to") : recipients[0];
  const resource = held.includes(m.get("pay.resource")) ? m.get("pay.resource") : held[0];
  const most = me.resources[resource];
  const n = Math.min(Math.max(1, Number(m.get("pay.n")) || 1), most);
  const set = (key, value) => { m.set(key, value); ctx.rerender(); };
  const field = (id, label, control) => h("div", { class: "qd-field" }, h("label", { for: id }, label), control);
  const reason = h("input", {
    id: "qd-pay-reason", type: "text", maxlength: "200", autocomplete: "off", value: m.get("pay.reason") || "",
    placeholder: "e.g. for your Aye vote", dataset: { focus: "qd:pay-reason", control: "reason" },
    oninput: (e) => m.set("pay.reason", e.target.value),
  });
  return h("form", {
    class: "qd-payment", "aria-label": "Give Resources to another councilor",
    onsubmit: (event) => {
      event.preventDefault();
      const words = m.get("pay.reason") || "";
      ctx.act({ type: "pay", params: { to, resource, n, reason: words } }).then((ok) => { if (ok) { m.delete("pay.reason"); ctx.rerender(); } });
    },
  },
  h("h4", {}, "Bargain: give Resources"),
  h("div", { class: "qd-fields" },
    field("qd-pay-to", "To", h("select", { id: "qd-pay-to", dataset: { focus: "qd:pay-to", control: "to" }, onchange: (e) => set("pay.to", Number(e.target.value)) },
      recipients.map((s) => h("option", { value: String(s), selected: s === to || null }, ctx.names.seat(s))))),
    field("qd-pay-resource", "Resource", h("select", { id: "qd-pay-resource", dataset: { focus: "qd:pay-resource", control: "resource" }, onchange: (e) => set("pay.resource", e.target.value) },
      held.map((r) => h("option", { value: r, selected: r === resource || null }, `${resourceName(r)} (you hold ${me.resources[r]})`)))),
    field("qd-pay-n", "Amount", h("select", { id: "qd-pay-n", dataset: { focus: "qd:pay-n", control: "n" }, onchange: (e) => set("pay.n", Number(e.target.value)) },
      Array.from({ length: most }, (_, i) => i + 1).map((k) => h("option", { value: String(k), selected: k === n || null }, String(k))))),
    field("qd-pay-reason", "The deal (your words)", reason)),
  h("button", { type: "submit", class: "qd-act", disabled: ctx.busy || null, dataset: { action: "pay", focus: "qd:pay-submit" } },
    `Give ${amount(n, resource)} to ${ctx.names.seat(to)}`));
}

/** Every other decision of the viewer's (the map offers Region and Building choices itself). */
export function decisionsPanel(ctx, { onMap = ["region", "build"] } = {}) {
  const prompts = myPrompts(ctx).filter((p) => !["vote", "payment"].includes(p.kind));
  if (!prompts.length) return null;
  return prompts.map((p) => {
    const mapped = onMap.includes(p.kind);
    return h("section", { class: "qd-decision", dataset: { prompt: p.kind } },
      h("h4", {}, p.text || humanize(p.kind)),
      mapped
        ? h("p", { class: "muted" }, "Choose on the map of Ankist below (each Region you may choose has a button).")
        : h("div", { class: "qd-buttons" }, p.options.map((o) => {
          const [label, detail] = optionLabel(o, ctx.names);
          return actButton(ctx, o, label, { detail, data: optionData(o) });
        })));
  });
}

/** Stable hooks for a decision's button: the meaningful params as data-* attributes. */
export function optionData(option) {
  const out = {};
  for (const [k, v] of Object.entries(option.params || {})) {
    if (["string", "number", "boolean"].includes(typeof v)) out[k === "action" ? "pass" : k] = String(v);
  }
  return out;
}
