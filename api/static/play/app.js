// Conclave's reference web client: plain ES modules, no build step. Routes (in the hash):
//   #/                      the lobby
//   #/table/<id>            a table, as the seat this browser holds there (else as a spectator)
//   #/watch/<id>            a table as a spectator
//   #/join/<id>/<seat>/<code>  take a seat (a shared join link with the join code or the
//                           seat's invitation), then go to the table

import { JoinPage, Lobby } from "./lobby.js";
import { TableView } from "./table.js";
import { fill, h } from "./ui.js";

const root = document.getElementById("main");
let current = null;

function parse(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "table" && parts[1]) return { view: "table", id: parts[1] };
  if (parts[0] === "watch" && parts[1]) return { view: "watch", id: parts[1] };
  if (parts[0] === "join" && parts[1] && /^\d+$/.test(parts[2] || "")) return { view: "join", id: parts[1], seat: Number(parts[2]), code: parts[3] || null };
  if (parts.length === 0) return { view: "lobby" };
  return { view: "missing" };
}

function route() {
  if (current) current.stop();
  current = null;
  const where = parse(location.hash);
  document.title = "Conclave";
  if (where.view === "lobby") current = new Lobby(root);
  else if (where.view === "table") current = new TableView(root, where.id);
  else if (where.view === "watch") current = new TableView(root, where.id, { spectate: true });
  else if (where.view === "join") current = new JoinPage(root, where.id, where.seat, where.code);
  else {
    fill(root, h("h1", { tabindex: "-1" }, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
    return;
  }
  if (where.id) document.title = `Conclave — table ${where.id}`;
  current.start();
}

window.addEventListener("hashchange", route);
route();
