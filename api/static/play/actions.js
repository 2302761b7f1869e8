// The viewer's open prompts as controls: one button per action type with a single option,
// a small form (one <select> per parameter that varies) when a type has several options.
// Generic: it only reads `prompts`, `legalActions` and the glossary.

import { h, humanize, newId, isScalar } from "./ui.js";

const ABSENT = "\u0000absent";
const encode = (params, key) =>
  params && typeof params === "object" && Object.prototype.hasOwnProperty.call(params, key) ? JSON.stringify(params[key]) : ABSENT;
const decode = (encoded) => (encoded === ABSENT ? undefined : JSON.parse(encoded));
const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const sameAction = (a, b) => a.type === b.type && JSON.stringify(a.params) === JSON.stringify(b.params);

/** Options of a prompt grouped by type, in order of first appearance. */
function byType(options) {
  const groups = new Map();
  for (const option of options) {
    if (!groups.has(option.type)) groups.set(option.type, []);
    groups.get(option.type).push(option);
  }
  return groups;
}

/** A short readable summary of one option's parameters ("Royal Tutor Celestine"; "track 0, direction -1"). */
function summary(params, names, skip = []) {
  if (!isPlainObject(params)) return params === null || params === undefined ? "" : names.text(params);
  const entries = Object.entries(params).filter(([k]) => !skip.includes(k));
  if (entries.length === 1) return names.text(entries[0][1], entries[0][0]);
  return entries.map(([k, v]) => `${humanize(k).toLowerCase()} ${names.text(v, k)}`).join(", ");
}

/** The glossary texts of the ids in an option (a tooltip for its button). */
function effectTexts(params, names) {
  if (!isPlainObject(params)) return "";
  return Object.values(params).filter(isScalar).map((v) => names.entry(v)).filter((e) => e && e.text)
    .map((e) => `${e.name}: ${e.text}`).join("\n");
}

function valueLabel(encoded, key, names) {
  if (encoded === ABSENT) return "—";
  const value = decode(encoded);
  const entry = names.entry(value);
  if (entry) return entry.text ? `${entry.name} — ${entry.text}` : entry.name;
  return names.text(value, key);
}

/** The control(s) for one action type of one prompt. */
function actionControl(type, options, prompt, names, act) {
  const freeKeys = (prompt.freeText || []).filter((k) => options.some((o) => isPlainObject(o.params) && k in o.params));
  const focusBase = `${prompt.id}/${type}`;
  if (options.length === 1 && !freeKeys.length) {
    const option = options[0];
    const detail = summary(option.params, names);
    return h("div", { class: "action" },
      h("button", {
        type: "button", class: "act", title: effectTexts(option.params, names) || null,
        dataset: { type, focus: `${focusBase}/button` },
        onclick: () => act(option),
      }, humanize(type), detail ? `: ${detail}` : ""));
  }
  if (!options.every((o) => isPlainObject(o.params))) {
    // Parameters that are not an object of named values: one button per option.
    return h("div", { class: "action several" }, options.map((option, i) => h("button", {
      type: "button", class: "act", dataset: { type, focus: `${focusBase}/${i}` }, onclick: () => act(option),
    }, humanize(type), ": ", summary(option.params, names))));
  }

  // Several options: a select per parameter that varies, limited to existing combinations.
  const keys = [];
  for (const option of options) for (const key of Object.keys(option.params)) if (!keys.includes(key) && !freeKeys.includes(key)) keys.push(key);
  const chosen = {};
  const fields = h("div", { class: "fields" });
  const freeInputs = {};
  let current = options[0];
  const formId = newId("act");

  function rebuild(focusKey = null) {
    fields.replaceChildren();
    let candidates = options;
    for (const key of keys) {
      const values = [...new Set(candidates.map((o) => encode(o.params, key)))];
      if (values.length > 1) {
        if (!values.includes(chosen[key])) chosen[key] = values[0];
        const id = `${formId}-${key}`;
        const labels = values.map((v) => valueLabel(v, key, names));
        const select = h("select", {
          id, name: key, dataset: { param: key, focus: `${focusBase}/select/${key}` },
          onchange: (e) => { chosen[key] = e.target.value; rebuild(key); },
        }, values.map((v, i) => {
          const duplicate = labels.indexOf(labels[i]) !== labels.lastIndexOf(labels[i]);
          return h("option", { value: v, selected: v === chosen[key] }, duplicate && v !== ABSENT ? `${labels[i]} (${decode(v)})` : labels[i]);
        }));
        select.value = chosen[key];
        fields.append(h("div", { class: "field" }, h("label", { for: id }, humanize(key)), select));
        if (focusKey === key) queueMicrotask(() => select.focus());
      } else {
        chosen[key] = values[0];
        if (values[0] !== ABSENT) {
          fields.append(h("div", { class: "field fixed" }, h("span", { class: "label" }, humanize(key)), " ",
            names.node(decode(values[0]), key)));
        }
      }
      candidates = candidates.filter((o) => encode(o.params, key) === chosen[key]);
    }
    current = candidates[0];
    for (const key of freeKeys) {
      const id = `${formId}-free-${key}`;
      if (!freeInputs[key]) {
        freeInputs[key] = h("input", { id, name: key, type: "text", maxlength: 200, autocomplete: "off", dataset: { free: key } });
      }
      fields.append(h("div", { class: "field" }, h("label", { for: id }, `${humanize(key)} (your words)`), freeInputs[key]));
    }
  }
  rebuild();

  const form = h("form", {
    class: "action-form", dataset: { type },
    onsubmit: (event) => {
      event.preventDefault();
      const params = JSON.parse(JSON.stringify(current.params));
      for (const key of freeKeys) if (key in params) params[key] = freeInputs[key].value;
      act({ type: current.type, params });
    },
  },
  h("fieldset", {},
    h("legend", {}, humanize(type), h("small", { class: "muted" }, ` (${options.length} choices)`)),
    fields,
    h("button", { type: "submit", class: "act", dataset: { type, focus: `${focusBase}/submit` } }, humanize(type))));
  return form;
}

/**
 * The "Your turn" panel. `act(option)` sends one legal action. Spectators see whom the
 * game waits for, and which prompts are open (without their options: those are private).
 */
export function promptsPanel(table, names, act) {
  const viewer = table.viewer;
  const heading = h("h2", { id: "actions-heading", tabindex: "-1" });
  const panel = [heading];
  const waitingFor = table.activeSeats.filter((s) => s !== viewer).map((s) => names.seat(s));

  if (table.status === "finished") {
    heading.textContent = "Game over";
    panel.push(h("p", {}, "The game has ended; the result is below."));
    return panel;
  }
  if (table.status === "open") {
    heading.textContent = "Waiting for players";
    const free = table.seats.filter((s) => !s.taken).map((s) => `Seat ${s.seat + 1}`);
    panel.push(h("p", {}, `The game starts when every seat is taken (free: ${free.join(", ") || "none"}).`));
    return panel;
  }
  if (viewer === null || viewer === undefined) {
    heading.textContent = "Open prompts";
    panel.push(h("p", {}, "You are watching as a spectator."));
    panel.push(h("ul", { class: "prompt-list" }, table.prompts.map((p) =>
      h("li", {}, `${names.seat(p.seat)}: ${p.text || humanize(p.kind)}`))));
    return panel;
  }

  const mine = table.prompts.filter((p) => p.seat === viewer && p.options && p.options.length);
  const covered = mine.flatMap((p) => p.options);
  const others = table.legalActions.filter((a) => !covered.some((o) => sameAction(o, a)));
  if (!mine.length && !others.length) {
    heading.textContent = "Not your turn";
    panel.push(h("p", { class: "waiting" }, waitingFor.length ? `Waiting for ${waitingFor.join(", ")}.` : "Waiting."));
    return panel;
  }
  heading.textContent = "Your turn";
  if (waitingFor.length) panel.push(h("p", { class: "muted" }, `Also waiting for ${waitingFor.join(", ")}.`));
  const groups = mine.map((p) => ({ prompt: p, options: p.options }));
  if (others.length) groups.push({ prompt: { id: "other", kind: "other actions", text: "", freeText: [] }, options: others });
  for (const { prompt, options } of groups) {
    const title = prompt.text || humanize(prompt.kind);
    const types = [...byType(options)];
    const controls = types.map(([type, list]) => actionControl(type, list, prompt, names, act));
    // A prompt without text answered by one action type of its own name needs no heading of its own.
    const plain = !prompt.text && types.length === 1 && types[0][0] === prompt.kind;
    panel.push(h("section", { class: "prompt", dataset: { prompt: prompt.id, kind: prompt.kind }, "aria-label": plain ? title : null },
      plain ? null : h("h3", {}, title, prompt.text && prompt.kind ? h("small", { class: "muted" }, ` (${humanize(prompt.kind)})`) : null),
      controls));
  }
  return panel;
}
