// Per-game table views contributed by plugins. A game (or a module) that ships a client view
// folder is served at the URL its `clientView` field names; /play imports that ES module for
// the game's tables. A game without one gets the generic view (table.js), which plays any game.
//
// The contract of a view module (every export optional):
//   render(ctx)            -> Node | Node[] | null   the table as this viewer may see it (a game's
//                             view) or the parts a module adds (a module's view)
//   describe(entry, ctx)   -> string | Node | null   one log entry in words: entry = {version, seat,
//                             action (own entries only), events}; null leaves it to the generic line
//   styles                 -> a stylesheet URL (relative to the module) to load once
//
// ctx (built fresh for every render):
//   table      the table as the API gives it (TableFields in api.js: stateJson, prompts, legalActions…)
//   state      table.stateJson (the viewer's redacted view)
//   viewer     this page's seat index, or null for a spectator
//   names      Names (ui.js): seat names, card names from the glossary
//   legal      the viewer's legal actions ([] when it has none)
//   act(a)     sends one action ({type, params}) as the generic controls do; resolves when answered
//   memory     (render only) a Map the view keeps between renders (selections, open panels): its own UI state
//   rerender() draws the view again from the same table (after a change to `memory`)
//   part(id)   (render only) a module's rendered part (for the game's view to place; unplaced parts follow it)
//   h, fill, humanize   the DOM helpers of ui.js
//
// A view acts only through ctx.act with actions of the API's own types: the server judges them,
// so a view can never do what the generic controls could not.

import { fill, h, humanize } from "./ui.js";

const loaded = new Map(); // url -> Promise<module | {error}>

function importOnce(url) {
  if (!loaded.has(url)) {
    loaded.set(url, import(url).then(
      (module) => {
        if (module.styles) addStylesheet(new URL(module.styles, new URL(url, location.href)).href);
        return module;
      },
      (error) => ({ error })));
  }
  return loaded.get(url);
}

function addStylesheet(href) {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}

/** The game's view module and its enabled modules' ones; `failed` lists what did not load. */
export async function loadViews(game, moduleIds) {
  const wanted = [];
  if (game && game.clientView) wanted.push({ kind: "game", id: game.id, url: game.clientView });
  for (const m of (game && game.modules) || []) {
    if (m.clientView && moduleIds.includes(m.id)) wanted.push({ kind: "module", id: m.id, url: m.clientView });
  }
  const results = await Promise.all(wanted.map((w) => importOnce(w.url)));
  const views = { game: null, modules: [], failed: [] };
  wanted.forEach((w, i) => {
    const module = results[i];
    if (module.error) views.failed.push(`${w.kind} ${w.id}: ${module.error.message || module.error}`);
    else if (w.kind === "game") views.game = module;
    else views.modules.push({ id: w.id, module });
  });
  return views;
}

/** Whether any loaded view draws the table (else the page shows only the generic sections). */
export const drawsTable = (views) => Boolean(views && (views.game?.render || views.modules.some((m) => m.module.render)));

/** A view's output as a list of nodes (strings become text). */
function nodes(output) {
  if (output === null || output === undefined || output === false) return [];
  return (Array.isArray(output) ? output.flat(Infinity) : [output])
    .filter((n) => n !== null && n !== undefined && n !== false)
    .map((n) => (n instanceof Node ? n : document.createTextNode(String(n))));
}

/**
 * Draw the views into `container`: modules' parts first (the game's view may place them with
 * ctx.part), then the game's view, then the parts it did not place. A view that throws is
 * reported in `onError` and leaves the generic sections to do its work.
 */
export function renderViews(container, views, base, onError) {
  const parts = new Map();
  for (const { id, module } of views.modules) {
    if (!module.render) continue;
    try {
      const ctx = { ...base, memory: memoryOf(base, `module:${id}`), part: () => null };
      parts.set(id, h("div", { class: "view-part", dataset: { module: id } }, nodes(module.render(ctx))));
    } catch (error) {
      onError(`module ${id}`, error);
    }
  }
  const placed = new Set();
  const out = [];
  if (views.game && views.game.render) {
    try {
      const ctx = { ...base, memory: memoryOf(base, "game"), part: (id) => { placed.add(id); return parts.get(id) || null; } };
      out.push(...nodes(views.game.render(ctx)));
    } catch (error) {
      onError("game", error);
    }
  }
  for (const [id, node] of parts) if (!placed.has(id)) out.push(node);
  fill(container, ...out);
}

function memoryOf(base, key) {
  if (!base.memories.has(key)) base.memories.set(key, new Map());
  return base.memories.get(key);
}

/** One log entry in words from the views (the game's first), or null for the generic line. */
export function describeEntry(views, entry, base) {
  const order = [views && views.game, ...((views && views.modules) || []).map((m) => m.module)].filter(Boolean);
  for (const module of order) {
    if (!module.describe) continue;
    try {
      const said = module.describe(entry, base);
      if (said !== null && said !== undefined && said !== "") return said;
    } catch (error) {
      console.error("a view's describe failed", error);
    }
  }
  return null;
}

export const helpers = { h, fill, humanize };
