// The Arcs vocabulary in words, shared by the table's parts and the log so both say things the
// same way: resources, ambitions, plays, pieces, and the names of cards and systems (from the
// glossary, never from ids).

import { humanize } from "/play/ui.js";

export const AMBITIONS = ["tycoon", "tyrant", "warlord", "keeper", "empath"];
export const PLAY_KINDS = { lead: "Lead", surpass: "Surpass", copy: "Copy", pivot: "Pivot", event: "Event" };

export const resourceName = (r) => (r ? humanize(r) : "empty");
export const ambitionName = (a) => (a ? humanize(a) : "no ambition");
export const playName = (kind) => PLAY_KINDS[kind] || humanize(kind || "play");
export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** A card or system by its glossary name ("Loyal Pilots", "Fuel 1.2"); `fallback` when unnamed. */
export function nameOf(names, id, fallback = "a card") {
  const entry = names.entry(id);
  return entry ? entry.name : fallback;
}

export const textOf = (names, id) => (names.entry(id) && names.entry(id).text) || "";

/** A system's printed facts from the glossary: {cluster, planet, slots, adjacent}. */
export function systemFacts(names, id) {
  const e = names.entry(id) || {};
  return { cluster: e.cluster, planet: e.planet || null, slots: e.slots || 0, adjacent: e.adjacent || [] };
}

/** Every system of the map, gates first within each cluster (the glossary names them all). */
export function allSystems(names) {
  return Object.entries(names.glossary).filter(([, e]) => e && e.kind === "system").map(([id]) => id)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** Ships as words: "3 fresh and 1 damaged ships". */
export function shipsText(fresh, damaged) {
  const parts = [];
  if (fresh) parts.push(`${fresh} fresh`);
  if (damaged) parts.push(`${damaged} damaged`);
  const n = (fresh || 0) + (damaged || 0);
  return `${parts.join(" and ") || "no"} ship${n === 1 ? "" : "s"}`;
}

/** A player's defaults (the view omits fields at their starting values). */
export function playerOf(state, seat) {
  const p = (state.players || [])[seat] || {};
  return {
    power: p.power || 0,
    resources: p.resources || [null, null, null, null, null, null],
    cities_on_board: p.cities_on_board || [true, true, true, true, true],
    ships: p.ships ?? 15, starports: p.starports ?? 5, agents: p.agents ?? 10,
    outrage: p.outrage || [], trophies: p.trophies || [], captives: p.captives || [],
    guild: p.guild || [], lore: p.lore || [], leader: p.leader || null,
  };
}

/** A system's pieces: ships per seat as {fresh, damaged}, buildings as {kind, owner, damaged}. */
export function systemOf(state, id) {
  const s = (state.systems || {})[id];
  if (!s) return null;
  return {
    ships: (s.ships || []).map((x) => ({ fresh: (x && x[0]) || 0, damaged: (x && x[1]) || 0 })),
    buildings: (s.buildings || []).map((b) => ({ kind: b[0], owner: b[1], damaged: Boolean(b[2]) })),
  };
}

/** Who controls a system (ARCS-130): strictly more fresh ships than every other player; the
 * seat, or null when tied or empty. */
export function controllerOf(system) {
  if (!system) return null;
  let best = null; let most = 0; let tied = false;
  system.ships.forEach((s, seat) => {
    if (s.fresh > most) { best = seat; most = s.fresh; tied = false; } else if (s.fresh === most && most > 0) tied = true;
  });
  return tied ? null : best;
}
