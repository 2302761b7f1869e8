// The Dilemma being voted on: its front (glossary name and text) and its two options as the
// Outcome markers show them (QD-137: blue for Aye, red for Nay: Slider pushes and Legacy),
// the vote so far (each councilor's tile, the totals, the Leader and the Moderator) and the
// viewer's voting turn. The back of the card is never in the view, so never shown here.

import { h } from "/play/ui.js";
import { paymentForm, voteControls } from "./actions.js";
import { AYE, NAY, PASS, SIDES, legacyName, markerOf, passName, pushesText, seatWithCharacter, sideName } from "./words.js";

const MARKER_SIDE = { aye: "blue", nay: "red" };

export function dilemmaSection(ctx) {
  const s = ctx.state;
  const names = ctx.names;
  const last = (s.votes || [])[s.votes.length - 1];
  const resolved = s.dilemma && !s.vote && last && s.phase === "resolution" ? last.winner : "";
  const body = [];
  if (s.dilemma) {
    const entry = names.entry(s.dilemma) || { name: s.dilemma, text: "" };
    body.push(h("div", { class: "qd-dilemma-card", dataset: { dilemma: s.dilemma } },
      h("h3", { class: "qd-dilemma-title" }, entry.name),
      entry.text ? h("p", { class: "qd-dilemma-text" }, entry.text) : null));
    body.push(h("div", { class: "qd-options" }, SIDES.map((side) => optionCard(ctx, side, resolved))));
  } else {
    body.push(h("p", { class: "muted" }, s.phase === "setup"
      ? "The game is being set up: no Dilemma has been read yet."
      : "No Dilemma is being voted on right now."));
  }
  if (s.vote) body.push(voteTable(ctx, s.vote));
  else if (last) body.push(lastVote(ctx, last));
  const controls = voteControls(ctx);
  if (controls) body.push(controls);
  const pay = paymentForm(ctx);
  if (pay) body.push(pay);
  return h("section", { class: "qd-panel qd-dilemma", "aria-labelledby": "qd-dilemma-h" },
    h("h2", { id: "qd-dilemma-h" }, s.dilemma ? "The Dilemma before the Council" : "The Council"), body);
}

function optionCard(ctx, side, resolved) {
  const shown = (ctx.state.markers || {})[MARKER_SIDE[side]];
  const won = resolved === side;
  return h("div", {
    class: `qd-option side-${side}${won ? " won" : ""}${resolved && !won ? " lost" : ""}`,
    dataset: { option: side },
  },
  h("h4", {}, h("span", { class: `qd-marker ${markerOf(side)}`, "aria-hidden": "true" }), sideName(side),
    won ? h("span", { class: "badge" }, "won") : null),
  shown
    ? h("ul", { class: "qd-effects" },
      h("li", {}, pushesText(shown.pushes)),
      shown.legacy ? h("li", {}, legacyName(shown.legacy)) : null)
    : h("p", { class: "muted" }, "—"));
}

/** Each councilor's Voting tile: side and Power, or the Pass Action taken; who is to act. */
function voteTable(ctx, vote) {
  const s = ctx.state;
  const names = ctx.names;
  const acting = new Set((ctx.table.prompts || []).filter((p) => p.kind === "vote").map((p) => p.seat));
  const totals = { aye: 0, nay: 0 };
  vote.tiles.forEach((t) => { if (t.side in totals) totals[t.side] += t.power; });
  const rows = vote.tiles.map((tile, seat) => {
    const c = s.councilors[seat];
    const what = tile.side === PASS
      ? (c && c.absent ? "absent" : `passed: ${passName(tile.pass_action, "", names)}`)
      : tile.side ? `${sideName(tile.side)}, ${tile.power} Power` : acting.has(seat) ? "voting now…" : "not yet";
    return h("tr", { class: [seat === ctx.viewer ? "you" : "", acting.has(seat) ? "acting" : ""].join(" ").trim() || null, dataset: { seat: String(seat), side: tile.side || "none" } },
      h("th", { scope: "row" }, seatWithCharacter(s, seat, names), roles(s, seat)),
      h("td", { class: tile.side ? `side-${tile.side}` : "" }, what),
      h("td", {}, c ? String(c.power) : "—"));
  });
  return h("div", { class: "qd-vote", "aria-label": "The vote so far" },
    h("p", { class: "qd-totals", dataset: { aye: String(totals.aye), nay: String(totals.nay) } },
      h("span", { class: "side-aye" }, `Aye ${totals.aye}`), " — ", h("span", { class: "side-nay" }, `Nay ${totals.nay}`),
      h("span", { class: "muted" }, ` · Power Pool ${s.power_pool}`),
      vote.moderator_taken ? h("span", { class: "muted" }, " · Moderator's Pass Action taken") : null),
    h("div", { class: "scroll" }, h("table", { class: "qd-table" },
      h("caption", {}, "The vote so far"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Councilor"), h("th", { scope: "col" }, "Tile"), h("th", { scope: "col" }, "Power held"))),
      h("tbody", {}, rows))));
}

function lastVote(ctx, last) {
  const names = ctx.names;
  const tiles = (last.tiles || []).map((t, seat) => h("li", {}, `${names.seat(seat)}: `,
    t.side === PASS ? `passed (${passName(t.pass_action, "", names)})` : `${sideName(t.side)} ${t.power}`));
  return h("div", { class: "qd-last-vote" },
    h("p", {}, h("strong", {}, `Last vote: ${sideName(last.winner)} won`),
      ` (Aye ${last.totals[AYE]}, Nay ${last.totals[NAY]}); Leader ${names.seat(last.leader)}, Moderator ${names.seat(last.moderator)}.`),
    h("ul", { class: "qd-inline" }, tiles));
}

/** The Leader and Moderator tokens by a seat. */
export function roles(state, seat) {
  return [
    state.leader === seat ? h("span", { class: "badge leader", title: "Leader" }, "♛ Leader") : null,
    state.moderator === seat ? h("span", { class: "badge moderator", title: "Moderator" }, "⚖ Moderator") : null,
  ];
}
