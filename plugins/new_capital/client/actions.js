// The viewer's decisions as controls. Each control sends exactly one of the viewer's legal
// actions ({type, params} as the API lists them); many sit on the cards they concern (a hand
// card's Play, a pool card's Build), the rest are here, in "Your decision", each with words.
// Every control carries data-action (the type) and data-params (the params as JSON).

import { h, humanize } from "/play/ui.js";
import {
  boardActionName, boardOf, columnName, crisisName, effectsText, matchName, rowName, slotName, trackName, towardText,
} from "./words.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The viewer's open prompts that list answers, in the server's order. */
export function myPrompts(ctx) {
  const t = ctx.table;
  if (!t || ctx.viewer === null || ctx.viewer === undefined || t.status !== "playing") return [];
  return (t.prompts || []).filter((p) => p.seat === ctx.viewer && p.options && p.options.length);
}

/** Every legal action of the viewer's (its prompts' options, in order). */
export const myOptions = (ctx) => myPrompts(ctx).flatMap((p) => p.options);

/** The legal actions of `type` whose params include `params`. */
export function optionsOf(ctx, type, params = {}) {
  return myOptions(ctx).filter((o) => o.type === type
    && Object.entries(params).every(([k, v]) => same(o.params ? o.params[k] : undefined, v)));
}

/** A button sending one action. */
export function actButton(ctx, option, label, { detail = "", cls = "" } = {}) {
  const params = option.params || {};
  return h("button", {
    type: "button", class: `nc-act ${cls}`.trim(), disabled: ctx.busy || null,
    dataset: { action: option.type, params: JSON.stringify(params), focus: `nc:${option.type}:${JSON.stringify(params)}` },
    onclick: () => ctx.act({ type: option.type, params }),
  }, h("span", { class: "nc-act-label" }, label), detail ? h("small", { class: "nc-act-detail" }, detail) : null);
}

/** "column 2 (Harbour of Vell)": a column of the viewer's province by its top structure. */
export function columnText(ctx, i) {
  const me = ctx.state.players[ctx.viewer];
  const col = me && me.columns[i];
  const top = col && col.structures[col.structures.length - 1];
  return `${humanize(columnName(i))}${top ? ` (${ctx.names.text(top)})` : ""}`;
}

function branchText(ctx, option) {
  const prompt = (ctx.state.prompts || []).find((p) => p.seat === ctx.viewer && p.kind === "choice");
  const branches = prompt && prompt.args ? prompt.args.branches : null;
  const branch = branches && branches[option.params.option];
  return branch ? effectsText(branch) : `option ${Number(option.params.option) + 1}`;
}

/** The words on a decision's button, and a second line (a card's text) where it helps. */
export function optionLabel(ctx, option) {
  const p = option.params || {};
  const names = ctx.names;
  const text = (id) => (names.entry(id) && names.entry(id).text) || "";
  const board = boardOf(ctx);
  switch (option.type) {
    case "draft_leader": return [`Keep ${names.text(p.card)}`, text(p.card)];
    case "play": return [`Play ${names.text(p.card)}`, text(p.card)];
    case "skip": return ["Skip this play (no card can be played)", ""];
    case "board": return boardLabel(ctx, p);
    case "decline": return ["No more board action", ""];
    case "extra_action": return p.use ? ["Use an Extra Action token: play one more card", ""] : ["Keep the Extra Action tokens", ""];
    case "burn": return [`Burn ${names.text(p.card)}`, p.zone === "hand" ? "from your hand" : "the top of your discard pile"];
    case "no_burn": return ["Burn nothing", ""];
    case "bid_power": return [`Bid ${p.n} power`, "power tokens from your reserve, for the Warfare crisis"];
    case "bid_control": return [`Bid ${p.n} control`, "control tokens from your reserve, for the Political crisis"];
    case "bribe": return [`Bribe: ignore the ${crisisName(p.crisis)} penalty`, ""];
    case "seal_slot": return [`Seal on slot ${p.slot + 1}${board.seal_alerts && board.seal_alerts[p.slot] ? " (Alert!)" : ""}`, ""];
    case "attr_track": return [`Gain on ${trackName(p.track)}`, ""];
    case "reset_track": return [`Score the full ${trackName(p.track)} track`, text(p.track)];
    case "upgrade_column": return [`Upgrade token on ${columnText(ctx, p.column)}`, ""];
    case "upgrade_card": return [`Upgrade ${columnText(ctx, p.column)} to ${names.text(p.card)}`, text(p.card)];
    case "rebellion_column": return [`Rebellion token on ${columnText(ctx, p.column)}`, ""];
    case "unrest_column": return [`Remove the Rebellion token from ${columnText(ctx, p.column)}`, ""];
    case "administrate": return "column" in p
      ? [`Remove a Rebellion token from ${columnText(ctx, p.column)}`, ""]
      : [`Move diplomacy cube ${Number(p.track) + 1} ${towardText(board, p.track, p.direction, names)}`, ""];
    case "diplomacy": return [`Move diplomacy cube ${Number(p.track) + 1} ${towardText(board, p.track, p.direction, names)}`, ""];
    case "research": return [`Research ${names.text(p.card)}`, text(p.card)];
    case "recruit": return [`Recruit ${names.text(p.card)}`, text(p.card)];
    case "leader_slot": return [`Place ${names.text(p.card)} in ${columnText(ctx, p.column)}, ${slotName(p.slot)}`, ""];
    case "displace": return p.to === "flip"
      ? ["Flip the leader there face down", ""]
      : [`Move the leader there to ${columnText(ctx, Number(p.to.split(":")[0]))}, ${slotName(Number(p.to.split(":")[1]))}`, ""];
    case "build": return p.card === "upgrade" ? ["Take an Upgrade token instead", ""] : [`Build ${names.text(p.card)}`, text(p.card)];
    case "choice": return [`Choose: ${branchText(ctx, option)}`, ""];
    case "scout": return [`Scout ${rowName(p.row)} for ${matchName(p.match, names)}`, ""];
    case "guildmaster": return [`Make ${names.text(p.card)} active`, text(p.card)];
    case "dilemma_vote": return [p.side === "abstain" ? "Abstain" : p.side === "in_favor" ? "Vote In Favor" : "Vote Against", ""];
    case "dilemma_reinforce": return [p.add ? "Add one more vote token" : "Stop adding tokens", ""];
    default: {
      const said = names.params(p);
      return [`${humanize(option.type)}${said ? `: ${said}` : ""}`, ""];
    }
  }
}

function boardLabel(ctx, p) {
  const names = ctx.names;
  if (p.action === "faction") {
    if (p.faction === "diplomacy") return ["Board: the Diplomacy action", boardOf(ctx).text || ""];
    const entry = names.entry(p.faction);
    return [`Board: ${entry ? entry.name : humanize(p.faction)}'s action`, entry ? entry.text : ""];
  }
  if (p.action === "support") return [`Support with ${names.text(p.card)}`, "a board action: the Hunger card leaves your hand"];
  if (p.action === "scout") return [`Board: Scout ${rowName(p.row)} for ${matchName(p.match, names)}`, ""];
  return [`Board: ${boardActionName(p.action)}`, p.action === "resupply" ? "draw 2 cards" : ""];
}

/** A Scout as a form: which row, which kind of card to look for (all of one action type). */
export function scoutForm(ctx, options, type) {
  const m = ctx.memory;
  const rows = [...new Set(options.map((o) => o.params.row))];
  const row = rows.includes(m.get(`${type}.row`)) ? m.get(`${type}.row`) : rows[0];
  const matches = options.filter((o) => o.params.row === row).map((o) => o.params.match);
  const match = matches.includes(m.get(`${type}.match`)) ? m.get(`${type}.match`) : matches[0];
  const chosen = options.find((o) => o.params.row === row && o.params.match === match);
  const set = (key, value) => { m.set(key, value); ctx.rerender(); };
  const id = `nc-${type}-scout`;
  return h("form", {
    class: "nc-scout", "aria-label": type === "board" ? "Board action: Scout" : "Scout",
    dataset: { action: type, choices: JSON.stringify(options.map((o) => o.params)) },
    onsubmit: (event) => { event.preventDefault(); ctx.act({ type: chosen.type, params: chosen.params }); },
  },
  h("div", { class: "nc-field" }, h("label", { for: `${id}-row` }, "Row"),
    h("select", { id: `${id}-row`, dataset: { control: "row", focus: `${id}-row` }, onchange: (e) => set(`${type}.row`, e.target.value) },
      rows.map((r) => h("option", { value: r, selected: r === row || null }, rowName(r))))),
  h("div", { class: "nc-field" }, h("label", { for: `${id}-match` }, "Look for"),
    h("select", { id: `${id}-match`, dataset: { control: "match", focus: `${id}-match` }, onchange: (e) => set(`${type}.match`, e.target.value) },
      matches.map((x) => h("option", { value: x, selected: x === match || null }, matchName(x, ctx.names))))),
  h("button", {
    type: "submit", class: "nc-act", disabled: ctx.busy || null,
    dataset: { action: type, params: JSON.stringify(chosen.params), focus: `${id}-go` },
  }, `${type === "board" ? "Board: " : ""}Scout ${rowName(row)} for ${matchName(match, ctx.names)}`));
}

const isScout = (o) => o.type === "scout" || (o.type === "board" && o.params.action === "scout");

/**
 * Every decision of the viewer's that has no place on the table's cards: `placed(option)`
 * says which ones are drawn elsewhere (a hand card, a pool card, a module's part).
 */
export function decisionsPanel(ctx, placed) {
  const prompts = myPrompts(ctx);
  if (!prompts.length) return null;
  return prompts.map((p) => {
    const here = p.options.filter((o) => !placed(o));
    const scouts = here.filter(isScout);
    const buttons = here.filter((o) => !isScout(o)).map((o) => {
      const [label, detail] = optionLabel(ctx, o);
      return actButton(ctx, o, label, { detail, cls: o.type === "skip" || o.type === "decline" || o.type === "no_burn" ? "secondary" : "" });
    });
    const elsewhere = p.options.length - here.length;
    return h("section", { class: "nc-decision", dataset: { prompt: p.kind } },
      h("h3", {}, promptTitle(ctx, p)),
      elsewhere ? h("p", { class: "muted" }, elsewhereText(p)) : null,
      buttons.length ? h("div", { class: "nc-buttons" }, buttons) : null,
      [...new Set(scouts.map((o) => o.type))].map((type) => scoutForm(ctx, scouts.filter((o) => o.type === type), type)));
  });
}

const TITLES = {
  draft_leader: "Keep one of your two draft leaders", turn: "Your turn: a free board action, then one card",
  feather: "One more free board action", extra_action: "Extra Action", end_burn: "Burn a card before the Crisis?",
  bid_power: "Reserve bid: power", bid_control: "Reserve bid: control", bribe: "Your Bribe: which penalty?",
  seal_slot: "Place a Seal", attr_track: "Which track gains?", reset_track: "Score a full track",
  upgrade_column: "Place the Upgrade token", upgrade_card: "Upgrade: which card?", rebellion_column: "Place the Rebellion token",
  unrest_column: "Remove a Rebellion token", administrate: "Administrate", diplomacy: "Move a diplomacy cube",
  research: "Research: take an Advanced Action", recruit: "Recruit a leader", leader_slot: "Where does the leader go?",
  displace: "The slot is taken", build: "Build", scout: "Scout a row", choice: "Choose one",
  guildmaster: "Choose the active Guildmaster", dilemma_vote: "The Dilemma: your vote", dilemma_reinforce: "The Dilemma: add a token?",
};

function promptTitle(ctx, p) {
  return (p.text && p.kind !== "dilemma_vote" ? p.text : "") || TITLES[p.kind] || humanize(p.kind);
}

function elsewhereText(p) {
  if (p.kind === "turn") return "Play a card from your hand (each has its Play button, just below); the free board actions are here.";
  if (["build", "research", "recruit", "upgrade_card"].includes(p.kind)) return "Choose a card in the common rows below (each you may take has a button).";
  if (["guildmaster", "dilemma_vote", "dilemma_reinforce"].includes(p.kind)) return "Choose in the module's part of the table below.";
  if (p.kind === "bribe") return "Choose at the Crisis below: which penalty your Bribe cancels.";
  if (p.kind === "seal_slot") return "Choose a slot on your seal track below (Alert slots are marked).";
  return "Some choices are on the table below.";
}
