// The table view: header, seats, the viewer's prompts, public standing, private information,
// the log and the whole state, kept current by the `tableUpdates` subscription.

import { ACT, CAMPAIGN, JOIN, LOG_AFTER, LiveSubscription, NEXT_GAME, TABLE, TABLE_ONLY, UPDATES, ApiError, games, gql } from "./api.js";
import { promptsPanel } from "./actions.js";
import { describeEntry, drawsTable, helpers, loadViews, renderViews } from "./views.js";
import {
  Names, copyableLink, filledEntries, fill, forgetSeat, h, humanize, isScalar, joinLink, navigate, playerName, say, storeCode, storeSeat, storedCode,
  storedSeat, tree,
} from "./ui.js";

const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every list in the state whose items are objects with a "seat" (the per-seat records). */
export function seatLists(state, path = []) {
  const found = [];
  if (Array.isArray(state)) {
    if (state.length && state.every((item) => isPlainObject(item) && Number.isInteger(item.seat))) {
      found.push({ path, items: state });
      return found;
    }
    state.forEach((item, i) => { if (!isScalar(item)) found.push(...seatLists(item, [...path, String(i)])); });
  } else if (isPlainObject(state)) {
    for (const [key, value] of Object.entries(state)) {
      if (path.length === 0 && key === "prompts") continue; // the kernel's prompts: shown as controls
      if (!isScalar(value)) found.push(...seatLists(value, [...path, key]));
    }
  }
  return found;
}

const pathLabel = (path) => path.map((p) => humanize(p)).join(" › ") || "State";

/** Columns of a standing table: scalar fields, one level of objects of scalars, lists as counts. */
function standingColumns(items) {
  const columns = [];
  const add = (column) => { if (!columns.some((c) => c.id === column.id)) columns.push(column); };
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (key === "seat") continue;
      if (isScalar(value)) add({ id: key, label: humanize(key), get: (it) => it[key], key });
      else if (Array.isArray(value)) add({ id: key, label: humanize(key), get: (it) => it[key], key, list: true });
      else if (isPlainObject(value) && Object.values(value).every(isScalar)) {
        for (const sub of Object.keys(value)) {
          add({ id: `${key}.${sub}`, label: `${humanize(key)}: ${humanize(sub).toLowerCase()}`, get: (it) => (isPlainObject(it[key]) ? it[key][sub] : undefined), key: sub });
        }
      }
    }
  }
  return columns;
}

function standingTable(list, names, viewer) {
  const columns = standingColumns(list.items);
  const caption = pathLabel(list.path);
  return h("div", { class: "scroll", role: "region", "aria-label": caption, tabindex: "0" },
    h("table", { class: "standing" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), columns.map((c) => h("th", { scope: "col" }, c.label)))),
      h("tbody", {}, list.items.map((item) => h("tr", { class: item.seat === viewer ? "you" : null },
        h("th", { scope: "row" }, names.seat(item.seat), item.seat === viewer ? h("span", { class: "badge" }, "you") : null),
        columns.map((c) => {
          const value = c.get(item);
          if (value === undefined) return h("td", {});
          if (Array.isArray(value)) return h("td", { title: `a list of ${value.length}` }, `[${value.length}]`);
          return h("td", {}, names.node(value, c.key));
        }))))));
}

/** Replace a container's children, keeping keyboard focus on the "same" control if it is still there. */
function replaceKeepingFocus(container, children, fallback = null) {
  const active = document.activeElement;
  const hadFocus = active && container.contains(active);
  const key = hadFocus ? active.dataset.focus : null;
  fill(container, ...children);
  if (!hadFocus) return;
  const again = key ? container.querySelector(`[data-focus="${CSS.escape(key)}"]`) : null;
  if (again) again.focus();
  else if (fallback) (typeof fallback === "function" ? fallback() : fallback)?.focus();
}

/** One event in words: its seat first when it has one ("Seat 2 (Bob): Rolled ⚃ 4"). */
function eventLine(event, names) {
  const data = isPlainObject(event.data) ? { ...event.data } : event.data;
  let who = "";
  if (isPlainObject(data) && Number.isInteger(data.seat)) {
    who = `${names.seat(data.seat)}: `;
    delete data.seat;
  }
  const params = names.params(data);
  const single = isPlainObject(data) && filledEntries(data).length === 1;
  return `${who}${humanize(event.type)}${params ? `${single ? " " : ": "}${params}` : ""}`;
}

export class TableView {
  constructor(root, tableId, { spectate = false } = {}) {
    this.root = root;
    this.tableId = tableId;
    this.stored = storedSeat(tableId);
    this.spectate = spectate || !this.stored;
    this.token = this.spectate ? null : this.stored.token;
    this.table = null;
    this.lastVersion = 0; // the last log version applied (subscriptions resume after it)
    this.logVersions = new Set();
    this.glossary = {};
    this.open = new Set();
    this.busy = false;
    this.actionsSignature = null;
    this.queue = Promise.resolve();
    this.pollTimer = null;
    this.gameName = tableId;
    this.subscription = null;
    this.views = null; // the game's and its modules' client views (views.js), once loaded
    this.memories = new Map(); // each view's own UI state, kept between renders
  }

  names() {
    return new Names(this.glossary, this.table ? this.table.seats : [], this.table ? this.table.viewer : null);
  }

  async start() {
    this.build();
    let data;
    try {
      data = await gql(TABLE, { t: this.tableId }, this.token);
    } catch (exc) {
      if (exc.code !== "UNAUTHORIZED" || !this.token) {
        this.fail(exc);
        return;
      }
      // the server knows this browser's token no more (e.g. an expired table): the public view, saying so
      this.refusedToken = true;
      this.token = null;
      try {
        data = await gql(TABLE, { t: this.tableId });
      } catch (again) {
        this.fail(again);
        return;
      }
    }
    if (this.stopped) return; // the reader went elsewhere meanwhile
    if (!data.table) {
      this.el.heading.textContent = "No such table";
      say(this.el.alerts, `NOT_FOUND: there is no table ${this.tableId}.`);
      return;
    }
    let game = null;
    try {
      game = (await games()).find((g) => g.id === data.table.game) || null;
      if (game) this.gameName = game.name;
    } catch { /* the id will do */ }
    this.views = await loadViews(game, data.table.modules || []);
    for (const failed of this.views.failed) say(this.el.alerts, `VIEW_FAILED: ${failed}; the generic view is shown instead.`);
    if (this.stopped) return;
    if (drawsTable(this.views)) this.layoutForView();
    const log = data.table.log || [];
    this.applyTable(data.table);
    for (const entry of log) this.addLog(entry);
    this.lastVersion = Math.max(0, ...log.map((e) => e.version));
    this.view.dataset.logVersion = this.lastVersion;
    if (this.stopped) return;
    this.subscription = new LiveSubscription({
      query: UPDATES,
      token: this.token,
      variables: () => ({ t: this.tableId, after: this.lastVersion }),
      onNext: (d) => { this.queue = this.queue.then(() => this.onUpdate(d.tableUpdates)).catch((e) => console.error(e)); },
      onStatus: (state, detail) => this.connection(state, detail),
      onDone: () => this.table && this.table.status === "finished",
    });
    if (this.table.status !== "finished") this.subscription.start();
    else this.connection("done");
    this.poll();
    window.conclave = { view: this, drop: () => this.subscription && this.subscription.drop() };
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    clearInterval(this.clockTimer);
    if (this.subscription) this.subscription.stop();
  }

  /** While seats are free the game has not started, and joins are not logged: look again now and then. */
  poll() {
    clearTimeout(this.pollTimer);
    if (this.stopped || !this.table || this.table.status !== "open") return;
    this.pollTimer = setTimeout(async () => {
      try {
        const data = await gql(TABLE_ONLY, { t: this.tableId }, this.token);
        if (data.table) this.applyTable(data.table);
      } catch { /* try again */ }
      this.poll();
    }, 1000);
  }

  async onUpdate(update) {
    if (update.version <= this.lastVersion) return; // already applied (a replay after reconnecting)
    if (update.version > this.lastVersion + 1) {
      // A gap should not happen (afterVersion replays everything); fill it from the log if it does.
      const data = await gql(LOG_AFTER, { t: this.tableId, after: this.lastVersion }, this.token);
      for (const entry of (data.table && data.table.log) || []) {
        if (entry.version > this.lastVersion && entry.version < update.version) {
          this.addLog(entry);
          this.lastVersion = entry.version;
        }
      }
    }
    this.addLog({ version: update.version, seat: null, action: null, events: update.events, glossary: update.glossary });
    this.lastVersion = update.version;
    this.view.dataset.logVersion = this.lastVersion;
    this.applyTable(update.table);
  }

  fail(exc) {
    say(this.el.alerts, `${exc.code || "ERROR"}: ${exc.message}`);
  }

  connection(state, detail = "") {
    const text = {
      connecting: "Connecting…", live: "Live", reconnecting: "Connection lost, reconnecting…",
      error: "Live updates failed, retrying…", done: "Game over: no more updates",
    }[state] || state;
    this.el.connection.textContent = state === "error" && detail ? `${text} (server said: ${detail})` : text;
    this.el.connection.title = detail || "";
    this.el.connection.dataset.state = state;
  }

  // -- layout ------------------------------------------------------------------------------
  build() {
    const section = (id, title) => {
      const heading = h("h2", { id: `${id}-heading`, tabindex: "-1" }, title);
      const body = h("div", { class: "body" });
      const el = h("section", { id, class: "panel", "aria-labelledby": `${id}-heading` }, heading, body);
      return { el, body, heading };
    };
    this.el = {
      heading: h("h1", { tabindex: "-1" }, "Table"),
      meta: h("p", { class: "meta" }),
      phase: h("p", { class: "phase" }),
      turn: h("p", { class: "turn" }),
      connection: h("span", { class: "connection", role: "status" }, "Connecting…"),
      warnings: h("div", { class: "warnings" }),
      alerts: h("div", { class: "alerts", role: "alert", "aria-live": "assertive" }),
      you: h("div", { class: "you-bar" }),
      actions: h("section", { id: "actions", class: "panel actions", "aria-labelledby": "actions-heading" }),
      seats: section("seats", "Seats"),
      standing: section("standing", "Standing"),
      private: section("private", "Your private information"),
      log: section("log", "Log"),
      state: section("state", "Readable state"),
      result: section("result", "Result"),
      campaign: section("campaign", "Campaign"),
    };
    this.el.logList = h("ol", { class: "log", dataset: { focus: "log" } });
    this.el.log.body.append(h("div", { class: "log-box", tabindex: "0", role: "log", "aria-label": "Game log" }, this.el.logList));
    this.el.result.el.hidden = true;
    this.el.campaign.el.hidden = true;
    this.view = h("div", { class: "table-view", dataset: { table: this.tableId } },
      h("header", { class: "table-header" }, this.el.heading, this.el.meta, this.el.phase, this.el.turn,
        h("p", {}, this.el.connection), this.el.warnings),
      this.el.alerts,
      this.el.you,
      h("div", { class: "columns" },
        h("div", { class: "col main-col" }, this.el.actions, this.el.result.el, this.el.campaign.el, this.el.private.el,
          this.el.standing.el),
        h("div", { class: "col side-col" }, this.el.seats.el, this.el.log.el)),
      this.el.state.el);
    fill(this.root, this.view);
    this.el.heading.focus();
  }

  /** A game with a view: its table on top, the generic sections (standing, private, the whole
   * state) folded into one "Details" box below; the prompts panel stays as the fallback controls. */
  layoutForView() {
    this.el.board = h("section", { id: "board", class: "panel board", "aria-label": "Table" });
    const details = h("details", { class: "panel details", id: "details" },
      h("summary", {}, "Details: every seat's standing and the whole state as text"),
      this.el.standing.el, this.el.private.el, this.el.state.el);
    this.view.querySelector(".columns").before(this.el.board);
    this.view.append(details);
    this.view.classList.add("has-view");
  }

  /** What a view's render and describe get (views.js documents it). */
  viewContext(names) {
    const t = this.table;
    return {
      table: t, state: t ? t.stateJson : null, viewer: t ? t.viewer : null, names,
      legal: (t && t.legalActions) || [], memories: this.memories,
      act: (option) => this.act(option),
      rerender: () => this.renderBoard(this.names()),
      busy: this.busy,
      ...helpers,
    };
  }

  renderBoard(names) {
    if (!this.el.board || !this.table) return;
    const active = document.activeElement;
    const key = active && this.el.board.contains(active) ? active.dataset.focus : null;
    renderViews(this.el.board, this.views, this.viewContext(names), (where, error) => {
      console.error(error);
      say(this.el.alerts, `VIEW_FAILED: the ${where} view could not draw this table (${error.message}); the details below show it.`);
    });
    if (key) this.el.board.querySelector(`[data-focus="${CSS.escape(key)}"]`)?.focus();
  }

  // -- state -------------------------------------------------------------------------------
  applyTable(table) {
    if (this.table && table.version < this.table.version) return; // older than what is shown
    const previous = this.table;
    this.table = table;
    this.clocksAt = performance.now(); // remainingMs is as of the server's answer: count down from here
    Object.assign(this.glossary, table.glossary || {});
    // The same version again (an act's answer, then the subscription's update): nothing new to draw.
    if (previous && previous.version === table.version && previous.status === table.status
        && JSON.stringify(previous.seats) === JSON.stringify(table.seats)) return;
    this.render(previous);
    if (table.status === "open") { if (!this.pollTimer) this.poll(); }
  }

  addLog(entry) {
    if (this.logVersions.has(entry.version)) return;
    this.logVersions.add(entry.version);
    Object.assign(this.glossary, entry.glossary || {});
    const names = this.names();
    const said = this.views ? describeEntry(this.views, entry, this.viewContext(names)) : null;
    if (said !== null) {
      this.insertLog(h("li", { dataset: { version: entry.version } }, h("span", { class: "line" }, said)), entry.version);
      return;
    }
    const events = Array.isArray(entry.events) ? entry.events : [];
    const acted = events.find((e) => e && e.type === "action");
    const data = (acted && acted.data) || {};
    const seat = Number.isInteger(entry.seat) ? entry.seat : data.seat;
    const action = entry.action || data.action;
    const who = Number.isInteger(seat) ? names.seat(seat) : "Table";
    const what = action
      ? `${humanize(action.type)}${names.params(action.params) ? `: ${names.params(action.params)}` : ""}`
      : acted ? `${humanize(data.prompt || "acts")} (details hidden)` : "";
    const rest = events.filter((e) => e && e !== acted);
    const li = h("li", { dataset: { version: entry.version } },
      h("span", { class: "line" }, `${who}${what ? `: ${what}` : ""}`),
      rest.length ? h("ul", { class: "events" }, rest.map((e) => h("li", {}, eventLine(e, names)))) : null);
    this.insertLog(li, entry.version);
  }

  /** Keep the list in version order even if an entry comes late; follow the bottom if the reader is there. */
  insertLog(li, version) {
    const after = [...this.el.logList.children].find((c) => Number(c.dataset.version) > version);
    const box = this.el.logList.parentElement;
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    this.el.logList.insertBefore(li, after || null);
    if (atBottom) box.scrollTop = box.scrollHeight;
  }

  // -- rendering ---------------------------------------------------------------------------
  render(previous) {
    const t = this.table;
    const names = this.names();
    const viewer = t.viewer;
    Object.assign(this.view.dataset, { version: t.version, status: t.status, viewer: viewer === null ? "" : viewer });

    this.el.heading.textContent = this.gameName;
    fill(this.el.meta, `Table ${t.id}`, t.modules.length ? ` · modules: ${t.modules.join(", ")}` : " · no modules");
    const phase = [t.phase.name && humanize(t.phase.name), t.phase.step && humanize(t.phase.step)].filter(Boolean).join(" / ");
    fill(this.el.phase,
      h("span", { class: "status", dataset: { status: t.status } }, humanize(t.status)),
      ` · Phase: ${phase || "—"} · Round ${t.phase.round} · Version `, h("span", { class: "version" }, String(t.version)));
    const active = t.activeSeats.map((s) => names.seat(s) + (s === viewer ? " (you)" : ""));
    const mine = viewer !== null && t.activeSeats.includes(viewer) && t.status === "playing";
    fill(this.el.turn,
      mine ? h("strong", { class: "your-turn" }, "Your turn. ") : null,
      t.status === "playing" ? `To act: ${active.join(", ") || "nobody"}` : t.status === "open" ? "Waiting for players to take the free seats." : "The game is over.");
    fill(this.el.warnings, ...(t.warnings || []).map((w) => h("p", { class: "notice warning" }, `Note: ${w}`)));

    this.renderYou(names);
    this.renderActions(names, previous);
    this.renderSeats(names);
    this.renderStanding(names);
    this.renderState(names);
    this.renderBoard(names);
    if (t.status === "finished" && t.result !== null && t.result !== undefined) {
      this.el.result.el.hidden = false;
      replaceKeepingFocus(this.el.result.body, [tree(t.result, names, { open: this.open, path: "result", label: "Result", openDefault: true })]);
    }
    if (t.status === "finished" && t.campaignId && !this.campaignShown) this.renderCampaign(names);
  }

  /** A finished game of a campaign: its standings, and the group's next game (any campaign game). */
  async renderCampaign(names) {
    this.campaignShown = true;
    const t = this.table;
    let campaign;
    try {
      campaign = (await gql(CAMPAIGN, { c: t.campaignId })).campaign;
    } catch (exc) {
      say(this.el.alerts, `${exc.code || "ERROR"}: ${exc.message}`);
      return;
    }
    if (!campaign) return;
    const body = this.el.campaign.body;
    const next = h("div", { class: "next-game" });
    fill(body,
      h("p", {}, `Campaign ${campaign.id}: ${campaign.sessions} game(s) played, ${campaign.status}.`),
      tree(campaign.standings, names, { open: this.open, path: "campaign", label: "Standings", openDefault: true }),
      next);
    if (campaign.status !== "finished") {
      fill(next, h("button", { type: "button", class: "next", onclick: () => this.startNextGame(next) }, "Start the campaign's next game"));
    }
    this.el.campaign.el.hidden = false;
  }

  async startNextGame(container) {
    let result;
    try {
      result = (await gql(NEXT_GAME, { c: this.table.campaignId })).startNextGame;
    } catch (exc) {
      say(this.el.alerts, `${exc.code || "ERROR"}: ${exc.message}`);
      return;
    }
    if (result.__typename === "Rejected") {
      say(this.el.alerts, `${result.code}: ${result.message}`);
      return;
    }
    const table = result.table;
    const mine = this.table.viewer;
    storeCode(table.id, result.joinCode);
    fill(container,
      h("p", {}, `Next game: table ${table.id}. Each player takes the same seat again (the links carry its join code):`),
      h("ul", { class: "seat-links" }, table.seats.map((s) => h("li", {},
        copyableLink(`Join link for seat ${s.seat + 1}`, joinLink(table.id, s.seat, result.joinCode))))),
      mine !== null && mine !== undefined
        ? h("a", { href: joinLink(table.id, mine, result.joinCode).replace(/^[^#]*/, ""), class: "button" }, `Take seat ${mine + 1} in the next game`)
        : h("a", { href: `#/watch/${table.id}`, class: "button secondary" }, "Watch the next game"));
  }

  renderYou(names) {
    const t = this.table;
    const parts = [];
    if ((this.token || this.refusedToken) && t.viewer === null) {
      parts.push(h("p", { class: "notice error" },
        "The seat token stored in this browser was not accepted for this table; you see the public view. ",
        h("button", { type: "button", class: "secondary", onclick: () => { forgetSeat(this.tableId); navigate(`#/table/${this.tableId}`); } }, "Forget it")));
    } else if (t.viewer !== null && t.viewer !== undefined) {
      parts.push(h("p", {}, "You are ", h("strong", { class: "you-are" }, names.seat(t.viewer)), ". "),
        h("div", { class: "row" },
          h("a", { href: `#/watch/${t.id}`, class: "button secondary" }, "Watch as spectator"),
          h("button", {
            type: "button", class: "secondary",
            onclick: () => {
              if (window.confirm("Leave this seat? The seat token is removed from this browser; only the join link's owner can take the seat again with a new token if it is free.")) {
                forgetSeat(this.tableId);
                navigate(`#/watch/${t.id}`);
              }
            },
          }, "Leave seat (forget token)")));
    } else {
      parts.push(h("p", {}, "You are watching as a spectator. "));
      if (this.stored) parts.push(h("p", {}, h("a", { href: `#/table/${t.id}`, class: "button" }, `Back to your seat (${names.seat(this.stored.seat)})`)));
    }
    parts.push(h("p", {}, h("a", { href: "#/" }, "← Lobby")));
    fill(this.el.you, ...parts);
  }

  renderActions(names) {
    const t = this.table;
    const signature = JSON.stringify([t.status, t.viewer, t.prompts, t.legalActions, t.activeSeats, t.seats, t.canUndo]);
    if (signature === this.actionsSignature) return;
    this.actionsSignature = signature;
    const panel = promptsPanel(t, names, (option) => this.act(option));
    if (t.canUndo && t.status === "playing") { // the server judged it: own last action, no chance, nothing revealed
      panel.push(h("p", { class: "take-back" }, h("button", {
        type: "button", class: "undo", dataset: { action: "undo" },
        onclick: () => this.act({ type: "undo", params: {} }),
      }, "Take back my last action")));
    }
    replaceKeepingFocus(this.el.actions, panel, () => this.el.actions.querySelector("h2"));
  }

  renderSeats(names) {
    const t = this.table;
    const seated = t.viewer !== null && t.viewer !== undefined;
    const code = storedCode(t.id); // without the join code this browser can neither take nor share a seat
    const clocks = t.clocks || [];
    const list = h("ul", { class: "seats" }, t.seats.map((s) => {
      const you = s.seat === t.viewer;
      const activeNow = t.status === "playing" && t.activeSeats.includes(s.seat);
      const clock = clocks.find((c) => c.seat === s.seat);
      return h("li", { class: [you ? "you" : "", activeNow ? "active" : ""].join(" "), dataset: { seat: s.seat } },
        h("span", { class: "seat-name" }, names.seat(s.seat)),
        " ", s.taken ? h("span", { class: "badge" }, "taken") : h("span", { class: "badge free" }, "free"),
        activeNow ? h("span", { class: "badge active", title: "this seat is to act" }, "● to act") : null,
        you ? h("span", { class: "badge you" }, "you") : null,
        clock && clock.timed ? h("span", {
          class: `clock${clock.running ? " running" : ""}`, dataset: { seat: s.seat, remaining: clock.remainingMs },
          "aria-label": `${names.seat(s.seat)}'s time left`,
        }, clockText(clock.remainingMs)) : null,
        clock && clock.away
          ? (clock.skipped
            ? h("span", { class: "badge away", title: "the game goes on without this seat, as its rules treat an absent player" }, "away: skipped")
            : h("span", { class: "badge away", title: "a server-side bot plays for this seat" }, "away: a bot plays"))
          : null,
        clock && clock.away && you && t.status === "playing"
          ? h("button", { type: "button", class: "resume", onclick: () => this.act({ type: "resume", params: {} }) },
            "Take my seat back")
          : null,
        !s.taken && code && !seated && !this.stored
          ? h("div", {},
            h("button", { type: "button", onclick: () => this.join(s.seat, code) }, `Take seat ${s.seat + 1}`),
            copyableLink(`Join link for seat ${s.seat + 1}`, joinLink(t.id, s.seat, code)))
          : !s.taken && code ? copyableLink(`Join link for seat ${s.seat + 1}`, joinLink(t.id, s.seat, code)) : null);
    }));
    replaceKeepingFocus(this.el.seats.body, [list, h("p", {}, h("a", { href: `#/watch/${t.id}` }, "Spectator link"))]);
    clearInterval(this.clockTimer);
    if (clocks.some((c) => c.running) && t.status === "playing") this.clockTimer = setInterval(() => this.tickClocks(), 500);
  }

  /** Count the running clocks down between the server's answers (the server's times decide). */
  tickClocks() {
    const gone = performance.now() - this.clocksAt;
    for (const el of this.root.querySelectorAll(".clock.running")) {
      el.textContent = clockText(Math.max(0, Number(el.dataset.remaining) - gone));
    }
  }

  renderStanding(names) {
    const t = this.table;
    const lists = seatLists(t.stateJson);
    replaceKeepingFocus(this.el.standing.body, lists.length
      ? [h("p", { class: "muted" }, "Each seat's public standing ([n] = a list of n)."), ...lists.map((l) => standingTable(l, names, t.viewer))]
      : [h("p", { class: "muted" }, "This game's state has no per-seat records.")]);
    const own = t.viewer === null || t.viewer === undefined ? [] : lists
      .map((l) => ({ path: l.path, item: l.items.find((i) => i.seat === t.viewer) }))
      .filter((x) => x.item);
    replaceKeepingFocus(this.el.private.body, own.length
      ? own.map(({ path, item }) => tree(item, names, {
        open: this.open, path: `private/${path.join("/")}`, label: `${pathLabel(path)}: ${names.seat(t.viewer)}`, showText: true, openDefault: true,
      }))
      : [h("p", { class: "muted" }, t.viewer === null || t.viewer === undefined ? "Spectators hold no private information." : "Nothing private in this view.")]);
  }

  renderState(names) {
    replaceKeepingFocus(this.el.state.body, [
      h("p", { class: "muted" }, "The whole state as you may see it. Names stand for ids (hover or focus a name for its text; the id is shown small)."),
      tree(this.table.stateJson, names, { open: this.open, path: "$", label: "State", openDefault: true }),
    ]);
  }

  // -- acting ------------------------------------------------------------------------------
  async act(option) {
    if (this.busy) return;
    this.busy = true;
    this.el.actions.setAttribute("aria-busy", "true");
    for (const control of this.el.actions.querySelectorAll("button, select, input")) control.disabled = true;
    for (const control of this.el.board ? this.el.board.querySelectorAll("button, select, input") : []) control.disabled = true;
    say(this.el.alerts, "");
    let accepted = false;
    try {
      const data = await gql(ACT, { t: this.tableId, a: { type: option.type, params: option.params }, v: this.table.version }, this.token);
      const result = data.act;
      if (result.__typename === "ActRejected") {
        say(this.el.alerts, `${result.code}: ${result.message}`);
        const fresh = await gql(TABLE_ONLY, { t: this.tableId }, this.token);
        if (fresh.table) this.applyTable(fresh.table);
      } else {
        accepted = true;
        this.applyTable(result.table);
      }
    } catch (exc) {
      this.fail(exc instanceof ApiError ? exc : new ApiError("ERROR", String(exc)));
    } finally {
      this.busy = false;
      this.el.actions.removeAttribute("aria-busy");
      this.actionsSignature = null; // re-enable: draw the controls again from the newest table
      if (this.table) { this.renderActions(this.names()); this.renderBoard(this.names()); }
    }
    return accepted;
  }

  async join(seat, code) {
    const name = playerName() || `Player ${seat + 1}`;
    try {
      const data = await gql(JOIN, { t: this.tableId, s: seat, n: name, c: code });
      const r = data.joinTable;
      if (r.__typename === "Rejected") { say(this.el.alerts, `${r.code}: ${r.message}`); return; }
      storeSeat(this.tableId, r.seat, r.seatToken);
      navigate(`#/table/${this.tableId}`);
    } catch (exc) {
      this.fail(exc);
    }
  }
}

/** 75_300 ms -> "1:15" (whole seconds left, rounded up: 0:00 only when the time is out). */
export function clockText(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
