// The lobby (choose a game, its modules, players and options; create a table; open tables)
// and the join page a shared link leads to.

import { CREATE, JOIN, TABLES, games, gql, serverInfo } from "./api.js";
import {
  copyableLink, fill, h, humanize, joinLink, navigate, newId, playerName, say, setPlayerName, storeCode, storeSeat,
  storedCode, storedSeat,
} from "./ui.js";

const choiceLabel = (option, i) => {
  const c = option.choices[i];
  return option.labels && option.labels[i] ? option.labels[i] : typeof c === "string" ? c : JSON.stringify(c);
};

/** One option's field; pushes {option, value(), keep()} onto `inputs` (value undefined = the game's default). */
function optionField(o, players, previous, inputs) {
  const id = newId("option");
  const help = `${id}-help`;
  const note = () => h("small", { id: help, class: "muted" }, o.description || "");
  const described = (control) => h("div", { class: "field", dataset: { option: o.name } }, control, note());
  const perSeat = (kind, fields) => h("fieldset", { class: kind, dataset: { option: o.name }, "aria-describedby": help },
    h("legend", {}, humanize(o.name)), fields, note());
  if (o.shape === "per-seat") {
    const selects = Array.from({ length: players }, (_, seat) => {
      const sid = `${id}-${seat}`;
      const select = h("select", { id: sid, name: `${o.name}-${seat}`, "aria-describedby": help },
        h("option", { value: "" }, "(recommended)"),
        o.items.map((item, i) => h("option", { value: String(i), dataset: { value: String(item) } }, o.itemLabels[i] || String(item))));
      if (previous && previous[seat] !== undefined) select.value = previous[seat];
      return { seat, select, field: h("div", { class: "field" }, h("label", { for: sid }, `${humanize(o.name)}: Seat ${seat + 1}`), select) };
    });
    inputs.push({
      option: o,
      keep: () => selects.map((s) => s.select.value),
      // every seat chosen, or none (the game's recommended set): a partial list is not an answer
      value: () => (selects.every((s) => s.select.value === "") ? undefined
        : selects.map((s) => (s.select.value === "" ? null : o.items[Number(s.select.value)]))),
    });
    return perSeat("per-seat", selects.map((s) => s.field));
  }
  if (o.shape === "seats") {
    const boxes = Array.from({ length: players }, (_, seat) => {
      const bid = `${id}-${seat}`;
      const box = h("input", { type: "checkbox", id: bid, name: `${o.name}-${seat}`, value: String(seat), checked: Boolean(previous && previous.includes(seat)) });
      return { seat, box, field: h("div", { class: "choice" }, box, h("label", { for: bid }, `Seat ${seat + 1}`)) };
    });
    inputs.push({
      option: o,
      keep: () => boxes.filter((b) => b.box.checked).map((b) => b.seat),
      value: () => { const chosen = boxes.filter((b) => b.box.checked).map((b) => b.seat); return chosen.length ? chosen : undefined; },
    });
    return perSeat("seats-option", boxes.map((b) => b.field));
  }
  if (o.choices && o.choices.length) {
    const defaultIndex = o.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(o.default));
    const input = h("select", { id, name: o.name, "aria-describedby": help },
      h("option", { value: "" }, defaultIndex >= 0 ? `(game default: ${choiceLabel(o, defaultIndex)})` : "(game default)"),
      o.choices.map((c, i) => h("option", { value: String(i), dataset: { value: typeof c === "string" ? c : JSON.stringify(c) } }, choiceLabel(o, i))));
    if (previous !== undefined) input.value = previous;
    inputs.push({ option: o, keep: () => input.value, value: () => (input.value === "" ? undefined : o.choices[Number(input.value)]) });
    return described([h("label", { for: id }, humanize(o.name)), input]);
  }
  // An option with no choices takes the player's own words (a name, a number).
  const input = h("input", { id, name: o.name, type: "text", placeholder: "game default", autocomplete: "off", "aria-describedby": help });
  if (previous !== undefined) input.value = previous;
  inputs.push({ option: o, keep: () => input.value, value: () => parseOption(input.value) });
  return described([h("label", { for: id }, humanize(o.name)), input]);
}

/** An option's text as typed: JSON if it parses ([1, 2], true, 3, "x"), else the text itself; empty = default. */
export function parseOption(text) {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  try { return JSON.parse(trimmed); } catch { return trimmed; }
}

const incompatible = (game, a, b) => {
  const ma = game.modules.find((m) => m.id === a);
  const mb = game.modules.find((m) => m.id === b);
  return Boolean((ma && ma.incompatibleWith.includes(b)) || (mb && mb.incompatibleWith.includes(a)));
};
const moduleName = (game, id) => (game.modules.find((m) => m.id === id) || { name: id }).name;

/** Take a seat (joinTable) with a join code or invitation, keep its token in this browser, and go to the table. */
export async function takeSeat(tableId, seat, name, alerts, code) {
  try {
    const data = await gql(JOIN, { t: tableId, s: seat, n: name || `Player ${seat + 1}`, c: code });
    const r = data.joinTable;
    if (r.__typename === "Rejected") {
      say(alerts, `${r.code}: ${r.message}`);
      return false;
    }
    storeSeat(tableId, r.seat, r.seatToken);
    navigate(`#/table/${encodeURIComponent(tableId)}`);
    return true;
  } catch (exc) {
    say(alerts, `${exc.code || "ERROR"}: ${exc.message}`);
    return false;
  }
}

export class Lobby {
  constructor(root) {
    this.root = root;
    this.timer = null;
    this.tablesSignature = null;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async start() {
    const nameId = newId("name");
    this.nameInput = h("input", {
      id: nameId, type: "text", maxlength: 40, autocomplete: "nickname", value: playerName(),
      placeholder: "e.g. Ada", oninput: (e) => setPlayerName(e.target.value.trim()),
    });
    this.alerts = h("div", { class: "alerts", role: "alert", "aria-live": "assertive" });
    this.form = h("form", { class: "create", "aria-labelledby": "create-heading", novalidate: true, onsubmit: (e) => { e.preventDefault(); this.create(); } });
    this.created = h("section", { id: "created", class: "panel", "aria-labelledby": "created-heading", hidden: true });
    this.tablesList = h("div", { class: "tables", "aria-live": "polite" });
    this.tablesAlerts = h("div", { class: "alerts", role: "alert" });
    fill(this.root, h("div", { class: "lobby" },
      h("h1", { tabindex: "-1" }, "Conclave lobby"),
      h("p", { class: "muted" }, "Create a table for any installed game, share a join link per seat, or take a free seat below. Each browser keeps its seat token, so a reload resumes the same seat."),
      h("section", { class: "panel", "aria-labelledby": "you-heading" },
        h("h2", { id: "you-heading" }, "You"),
        h("div", { class: "field" }, h("label", { for: nameId }, "Your name (shown to the other players)"), this.nameInput)),
      h("section", { class: "panel", "aria-labelledby": "create-heading" },
        h("h2", { id: "create-heading" }, "New table"), this.form),
      this.created,
      h("section", { class: "panel", "aria-labelledby": "tables-heading" },
        h("h2", { id: "tables-heading" }, "Open tables"),
        h("p", {}, h("button", { type: "button", class: "secondary", dataset: { focus: "refresh" }, onclick: () => this.refreshTables() }, "Refresh")),
        this.tablesAlerts, this.tablesList)));
    this.root.querySelector("h1").focus();
    try {
      this.games = await games();
      this.chosenSeeds = (await serverInfo()).chosenSeedsAllowed;
    } catch (exc) {
      say(this.alerts, `${exc.code}: ${exc.message}`);
      this.form.append(this.alerts);
      return;
    }
    this.buildForm();
    this.refreshTables();
  }

  // -- the new-table form ------------------------------------------------------------------
  buildForm() {
    const gameField = h("fieldset", { class: "games" }, h("legend", {}, "Game"),
      this.games.map((g, i) => {
        const id = newId("game");
        const players = g.minPlayers === g.maxPlayers ? `${g.minPlayers}` : `${g.minPlayers}–${g.maxPlayers}`;
        return h("div", { class: "choice" },
          h("input", { type: "radio", name: "game", id, value: g.id, checked: i === 0, "aria-describedby": `${id}-desc`, onchange: () => this.gameChanged() }),
          h("div", {}, h("label", { for: id }, h("strong", {}, g.name)),
            h("div", { id: `${id}-desc`, class: "muted" }, `${players} players. ${g.description}`)));
      }));
    this.playersId = newId("players");
    this.players = h("select", { id: this.playersId, name: "players", onchange: () => { this.updateModules(); this.renderOptions(); } });
    this.modulesBox = h("fieldset", { class: "modules" });
    this.optionsBox = h("fieldset", { class: "options" });
    // A chosen seed tells its chooser every shuffle: offered only where the server allows it
    // (tests, tournaments); elsewhere the server draws the seed.
    const seedId = newId("seed");
    this.seed = this.chosenSeeds
      ? h("input", { id: seedId, type: "number", name: "seed", inputmode: "numeric", step: 1, placeholder: "random", "aria-describedby": `${seedId}-help` })
      : null;
    fill(this.form,
      gameField,
      h("div", { class: "field" }, h("label", { for: this.playersId }, "Players"), this.players),
      this.modulesBox,
      this.optionsBox,
      this.seed ? h("div", { class: "field" }, h("label", { for: seedId }, "Seed (optional)"), this.seed,
        h("small", { id: `${seedId}-help`, class: "muted" }, "The same seed deals the same game. The table will say its creator chose it.")) : null,
      this.alerts,
      h("button", { type: "submit", class: "primary" }, "Create table"));
    this.gameChanged();
  }

  game() {
    const id = (this.form.querySelector("input[name=game]:checked") || {}).value;
    return this.games.find((g) => g.id === id) || this.games[0];
  }

  gameChanged() {
    const game = this.game();
    const was = Number(this.players.value) || 2;
    fill(this.players, ...Array.from({ length: game.maxPlayers - game.minPlayers + 1 }, (_, i) => {
      const n = game.minPlayers + i;
      return h("option", { value: n }, String(n));
    }));
    this.players.value = String(Math.min(game.maxPlayers, Math.max(game.minPlayers, was)));

    this.moduleBoxes = [];
    fill(this.modulesBox, h("legend", {}, "Modules"), game.modules.length ? null : h("p", { class: "muted" }, "This game has no optional modules."),
      game.modules.map((m) => {
        const id = newId("module");
        const reason = h("div", { class: "reason", id: `${id}-reason`, "aria-live": "polite" });
        const box = h("input", { type: "checkbox", id, name: "modules", value: m.id, "aria-describedby": `${id}-desc ${id}-reason`, onchange: () => this.updateModules() });
        this.moduleBoxes.push({ module: m, box, reason });
        const notes = [];
        if (m.incompatibleWith.length) notes.push(`Cannot be combined with ${m.incompatibleWith.map((x) => moduleName(game, x)).join(", ")}.`);
        if (m.discouragedWith.length) notes.push(`Not recommended with ${m.discouragedWith.map((x) => moduleName(game, x)).join(", ")}.`);
        if (m.minPlayers > game.minPlayers || m.maxPlayers < game.maxPlayers) {
          notes.push(`${Math.max(m.minPlayers, game.minPlayers)}–${Math.min(m.maxPlayers, game.maxPlayers)} players.`);
        }
        const description = m.description && !/[.!?]$/.test(m.description) ? `${m.description}.` : m.description;
        return h("div", { class: "choice" }, box,
          h("div", {}, h("label", { for: id }, h("strong", {}, m.name)),
            h("div", { id: `${id}-desc`, class: "muted" }, description, notes.length ? ` ${notes.join(" ")}` : ""),
            reason));
      }));

    this.renderOptions();
    this.updateModules();
  }

  /** The game's options as choices from its own metadata (never raw JSON): a select of named
   * choices, one select per seat ("per-seat"), a checkbox per seat ("seats"). Empty = the default. */
  renderOptions() {
    const game = this.game();
    const players = Number(this.players.value) || game.minPlayers;
    const kept = new Map((this.optionInputs || []).map((o) => [o.option.name, o.keep && o.keep()]));
    this.optionInputs = [];
    fill(this.optionsBox, h("legend", {}, "Options"), game.options.length ? null : h("p", { class: "muted" }, "No options."),
      game.options.map((o) => optionField(o, players, kept.get(o.name), this.optionInputs)));
  }

  /** Disable what the server would refuse: a module incompatible with a checked one, or outside its player counts. */
  updateModules() {
    const game = this.game();
    const players = Number(this.players.value);
    for (const entry of this.moduleBoxes) {
      const { module: m, box } = entry;
      if (players < m.minPlayers || players > m.maxPlayers) {
        box.checked = false;
      }
    }
    const checked = this.moduleBoxes.filter((e) => e.box.checked).map((e) => e.module.id);
    for (const { module: m, box, reason } of this.moduleBoxes) {
      const conflicts = checked.filter((other) => other !== m.id && incompatible(game, m.id, other));
      const outside = players < m.minPlayers || players > m.maxPlayers;
      box.disabled = !box.checked && (conflicts.length > 0 || outside);
      reason.textContent = conflicts.length
        ? `Unavailable: cannot be combined with ${conflicts.map((x) => moduleName(game, x)).join(", ")}.`
        : outside ? `Unavailable: needs ${Math.max(m.minPlayers, game.minPlayers)}–${Math.min(m.maxPlayers, game.maxPlayers)} players.` : "";
    }
  }

  async create() {
    const game = this.game();
    const input = {
      game: game.id,
      players: Number(this.players.value),
      modules: this.moduleBoxes.filter((e) => e.box.checked).map((e) => e.module.id),
      options: {},
    };
    for (const { option, value } of this.optionInputs) {
      const v = value();
      if (v !== undefined) input.options[option.name] = v;
    }
    if (this.seed && this.seed.value.trim() !== "") {
      const seed = Number(this.seed.value);
      if (!Number.isInteger(seed)) { say(this.alerts, "BAD_SEED: the seed must be a whole number."); this.seed.focus(); return; }
      input.seed = seed;
    }
    say(this.alerts, "");
    let result;
    try {
      result = (await gql(CREATE, { input })).createTable;
    } catch (exc) {
      say(this.alerts, `${exc.code}: ${exc.message}`);
      return;
    }
    if (result.__typename === "Rejected") {
      say(this.alerts, `${result.code}: ${result.message}`);
      return;
    }
    storeCode(result.table.id, result.joinCode);
    this.showCreated(result.table, game, result.joinCode);
    this.refreshTables();
  }

  showCreated(table, game, code) {
    const heading = h("h2", { id: "created-heading", tabindex: "-1" }, `Table ${table.id} created`);
    fill(this.created, heading,
      h("p", {}, `${game.name}, ${table.seats.length} seats. Send each player their seat's link (it carries the table's join code: share it only with them), or take a seat here.`),
      h("ul", { class: "seat-links" }, table.seats.map((s) => h("li", { dataset: { seat: s.seat } },
        copyableLink(`Join link for seat ${s.seat + 1}`, joinLink(table.id, s.seat, code)),
        h("button", { type: "button", class: "take", dataset: { seat: s.seat }, onclick: () => takeSeat(table.id, s.seat, this.nameInput.value.trim(), this.alerts, code) }, `Take seat ${s.seat + 1}`)))),
      h("p", {}, h("a", { href: `#/watch/${table.id}`, class: "button secondary" }, "Watch as spectator")));
    this.created.hidden = false;
    heading.focus();
  }

  // -- open tables -------------------------------------------------------------------------
  async refreshTables() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    try {
      const data = await gql(TABLES);
      say(this.tablesAlerts, "");
      this.renderTables([...data.open, ...data.playing]);
    } catch (exc) {
      say(this.tablesAlerts, `${exc.code}: ${exc.message}`);
    }
    if (!this.stopped) this.timer = setTimeout(() => this.refreshTables(), 5000);
  }

  renderTables(tables) {
    const signature = JSON.stringify(tables);
    if (signature === this.tablesSignature) return;
    this.tablesSignature = signature;
    const active = document.activeElement;
    const focusKey = active && this.tablesList.contains(active) ? active.dataset.focus : null;
    const gameName = (id) => (this.games.find((g) => g.id === id) || { name: id }).name;
    if (!tables.length) {
      fill(this.tablesList, h("p", { class: "muted" }, "No open or running tables yet."));
      return;
    }
    fill(this.tablesList, h("ul", { class: "table-list" }, tables.map((t) => {
      const mine = storedSeat(t.id);
      const code = storedCode(t.id); // seats are taken with the join code: only its holders see the buttons
      const free = code ? t.seats.filter((s) => !s.taken) : [];
      return h("li", { dataset: { table: t.id, status: t.status } },
        h("h3", {}, `${gameName(t.game)} `, h("small", { class: "muted" }, t.id)),
        h("p", {}, `${humanize(t.status)}${t.status === "playing" ? `, round ${t.phase.round}, version ${t.version}` : ""}`,
          t.modules.length ? ` · modules: ${t.modules.join(", ")}` : "",
          ` · seats: ${t.seats.map((s) => (s.taken ? `${s.seat + 1} ${s.name || "taken"}` : `${s.seat + 1} free`)).join(", ")}`),
        h("div", { class: "row" },
          mine ? h("a", { href: `#/table/${t.id}`, class: "button", dataset: { focus: `mine-${t.id}` } }, `Your seat (${mine.seat + 1})`) : null,
          !mine ? free.map((s) => h("button", {
            type: "button", class: "take", dataset: { seat: s.seat, focus: `take-${t.id}-${s.seat}` },
            onclick: () => takeSeat(t.id, s.seat, this.nameInput.value.trim(), this.tablesAlerts, code),
          }, `Take seat ${s.seat + 1}`)) : null,
          !mine && !code && t.seats.some((s) => !s.taken) ? h("span", { class: "muted" }, "Seats: with the host's join link") : null,
          h("a", { href: `#/watch/${t.id}`, class: "button secondary", dataset: { focus: `watch-${t.id}` } }, "Watch")));
    })));
    if (focusKey) {
      const again = this.tablesList.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }
}

/** #/join/<table>/<seat>: the page a shared join link opens. */
export class JoinPage {
  constructor(root, tableId, seat, code) {
    Object.assign(this, { root, tableId, seat, code });
  }

  stop() {}

  async start() {
    const seat = this.seat;
    const alerts = h("div", { class: "alerts", role: "alert", "aria-live": "assertive" });
    const nameId = newId("name");
    const name = h("input", { id: nameId, type: "text", maxlength: 40, autocomplete: "nickname", value: playerName() || `Player ${seat + 1}` });
    const mine = storedSeat(this.tableId);
    const heading = h("h1", { tabindex: "-1" }, `Join table ${this.tableId}, seat ${seat + 1}`);
    const parts = [heading];
    if (mine && mine.seat === seat) {
      navigate(`#/table/${encodeURIComponent(this.tableId)}`);
      return;
    }
    if (mine) {
      parts.push(h("p", { class: "notice warning" }, `This browser already holds seat ${mine.seat + 1} at this table. Taking seat ${seat + 1} replaces it here (use another browser or a private window to play two seats on one machine). `,
        h("a", { href: `#/table/${this.tableId}` }, `Go to seat ${mine.seat + 1}`)));
    }
    parts.push(h("form", {
      class: "panel join", onsubmit: (e) => {
        e.preventDefault();
        setPlayerName(name.value.trim());
        if (this.code) storeCode(this.tableId, this.code); // this browser may then take a seat again if it leaves
        takeSeat(this.tableId, seat, name.value.trim(), alerts, this.code || storedCode(this.tableId));
      },
    },
    h("div", { class: "field" }, h("label", { for: nameId }, "Your name"), name),
    alerts,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary take" }, `Take seat ${seat + 1}`),
      h("a", { href: `#/watch/${this.tableId}`, class: "button secondary" }, "Watch instead"),
      h("a", { href: "#/", class: "button secondary" }, "Lobby"))));
    fill(this.root, ...parts);
    heading.focus();
  }
}
