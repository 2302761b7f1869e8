// Talking to the Conclave server: GraphQL over HTTP (fetch) and the `graphql-transport-ws`
// subscription protocol over a WebSocket. Nothing here knows about any particular game.

export const HTTP_URL = new URL("/graphql", location.href).href;
export const WS_URL = HTTP_URL.replace(/^http/, "ws");

/** An error the server (or the network) reported, with a code to show the user. */
export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** One GraphQL request. `token` (a seat token) goes in the Authorization header. */
export async function gql(query, variables = {}, token = null) {
  const headers = { "content-type": "application/json", accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(HTTP_URL, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  } catch (exc) {
    throw new ApiError("NETWORK", `the server could not be reached (${exc.message})`);
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`HTTP_${response.status}`, response.statusText || "the server sent no JSON");
  }
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    const code = (first.extensions && first.extensions.code) || (response.ok ? "GRAPHQL_ERROR" : `HTTP_${response.status}`);
    throw new ApiError(code, body.errors.map((e) => e.message).join("; "));
  }
  return body.data;
}

/** The fields of a table this client shows (the generic part of the API only). */
export const TABLE_FIELDS = `fragment TableFields on Table {
  id game modules warnings status version viewer
  phase { name step round }
  activeSeats
  seats { seat name taken }
  prompts { id seat kind blocking text freeText options { type params } }
  legalActions { type params } canUndo
  clocks { seat remainingMs running away timed skipped }
  result stateJson glossary campaignId
}`;

export const GAMES = `{ serverInfo { chosenSeedsAllowed } games { id name description minPlayers maxPlayers clientView
  options { name default choices labels shape items itemLabels description }
  modules { id name description minPlayers maxPlayers incompatibleWith discouragedWith clientView } } }`;

export const CREATE = `mutation($input: CreateTableInput!) { createTable(input: $input) {
  __typename
  ... on CreateTableOk { joinCode table { id game seats { seat taken } } }
  ... on Rejected { code message } } }`;

export const JOIN = `mutation($t: String!, $s: Int!, $n: String!, $c: String) { joinTable(tableId: $t, seat: $s, name: $n, code: $c) {
  __typename ... on JoinOk { seat seatToken } ... on Rejected { code message } } }`;

export const TABLES = `query { open: tables(status: "open") { ...Row } playing: tables(status: "playing") { ...Row } }
fragment Row on Table { id game modules status version phase { round } seats { seat name taken } }`;

export const TABLE = `query($t: String!) { table(id: $t) { ...TableFields
  log(afterVersion: 0) { version seat action { type params } events glossary } } } ${TABLE_FIELDS}`;

export const TABLE_ONLY = `query($t: String!) { table(id: $t) { ...TableFields } } ${TABLE_FIELDS}`;

export const LOG_AFTER = `query($t: String!, $after: Int!) { table(id: $t) {
  log(afterVersion: $after) { version seat action { type params } events glossary } } }`;

export const ACT = `mutation($t: String!, $a: ActionInput!, $v: Int) { act(tableId: $t, action: $a, expectedVersion: $v) {
  __typename
  ... on ActOk { version table { ...TableFields } }
  ... on ActRejected { code message } } } ${TABLE_FIELDS}`;

export const UPDATES = `subscription($t: String!, $after: Int!) { tableUpdates(tableId: $t, afterVersion: $after) {
  version events glossary table { ...TableFields } } } ${TABLE_FIELDS}`;

let gamesCache = null;
function gamesQuery() {
  if (!gamesCache) gamesCache = gql(GAMES).catch((exc) => { gamesCache = null; throw exc; });
  return gamesCache;
}
/** The installed games (asked once per page load). */
export async function games() {
  return (await gamesQuery()).games;
}
/** What the server allows, e.g. `chosenSeedsAllowed` (asked with the games). */
export async function serverInfo() {
  return (await gamesQuery()).serverInfo;
}

/**
 * A `graphql-transport-ws` subscription that survives lost connections: on close or error it
 * reconnects with backoff and subscribes again with the variables `variables()` gives then
 * (the caller answers with afterVersion = the last version it applied, so nothing is missed).
 */
export class LiveSubscription {
  constructor({ query, variables, token, onNext, onStatus, onDone }) {
    Object.assign(this, { query, variables, token, onNext, onStatus, onDone });
    this.socket = null;
    this.stopped = false;
    this.attempt = 0;
    this.timer = null;
    this.nextId = 0;
    this.currentId = null;
    this.lastError = null;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) {
      try { this.socket.close(1000, "leaving"); } catch { /* already closed */ }
    }
    this.socket = null;
  }

  /** Drop the connection now and reconnect as after a network failure (for tests and debugging). */
  drop() {
    if (this.socket) this.socket.close(4000, "dropped by the client");
  }

  status(state, detail = "") {
    if (this.onStatus) this.onStatus(state, detail);
  }

  connect() {
    if (this.stopped) return;
    this.status(this.attempt ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(WS_URL, "graphql-transport-ws");
    } catch (exc) {
      this.retry(String(exc));
      return;
    }
    this.socket = socket;
    const send = (message) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
    socket.addEventListener("open", () => {
      send({ type: "connection_init", payload: this.token ? { Authorization: `Bearer ${this.token}` } : {} });
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      switch (message.type) {
        case "connection_ack":
          this.currentId = String(++this.nextId);
          send({ id: this.currentId, type: "subscribe", payload: { query: this.query, variables: this.variables() } });
          this.status("live");
          break;
        case "ping":
          send({ type: "pong", payload: message.payload });
          break;
        case "next":
          if (message.id !== this.currentId) break;
          this.attempt = 0;
          if (message.payload && message.payload.errors && message.payload.errors.length) {
            this.lastError = message.payload.errors.map((e) => e.message).join("; ");
            this.status("error", this.lastError);
            socket.close(4001, "subscription error");
          } else if (message.payload && message.payload.data) {
            this.lastError = null;
            this.onNext(message.payload.data);
          }
          break;
        case "error":
          if (message.id !== this.currentId) break;
          this.lastError = (message.payload || []).map((e) => e.message).join("; ") || "subscription refused";
          this.status("error", this.lastError);
          socket.close(4001, "subscription error");
          break;
        case "complete":
          if (message.id !== this.currentId) break;
          // The server ends the stream when the game is over; otherwise follow again.
          if (this.onDone && this.onDone() === true) {
            this.stopped = true;
            this.status("done");
            socket.close(1000, "done");
          } else {
            socket.close(4002, "completed early");
          }
          break;
        default:
          break;
      }
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (!this.stopped) this.retry(event.reason || `closed (${event.code})`);
    });
  }

  retry(reason) {
    if (this.stopped) return;
    const delay = Math.min(10000, 400 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.status(this.lastError ? "error" : "reconnecting", this.lastError || reason);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}

export const CAMPAIGN = `query($c: String!) { campaign(id: $c) { id status sessions standings } }`;

export const NEXT_GAME = `mutation($c: String!) { startNextGame(campaignId: $c) {
  __typename
  ... on CreateTableOk { joinCode table { id game seats { seat taken } } }
  ... on Rejected { code message } } }`;
