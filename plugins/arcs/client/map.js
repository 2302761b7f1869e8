// The map as SVG: six clusters in a ring, each a gate and three planets (type and building
// slots from the glossary's system entries), out-of-play clusters greyed; ships by player colour
// (damaged ones hollow and dashed), cities (squares) and starports (diamonds) in their slots.
// A system is a keyboard-operable button: selecting it opens its panel below the map with the
// viewer's choices there (tax, build, repair, battle, move from it, hits to assign); with a
// move under way the destinations are marked and clicking one moves the ships.

import { h } from "/play/ui.js";
import {
  actButton, answerText, diceText, hitText, legalOf, paidActs, send,
} from "./controls.js";
import { allSystems, controllerOf, nameOf, resourceName, shipsText, systemFacts, systemOf, textOf } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const GATE_R = 118;
const PLANET_R = 262;
const SPREAD = 20; // degrees between a cluster's planets: 18 planets evenly round the ring

/** An SVG element: attributes as strings, on* functions as listeners. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Where a system sits: cluster n's gate on the inner ring, its planets .1-.3 on the outer. */
export function position(id, cluster) {
  const angle = ((cluster - 1) * 60 - 90) * (Math.PI / 180);
  if (id.endsWith("G")) return { x: GATE_R * Math.cos(angle), y: GATE_R * Math.sin(angle) };
  const index = Number(id.split(".")[1]) - 2;
  const a = angle + index * SPREAD * (Math.PI / 180);
  return { x: PLANET_R * Math.cos(a), y: PLANET_R * Math.sin(a) };
}

// -- what the viewer may do where --------------------------------------------------------
/** The move the viewer is making: {origin, fresh, damaged} or null. */
function moving(ctx) {
  const origin = ctx.memory.get("move.origin");
  return origin && paidActs(ctx, "move", origin).length ? origin : null;
}

/** Listed moves from the origin, by destination: {dest: [act, ...]} (one per path). */
function movesFrom(ctx, origin) {
  const out = {};
  for (const a of paidActs(ctx, "move", origin)) {
    if (a.params.origin !== origin) continue;
    const path = a.params.path;
    const dest = path[path.length - 1];
    const key = JSON.stringify(path);
    out[dest] ||= {};
    // one entry per path: prefer the listed move of every ship (the counts are chosen apart)
    const kept = out[dest][key];
    if (!kept || a.params.fresh + a.params.damaged > kept.params.fresh + kept.params.damaged) out[dest][key] = a;
  }
  return Object.fromEntries(Object.entries(out).map(([d, byPath]) => [d, Object.values(byPath)]));
}

function moveCounts(ctx, origin) {
  const here = systemOf(ctx.state, origin);
  const mine = (here && here.ships[ctx.viewer]) || { fresh: 0, damaged: 0 };
  const kept = ctx.memory.get("move.counts");
  if (kept && kept.origin === origin && kept.fresh <= mine.fresh && kept.damaged <= mine.damaged) return { ...kept, max: mine };
  return { origin, fresh: mine.fresh, damaged: mine.damaged, max: mine };
}

/** The move with the chosen counts (a listed move of that path, its ship counts changed). */
function withCounts(action, counts) {
  return { type: action.type, params: { ...action.params, fresh: counts.fresh, damaged: counts.damaged } };
}

function myHits(ctx) {
  return (ctx.state.hits_to_assign || []).find((x) => x.chooser === ctx.viewer) || null;
}

function hitActions(ctx) {
  return [...legalOf(ctx, "assign_hits"), ...legalOf(ctx, "assign_building_hits")];
}

// -- drawing -------------------------------------------------------------------------------
function shipChips(system, names) {
  const chips = [];
  system.ships.forEach((sh, seat) => {
    if (sh.fresh) chips.push({ seat, n: sh.fresh, damaged: false });
    if (sh.damaged) chips.push({ seat, n: sh.damaged, damaged: true });
  });
  const perRow = 3;
  return chips.map((c, i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, chips.length - row * perRow);
    const x = (i % perRow - (inRow - 1) / 2) * 24;
    const y = 14 + row * 17;
    return s("g", { class: `arcs-ship seat-${c.seat}${c.damaged ? " damaged" : ""}`, transform: `translate(${x} ${y})` },
      s("title", {}, `${names.seat(c.seat)}: ${shipsText(c.damaged ? 0 : c.n, c.damaged ? c.n : 0)}`),
      s("path", { d: "M -10 6 L 0 -7 L 10 6 Z", class: "hull" }),
      s("text", { x: 0, y: 5, class: "count" }, String(c.n)));
  });
}

function buildingMarks(system, facts, names) {
  const slots = Math.max(facts.slots, system.buildings.length);
  const out = [];
  for (let i = 0; i < slots; i++) {
    const b = system.buildings[i];
    const x = (i - (slots - 1) / 2) * 20;
    const y = -6;
    if (!b) {
      out.push(s("rect", { x: x - 7, y: y - 7, width: 14, height: 14, class: "arcs-slot" }));
      continue;
    }
    const cls = `arcs-building ${b.kind} seat-${b.owner}${b.damaged ? " damaged" : ""}`;
    const title = s("title", {}, `${names.seat(b.owner)}'s ${b.damaged ? "damaged " : ""}${b.kind}`);
    out.push(b.kind === "city"
      ? s("g", { class: cls }, title, s("rect", { x: x - 7, y: y - 7, width: 14, height: 14 }))
      : s("g", { class: cls }, title, s("path", { d: `M ${x} ${y - 9} L ${x + 9} ${y} L ${x} ${y + 9} L ${x - 9} ${y} Z` })));
  }
  return out;
}

function systemLabel(id, facts, system, names) {
  const parts = [nameOf(names, id, id)];
  if (!system) return `${parts[0]}, out of play`;
  const owner = controllerOf(system);
  if (owner !== null) parts.push(`controlled by ${names.seat(owner)}`);
  system.ships.forEach((sh, seat) => { if (sh.fresh || sh.damaged) parts.push(`${names.seat(seat)} ${shipsText(sh.fresh, sh.damaged)}`); });
  for (const b of system.buildings) parts.push(`${names.seat(b.owner)}'s ${b.damaged ? "damaged " : ""}${b.kind}`);
  const free = facts.slots - system.buildings.length;
  if (facts.planet && free > 0) parts.push(`${free} empty slot${free > 1 ? "s" : ""}`);
  return parts.join("; ");
}

function drawSystem(ctx, id, marks) {
  const names = ctx.names;
  const facts = systemFacts(names, id);
  const system = systemOf(ctx.state, id);
  const { x, y } = position(id, facts.cluster);
  const gate = id.endsWith("G");
  const selected = ctx.memory.get("sel") === id;
  const owner = controllerOf(system);
  const cls = ["arcs-system", gate ? "gate" : `planet type-${facts.planet}`, system ? "" : "out",
    selected ? "selected" : "", marks.dest.has(id) ? "dest" : "", marks.origin === id ? "origin" : "",
    marks.battle === id ? "battle" : "", marks.acts.has(id) ? "can-act" : ""].filter(Boolean).join(" ");
  const shape = gate
    ? s("polygon", { class: "body", points: [0, 1, 2, 3, 4, 5].map((k) => { const a = (k * 60 + 30) * Math.PI / 180; return `${34 * Math.cos(a)},${34 * Math.sin(a)}`; }).join(" ") })
    : s("circle", { class: "body", r: 40 });
  const select = () => {
    if (!system) return;
    const origin = marks.origin;
    const moves = origin ? movesFrom(ctx, origin)[id] : null;
    if (origin && moves && moves.length === 1) {
      send(ctx, withCounts(moves[0], moveCounts(ctx, origin)));
      ctx.memory.delete("move.origin");
      ctx.memory.set("sel", id);
      return;
    }
    if (origin && !moves && id !== origin) ctx.memory.delete("move.origin");
    ctx.memory.set("sel", selected && !origin ? null : id);
    ctx.rerender();
  };
  return s("g", {
    class: cls, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
    role: system ? "button" : "img", tabindex: system ? "0" : null,
    "aria-label": systemLabel(id, facts, system, names) + (marks.dest.has(id) ? " (move here)" : ""),
    "aria-pressed": system ? String(selected) : null,
    dataset: { system: id, focus: `arcs:system:${id}`, controller: owner === null ? "" : String(owner) },
    onclick: select,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(); } },
  },
  owner !== null ? s("circle", { class: `control-ring seat-${owner}`, r: gate ? 40 : 48 }) : null,
  shape,
  s("text", { class: "sys-id", y: gate ? -18 : -25 }, gate ? `Gate ${facts.cluster}` : id),
  gate ? null : s("text", { class: "sys-type", y: -14 }, resourceName(facts.planet)),
  system ? [buildingMarks(system, facts, names), shipChips(system, names)] : s("text", { class: "sys-out", y: 10 }, "out of play"));
}

function edges(ctx, systems) {
  const lines = [];
  const seen = new Set();
  for (const a of systems) {
    const fa = systemFacts(ctx.names, a);
    for (const b of fa.adjacent) {
      const key = [a, b].sort().join("|");
      if (seen.has(key)) continue;
      seen.add(key);
      const fb = systemFacts(ctx.names, b);
      const pa = position(a, fa.cluster);
      const pb = position(b, fb.cluster);
      const out = !ctx.state.systems[a] || !ctx.state.systems[b];
      lines.push(s("line", { class: `arcs-edge${out ? " out" : ""}`, x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y }));
    }
  }
  return lines;
}

function clusterLabels(ctx) {
  const out = new Set(ctx.state.out_of_play || []);
  return [1, 2, 3, 4, 5, 6].map((c) => {
    const angle = ((c - 1) * 60 - 90) * (Math.PI / 180);
    return s("text", { class: `arcs-cluster${out.has(c) ? " out" : ""}`, x: 334 * Math.cos(angle), y: 334 * Math.sin(angle) + 6 },
      `${c}${out.has(c) ? " (out)" : ""}`);
  });
}

function mapSvg(ctx, marks) {
  const systems = allSystems(ctx.names);
  return s("svg", { class: "arcs-map-svg", viewBox: "-352 -352 704 704", role: "group", "aria-label": "The map: six clusters of systems" },
    s("title", {}, "The map"),
    edges(ctx, systems),
    clusterLabels(ctx),
    systems.map((id) => drawSystem(ctx, id, marks)));
}

// -- the selected system's panel ---------------------------------------------------------
function countSelect(ctx, id, label, value, max, key, counts) {
  return h("div", { class: "arcs-field" },
    h("label", { for: id }, label),
    h("select", {
      id, dataset: { focus: `arcs:${id}`, control: key },
      onchange: (e) => { ctx.memory.set("move.counts", { ...counts, [key]: Number(e.target.value) }); ctx.rerender(); },
    }, Array.from({ length: max + 1 }, (_, n) => h("option", { value: String(n), selected: n === value || null }, String(n)))));
}

function movePart(ctx, id) {
  const moves = movesFrom(ctx, id);
  const dests = Object.keys(moves);
  if (!dests.length) return null;
  const counts = moveCounts(ctx, id);
  const { max } = counts;
  const plain = { origin: id, fresh: counts.fresh, damaged: counts.damaged };
  const none = counts.fresh + counts.damaged === 0;
  const active = ctx.memory.get("move.origin") === id;
  const buttons = dests.sort().flatMap((d) => moves[d].map((a) => actButton(ctx, withCounts(a, plain),
    `To ${nameOf(ctx.names, d, d)}${a.params.path.length > 1 ? ` via ${a.params.path.slice(0, -1).map((x) => nameOf(ctx.names, x, x)).join(", ")}` : ""}`,
    { data: { dest: d }, cls: "secondary" })));
  if (none) buttons.forEach((b) => { b.disabled = true; });
  return h("div", { class: "arcs-part", dataset: { part: "move" } },
    h("h4", {}, "Move ships from here"),
    h("div", { class: "arcs-fields" },
      max.fresh ? countSelect(ctx, "arcs-move-fresh", "Fresh ships", counts.fresh, max.fresh, "fresh", plain) : null,
      max.damaged ? countSelect(ctx, "arcs-move-damaged", "Damaged ships", counts.damaged, max.damaged, "damaged", plain) : null),
    h("button", {
      type: "button", class: `arcs-act${active ? " pressed" : ""}`, disabled: ctx.busy || none || null, "aria-pressed": String(active),
      dataset: { focus: "arcs:move-start", control: "move-start" },
      onclick: () => { if (active) ctx.memory.delete("move.origin"); else ctx.memory.set("move.origin", id); ctx.rerender(); },
    }, active ? "Choosing a destination on the map (click to stop)" : "Choose the destination on the map"),
    h("div", { class: "arcs-buttons" }, buttons));
}

function battleDice(ctx, id, defender, options) {
  const kept = ctx.memory.get("battle.dice");
  const max = Math.max(...options.map((a) => a.params.assault + a.params.skirmish + a.params.raid));
  const raidOk = options.some((a) => a.params.raid > 0);
  const base = kept && kept.system === id && kept.defender === defender ? kept
    : { system: id, defender, assault: options[0].params.assault, skirmish: options[0].params.skirmish, raid: options[0].params.raid };
  return { dice: base, max, raidOk };
}

function battlePart(ctx, id) {
  const all = paidActs(ctx, "battle", id);
  if (!all.length) return null;
  const defenders = [...new Set(all.map((a) => a.params.defender))];
  const keptDefender = ctx.memory.get("battle.defender");
  const defender = defenders.includes(keptDefender) ? keptDefender : defenders[0];
  const options = all.filter((a) => a.params.defender === defender);
  const { dice, max, raidOk } = battleDice(ctx, id, defender, options);
  const total = dice.assault + dice.skirmish + dice.raid;
  const setDie = (kind) => (e) => { ctx.memory.set("battle.dice", { ...dice, [kind]: Number(e.target.value) }); ctx.rerender(); };
  const dieSelect = (kind) => h("div", { class: "arcs-field" },
    h("label", { for: `arcs-dice-${kind}` }, `${kind[0].toUpperCase()}${kind.slice(1)} dice`),
    h("select", { id: `arcs-dice-${kind}`, dataset: { focus: `arcs:dice-${kind}`, control: kind }, onchange: setDie(kind) },
      Array.from({ length: Math.min(6, max) + 1 }, (_, n) => h("option", { value: String(n), selected: n === dice[kind] || null }, String(n)))));
  const action = { type: "act", params: { ...options[0].params, assault: dice.assault, skirmish: dice.skirmish, raid: dice.raid } };
  const button = actButton(ctx, action, `Battle ${ctx.names.seat(defender)} with ${diceText(dice)}`, { data: { defender: String(defender) }, cls: "danger" });
  if (total > max || total === 0) button.disabled = true;
  return h("div", { class: "arcs-part", dataset: { part: "battle" } },
    h("h4", {}, "Battle here"),
    h("div", { class: "arcs-fields" },
      defenders.length > 1 ? h("div", { class: "arcs-field" },
        h("label", { for: "arcs-defender" }, "Defender"),
        h("select", {
          id: "arcs-defender", dataset: { focus: "arcs:defender", control: "defender" },
          onchange: (e) => { ctx.memory.set("battle.defender", Number(e.target.value)); ctx.memory.delete("battle.dice"); ctx.rerender(); },
        }, defenders.map((d) => h("option", { value: String(d), selected: d === defender || null }, ctx.names.seat(d))))) : null,
      dieSelect("assault"), dieSelect("skirmish"), raidOk ? dieSelect("raid") : null),
    h("p", { class: "muted" }, `At most ${max} dice (one per ship here).`),
    button);
}

function listPart(ctx, title, part, actions) {
  if (!actions.length) return null;
  return h("div", { class: "arcs-part", dataset: { part } },
    h("h4", {}, title),
    h("div", { class: "arcs-buttons" }, actions.map((a) => actButton(ctx, a, answerText(a, ctx)))));
}

function hitsPart(ctx, id) {
  const pending = myHits(ctx);
  if (!pending || pending.system !== id) return null;
  const actions = hitActions(ctx);
  if (!actions.length) return null;
  return h("div", { class: "arcs-part arcs-hits", dataset: { part: "hits" } },
    h("h4", {}, `Assign ${pending.hits} hit${pending.hits === 1 ? "" : "s"} to ${ctx.names.seat(pending.owner)}'s ${pending.pieces}`),
    h("div", { class: "arcs-buttons" }, actions.map((a) => actButton(ctx, a, hitText(a, ctx), { cls: "danger" }))));
}

function piecesList(ctx, system) {
  const names = ctx.names;
  const items = [];
  system.ships.forEach((sh, seat) => {
    if (sh.fresh || sh.damaged) items.push(h("li", {}, h("span", { class: `arcs-dot seat-${seat}`, "aria-hidden": "true" }), `${names.seat(seat)}: ${shipsText(sh.fresh, sh.damaged)}`));
  });
  system.buildings.forEach((b, i) => items.push(h("li", {}, h("span", { class: `arcs-dot seat-${b.owner}`, "aria-hidden": "true" }),
    `Slot ${i + 1}: ${names.seat(b.owner)}'s ${b.damaged ? "damaged " : ""}${b.kind}`)));
  return items.length ? h("ul", { class: "arcs-pieces" }, items) : h("p", { class: "muted" }, "Empty.");
}

function systemPanel(ctx, id) {
  const names = ctx.names;
  const system = systemOf(ctx.state, id);
  if (!system) return null;
  const facts = systemFacts(names, id);
  const owner = controllerOf(system);
  const origin = moving(ctx);
  const toHere = origin && origin !== id ? (movesFrom(ctx, origin)[id] || []) : [];
  const counts = origin ? moveCounts(ctx, origin) : null;
  const parts = [
    hitsPart(ctx, id),
    toHere.length ? h("div", { class: "arcs-part", dataset: { part: "move-here" } },
      h("h4", {}, `Move here from ${nameOf(names, origin, origin)}`),
      h("div", { class: "arcs-buttons" }, toHere.map((a) => actButton(ctx, withCounts(a, counts), answerText(withCounts(a, counts), ctx))))) : null,
    listPart(ctx, "Tax", "tax", paidActs(ctx, "tax", id)),
    listPart(ctx, "Build", "build", paidActs(ctx, "build", id)),
    listPart(ctx, "Repair", "repair", paidActs(ctx, "repair", id)),
    battlePart(ctx, id),
    movePart(ctx, id),
  ].filter(Boolean);
  return h("section", { class: "arcs-system-panel", "aria-labelledby": "arcs-sys-h", dataset: { system: id } },
    h("h3", { id: "arcs-sys-h" }, nameOf(names, id, id)),
    h("p", { class: "muted" }, `${textOf(names, id)}${owner !== null ? `; controlled by ${names.seat(owner)}` : "; nobody controls it"}.`),
    piecesList(ctx, system),
    parts.length ? parts : null);
}

/** Systems where the viewer has a choice now (marked on the map). */
function actionable(ctx) {
  const out = new Set();
  for (const kind of ["tax", "build", "repair", "battle"]) for (const a of paidActs(ctx, kind)) out.add(a.params.system);
  for (const a of paidActs(ctx, "move")) out.add(a.params.origin);
  const pending = myHits(ctx);
  if (pending && hitActions(ctx).length) out.add(pending.system);
  return out;
}

export function mapSection(ctx) {
  const state = ctx.state;
  const version = ctx.table.version;
  if (ctx.memory.get("map.version") !== version) { // a new table: yesterday's half-made move is gone
    ctx.memory.set("map.version", version);
    ctx.memory.delete("move.origin");
    ctx.memory.delete("battle.dice");
    const pending = myHits(ctx);
    if (pending && hitActions(ctx).length) ctx.memory.set("sel", pending.system);
    else if (state.battle && state.battle.system) ctx.memory.set("sel", state.battle.system);
  }
  const origin = moving(ctx);
  const marks = {
    origin, dest: new Set(origin ? Object.keys(movesFrom(ctx, origin)) : []),
    battle: state.battle ? state.battle.system : null, acts: actionable(ctx),
  };
  const sel = ctx.memory.get("sel");
  return h("section", { class: "arcs-panel arcs-map", "aria-labelledby": "arcs-map-h" },
    h("h2", { id: "arcs-map-h" }, "The Reach"),
    origin ? h("p", { class: "arcs-hint", role: "status" }, `Moving from ${nameOf(ctx.names, origin, origin)}: choose a marked system.`)
      : marks.acts.size ? h("p", { class: "arcs-hint" }, "Systems where you can act are outlined: select one.") : null,
    h("div", { class: "arcs-map-grid" },
      h("div", { class: "arcs-map-frame" }, mapSvg(ctx, marks)),
      sel ? systemPanel(ctx, sel) : h("p", { class: "muted arcs-system-panel" }, "Select a system to see its pieces and your choices there.")));
}
