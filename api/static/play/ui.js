// Small DOM helpers and the generic, glossary-aware formatting of any game's data.

/** h("button", {class: "x", onclick: fn}, "text", child, [more]) -> an element. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "value") element.value = value;
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

/** Replace an element's children (arrays flattened, null/false skipped). */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

let uid = 0;
/** A fresh id for label/aria wiring. */
export const newId = (prefix = "c") => `${prefix}-${++uid}`;

/** "draft_leader" / "bidPower" -> "Draft leader" / "Bid power". */
export function humanize(word) {
  const text = String(word).replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return text ? text[0].toUpperCase() + text.slice(1) : String(word);
}

export const isScalar = (v) => v === null || v === undefined || ["string", "number", "boolean"].includes(typeof v);

const SEAT_KEY = /^(seat|seats|active_?seats|viewer|to|from|to_seat|from_seat|winners)$/i;
/** Keys whose integers are seat numbers (kernel vocabulary, the same for every game). */
export const isSeatKey = (key) => typeof key === "string" && SEAT_KEY.test(key);

const DIE_KEY = /^(die|dice|roll|rolls|rolled|number_die|event_die)$/i;
const DIE_FACES = ["\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
/** A six-sided die's result as its face and number ("⚃ 4"); other numbers as they are. */
export const dieText = (n) => (Number.isInteger(n) && n >= 1 && n <= 6 ? `${DIE_FACES[n - 1]} ${n}` : String(n));

/** The entries of parameters that hold a value (null, undefined and "" say nothing). */
export const filledEntries = (params) => Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== "");

/** Names for ids (from the viewer's glossary) and for seats (from the table's seats). */
export class Names {
  constructor(glossary = {}, seats = [], viewer = null) {
    this.glossary = glossary || {};
    this.seats = seats || [];
    this.viewer = viewer;
  }

  entry(value) {
    return typeof value === "string" && Object.prototype.hasOwnProperty.call(this.glossary, value) ? this.glossary[value] : null;
  }

  seat(n) {
    const info = this.seats.find((s) => s.seat === n);
    return `Seat ${n + 1}${info && info.name ? ` (${info.name})` : ""}`;
  }

  /** A value as one line of plain text: ids by name, seats by label. */
  text(value, key = null) {
    if (value === null || value === undefined || value === "") return "—";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (typeof value === "number") {
      if (isSeatKey(key) && Number.isInteger(value) && value >= 0) return this.seat(value);
      return DIE_KEY.test(key || "") ? dieText(value) : String(value);
    }
    if (typeof value === "string") {
      const entry = this.entry(value);
      return entry ? entry.name : value;
    }
    if (Array.isArray(value)) {
      if (DIE_KEY.test(key || "") && value.every((v) => Number.isInteger(v))) return value.map(dieText).join(" ");
      return `[${value.map((v) => this.text(v, key)).join(", ")}]`;
    }
    return `{${Object.entries(value).map(([k, v]) => `${this.keyText(k, key)}: ${this.text(v, k)}`).join(", ")}}`;
  }

  keyText(k, parentKey = null) {
    if (isSeatKey(parentKey) && /^\d+$/.test(k)) return this.seat(Number(k));
    const entry = this.entry(k);
    return entry ? entry.name : k;
  }

  /** An action's or an event's parameters in words: "Novice Abbot Lucan" for one, "zone hand,
   * card Elite Guard" for several (ids by name, seats by label). */
  params(params) {
    if (params === null || params === undefined) return "";
    if (!params || typeof params !== "object" || Array.isArray(params)) return this.text(params);
    const entries = filledEntries(params);
    if (entries.length === 1) return this.text(entries[0][1], entries[0][0]);
    return entries.map(([k, v]) => `${humanize(k).toLowerCase()} ${this.text(v, k)}`).join(", ");
  }

  /** A scalar as a DOM node: a glossary id becomes its name, with its text as a tooltip and the id small. */
  node(value, key = null, { showText = false } = {}) {
    const entry = this.entry(value);
    if (!entry) return h("span", { class: `value ${value === null || value === "" ? "muted" : ""}` }, this.text(value, key));
    return h("span", { class: "card", title: entry.text || entry.kind || "", dataset: { id: value, kind: entry.kind || "" } },
      h("span", { class: "card-name" }, entry.name),
      " ", h("small", { class: "card-id" }, value),
      showText && entry.text ? h("span", { class: "card-text" }, ` — ${entry.text}`) : null);
  }
}

/** The label of one element of a list: its seat, or a name-like field, or its index. */
function itemLabel(item, index, names) {
  if (item && typeof item === "object" && !Array.isArray(item)) {
    if (Number.isInteger(item.seat)) return names.seat(item.seat);
    for (const k of ["name", "id", "card", "key", "kind", "type", "module"]) {
      if (isScalar(item[k]) && item[k] !== null && item[k] !== "") return `${index}: ${names.text(item[k], k)}`;
    }
  }
  return `${index}`;
}

/**
 * Any JSON as nested <details>/<summary> (collapsible). `open` is a Set of open paths kept
 * between renders; `showText` writes card texts out in full (the private panel).
 */
export function tree(value, names, { open, path = "$", label = "State", key = null, showText = false, openDefault = false } = {}) {
  if (isScalar(value)) return names.node(value, key, { showText });
  if (Array.isArray(value) && value.every(isScalar)) {
    if (!value.length) return h("span", { class: "value muted" }, "none");
    if (showText && value.some((v) => names.entry(v))) {
      return h("ul", { class: "cards" }, value.map((v) => h("li", {}, names.node(v, key, { showText }))));
    }
    return h("span", { class: "inline-list" }, value.map((v, i) => [i ? ", " : "", names.node(v, key, { showText })]));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const count = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const details = h("details", { dataset: { path } },
    h("summary", {}, h("span", { class: "key" }, label), " ", h("small", { class: "muted" }, count)),
    h("ul", { class: "tree" }, entries.map(([k, v]) => {
      const childPath = `${path}/${k}`;
      const childLabel = Array.isArray(value) ? itemLabel(v, k, names) : names.keyText(String(k), key);
      const childKey = Array.isArray(value) ? key : String(k);
      if (isScalar(v) || (Array.isArray(v) && v.every(isScalar))) {
        return h("li", { class: "leaf" }, h("span", { class: "key" }, childLabel), ": ",
          tree(v, names, { open, path: childPath, key: childKey, showText }));
      }
      return h("li", {}, tree(v, names, { open, path: childPath, label: childLabel, key: childKey, showText }));
    })));
  const isOpen = open ? (open.has(path) || (openDefault && !open.has(`!${path}`))) : openDefault;
  if (isOpen) details.open = true;
  details.addEventListener("toggle", () => {
    if (!open) return;
    if (details.open) { open.add(path); open.delete(`!${path}`); } else { open.delete(path); open.add(`!${path}`); }
  });
  return details;
}

/** Show a message in a live region (role=alert for errors, role=status otherwise). */
export function say(region, text, kind = "error") {
  fill(region);
  if (!text) return;
  region.append(h("p", { class: `notice ${kind}` }, text));
}

export const seatKey = (tableId) => `conclave.seat.${tableId}`;

/** The seat this browser holds at a table: {seat, token} or null. */
export function storedSeat(tableId) {
  try {
    const value = JSON.parse(localStorage.getItem(seatKey(tableId)));
    if (value && Number.isInteger(value.seat) && typeof value.token === "string" && value.token) return value;
  } catch { /* not JSON: ignore */ }
  return null;
}

export function storeSeat(tableId, seat, token) {
  localStorage.setItem(seatKey(tableId), JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(seatKey(tableId));
}

export function playerName() {
  return localStorage.getItem("conclave.name") || "";
}

export function setPlayerName(name) {
  localStorage.setItem("conclave.name", name);
}

/** Go to a route (also when it is the current one: then it is drawn again). */
export function navigate(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

/** A seat's share link: it carries the table's join code (or the seat's invitation) in the
 * hash, which the browser never sends to a server. */
export const joinLink = (tableId, seat, code) =>
  new URL(`#/join/${encodeURIComponent(tableId)}/${seat}/${encodeURIComponent(code)}`, location.href).href;

const codeKey = (tableId) => `conclave.code.${tableId}`;

/** The join code this browser holds for a table (it created the table or opened a join link), or null. */
export function storedCode(tableId) {
  return localStorage.getItem(codeKey(tableId)) || null;
}

export function storeCode(tableId, code) {
  if (code) localStorage.setItem(codeKey(tableId), code);
}

/** A copyable, read-only link with a label and a Copy button. */
export function copyableLink(labelText, url) {
  const id = newId("link");
  const input = h("input", { id, type: "text", readonly: true, value: url, class: "link", onfocus: (e) => e.target.select() });
  const status = h("span", { class: "copy-status", role: "status" });
  const copy = h("button", {
    type: "button", class: "secondary",
    onclick: async () => {
      input.select();
      let done = false;
      try { await navigator.clipboard.writeText(url); done = true; } catch { done = document.execCommand && document.execCommand("copy"); }
      status.textContent = done ? "Copied" : "Select the link and copy it";
    },
  }, "Copy");
  return h("div", { class: "copy-row" }, h("label", { for: id }, labelText), h("div", { class: "copy-controls" }, input, copy, status));
}

/**
 * A log entry written by a game's view from its events' sentences: the first as the line, the
 * rest listed below it; with no sentence, who answered which prompt (null when the entry names
 * no seat: the generic line then). Shared by the games' `describe` (views.js).
 */
export function entryInWords(entry, names, sentences, className) {
  const lines = sentences.filter((s) => s !== null && s !== undefined && s !== "");
  if (!lines.length) {
    const events = Array.isArray(entry.events) ? entry.events : [];
    const acted = events.find((e) => e && e.type === "action");
    const d = (acted && acted.data) || {};
    const seat = Number.isInteger(entry.seat) ? entry.seat : d.seat;
    if (!Number.isInteger(seat)) return null;
    return `${names.seat(seat)} answers: ${humanize(d.prompt || (entry.action && entry.action.type) || "a prompt")}.`;
  }
  if (lines.length === 1) return h("span", { class: className }, lines[0]);
  return h("span", { class: className }, lines[0], h("ul", { class: "events" }, lines.slice(1).map((l) => h("li", {}, l))));
}
