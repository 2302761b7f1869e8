// The log in words: one sentence per event, seats as "Seat 1 (Ada)", cards by glossary name.
// Events come redacted for this viewer (another seat's secret card is only "a card" here).
// The Queen's Dilemma rolls no dice; a kernel `roll` is still drawn as dice faces.

import { entryInWords, h, humanize } from "/play/ui.js";
import { amount, ideologyName, passName, pushesText, resourceName, sideName } from "./words.js";

const DIE_FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** "story ST1-1" -> "story The Ailing Crown": every id in a source by its name. */
function sourceText(source, names) {
  if (!source) return "";
  return String(source).split(" ").map((word) => (names.entry(word) ? names.entry(word).name : word)).join(" ");
}

const from = (source, names) => (source ? ` (${sourceText(source, names)})` : "");
const cardName = (id, names, fallback) => (id && names.entry(id) ? names.entry(id).name : fallback);
const seatList = (seats, names) => (seats || []).map((s) => names.seat(Number(s))).join(", ") || "nobody";

function resourcesText(resources) {
  return Object.entries(resources || {}).map(([r, n]) => amount(n, r)).join(", ");
}

function dice(data) {
  return h("span", { class: "qd-dice" }, (data.dice || []).map((d) => {
    const n = Number(d.shows);
    const face = Number.isInteger(n) && n >= 1 && n <= 6 ? DIE_FACES[n - 1] : String(d.shows);
    return h("span", { class: "qd-die", role: "img", "aria-label": `rolled ${d.shows}`, title: `${d.die}: ${d.shows}` }, face);
  }));
}

/** One event as a sentence (a string or a node), or null for bookkeeping nobody needs to read. */
export function sentence(event, names) {
  const d = event.data || {};
  const seat = Number.isInteger(d.seat) ? names.seat(d.seat) : "";
  switch (event.type) {
    case "action": return null; // the game's own events say what happened
    case "phase": return d.phase ? `— ${humanize(d.phase)}${d.round ? `, round ${d.round}` : ""} —` : null;
    case "random_pick": {
      if (d.picked === undefined) return `A card is drawn at random for ${d.what} (from ${d.count}).`;
      const picked = Number.isInteger(d.picked) && /leader|moderator/.test(d.what) ? names.seat(d.picked) : cardName(d.picked, names, String(d.picked));
      return `Drawn at random for ${d.what}: ${picked}.`;
    }
    case "shuffle": return `The ${d.what} is shuffled (${d.count} cards).`;
    case "roll": return h("span", {}, `${seat || "The table"} rolls${d.why ? ` for ${d.why}` : ""}: `, dice(d));
    case "campaign_setup": {
      const bonuses = Object.entries(d.bonuses || {}).filter(([, b]) => Object.keys(b).length)
        .map(([s, b]) => `${names.seat(Number(s))} ${Object.entries(b).map(([k, n]) => `+${n} ${humanize(k)}`).join(", ")}`);
      return `The campaign begins: Leader ${names.seat(d.leader)}, Moderator ${names.seat(d.moderator)}${bonuses.length ? `; seat bonuses: ${bonuses.join("; ")}` : ""}.`;
    }
    case "region": return `${seat} takes ${names.text(d.region)} as a ${d.main ? "Main" : "Vassal"} Region.`;
    case "agenda": return d.code ? `${seat} takes the Agenda ${cardName(d.code, names, d.code)}${from(d.source, names)}.` : `${seat} takes an Agenda card (secret).`;
    case "agenda_refused": return `${seat} cannot take ${cardName(d.code, names, "an Agenda")}: ${d.reason}.`;
    case "agenda_already_out": return `${cardName(d.code, names, "That Agenda")} is already out of the tray.`;
    case "no_ongoing_left": return `${seat} would draw an Ongoing Agenda, but none is left.`;
    case "envelope": return `Envelope ${d.code} is opened.`;
    case "mystery": return `Mystery box ${d.title || d.code} is opened${d.warning ? `: ${d.warning}` : "."}`;
    case "story": return `Story: ${cardName(d.id, names, d.title)}. ${d.text || ""}`.trim();
    case "stories": case "box": case "box_skipped": return null;
    case "gain": return `${seat} gains ${amount(d.n, d.what)}${from(d.source, names)}.`;
    case "lose": return `${seat} loses ${amount(d.n, d.what)}${from(d.source, names)}.`;
    case "game_setup": {
      const t = d.timeline || {};
      return `Game ${d.game} begins: ${t.colour ? `${humanize(t.colour)} Buildings produce, ` : ""}Bag ${t.bag ?? "—"}, ${t.taxed ? `${resourceName(t.taxed)} taxed` : "no tax"}; Leader ${names.seat(d.leader)}, Moderator ${names.seat(d.moderator)}.`;
    }
    case "ideology_drawn": return d.card ? `${seat} keeps the Ideology card ${cardName(d.card, names, d.card)}.` : `${seat} keeps an Ideology card (secret).`;
    case "income": return `${seat}'s income: ${d.power} Power; Treasury ${resourcesText(d.resources)}.`;
    case "produced": return `${seat} produces ${amount(d.n, d.resource)}.`;
    case "drafted": return d.card ? `${seat} keeps the Investment ${cardName(d.card, names, d.card)}.` : `${seat} keeps an Investment card (secret).`;
    case "deck": return `The Dilemma deck holds ${d.size} cards.`;
    case "dilemma": return `Dilemma read: ${cardName(d.id, names, d.title)}. Aye: ${pushesText(d.aye && d.aye.pushes)}; Nay: ${pushesText(d.nay && d.nay.pushes)}.`;
    case "voting": return `The vote opens: Leader ${names.seat(d.leader)}, Moderator ${names.seat(d.moderator)}.`;
    case "vote": return d.side === "pass"
      ? `${seat} passes: ${passName(d.pass_action, d.source, names)}.`
      : `${seat} votes ${sideName(d.side)}: ${d.power} Power on the tile.`;
    case "leader": return `${seat} takes the Leader token.`;
    case "moderator_decides": return d.all_passed
      ? `Everyone passed: the Moderator, ${names.seat(d.moderator)}, decides.`
      : `A tie (Aye ${d.totals.aye}, Nay ${d.totals.nay}): the Moderator, ${names.seat(d.moderator)}, decides.`;
    case "vote_won": return `${sideName(d.side)} wins the vote (Aye ${d.totals.aye}, Nay ${d.totals.nay}).`;
    case "power_distribution": return `Gathered Power: ${seatList(d.gatherers, names)} take ${d.each} each; ${d.left} stay in the Pool.`;
    case "vote_cleanup": return `The Power Pool now holds ${d.power_pool}.`;
    case "payment": return `${seat} gives ${amount(d.n, d.resource)} to ${names.seat(d.recipient)}${d.reason ? ` — “${d.reason}”` : ""}.`;
    case "forced_payment": return `${seat} loses ${amount(d.amount, d.resource)}: pays ${d.paid} in kind, ${d.gold} Gold and takes ${d.infamy} Infamy.`;
    case "outcome": return `${sideName(d.side)}: ${cardName(d.id, names, d.id)} — ${d.text || ""} Winners: ${seatList(d.winners, names)}.`;
    case "push": return `The Slider is pushed toward ${ideologyName(d.ideology)} by ${d.n} (moved ${d.moved}).`;
    case "skill": return `${seat} learns the Skill ${cardName(d.code, names, d.code)}${d.covered ? `, covering ${cardName(d.covered, names, d.covered)}` : ""}.`;
    case "building": return `${cardName(d.code, names, "A Building")} is built in ${names.text(d.region)} for ${seat}.`;
    case "keyword": return `${seat} gains the Keyword ${d.name || cardName(d.code, names, d.code)}.`;
    case "chronicle_unlocked": return `The Chronicle ${cardName(d.code, names, d.code)} is unlocked${Number.isInteger(d.herald) ? `, Branded by ${names.seat(d.herald)}` : ""}${from(d.source, names)}.`;
    case "chronicles": return `Chronicles in play: ${(d.placed || []).map((c) => cardName(c, names, c)).join(", ") || "none"}.`;
    case "chronicle_trashed": return `The Chronicle ${cardName(d.code, names, d.code)} goes to the Trash.`;
    case "ending": return `Storyline ${d.storyline} ends: ${cardName(d.code, names, d.code)} (${d.scales} Scale${d.scales === 1 ? "" : "s"}).`;
    case "card_action": {
      const cost = resourcesText(d.cost);
      return `${seat} uses ${cardName(d.source, names, d.source)}${cost ? `, paying ${cost}` : ""}.`;
    }
    case "end_triggered": return `The end of the game is triggered (Round Counter slot ${d.slot}${d.sand_timer ? ", sand timer" : ""}).`;
    case "ideology_scored": return `${seat} scores ${cardName(d.card, names, "an Ideology card")}: +${d.hegemony} Hegemony, +${d.independence} Independence.`;
    case "power_scored": return `Power left: ${Object.entries(d.power || {}).map(([s, p]) => `${names.seat(Number(s))} ${p} (+${(d.awards || {})[s] ?? 0} Independence)`).join(", ")}.`;
    case "investment": return `${seat}'s Investment ${cardName(d.card, names, d.card)}: ${d.result}.`;
    case "agenda_completed": return `${seat} completes ${cardName(d.code, names, "an Agenda")}.`;
    case "agenda_failed": return `${seat} fails ${cardName(d.code, names, "an Agenda")}.`;
    case "crossroad": return d.option ? `${seat} chooses “${d.option}” (${cardName(d.code, names, "a Crossroad")}).` : `${seat} resolves a Crossroad Agenda.`;
    case "tax": return `${seat} pays ${amount(d.paid, d.resource)} in taxes.`;
    case "trashed": return `${cardName(d.code, names, "A card")} goes to the Trash${d.reason ? ` (${d.reason})` : ""}.`;
    case "returned": return `${seat} returns after ${d.missed} game(s) away: +${d.independence} Independence.`;
    case "fate": return `${seat}'s Fate: ${cardName(d.fate, names, humanize(d.fate || ""))}.`;
    case "game_end": return `Game ${d.game} ends. ${(d.standings || []).map((r) => `${names.seat(r.seat)}: ${r.hegemony} Hegemony, ${r.independence} Independence, ${r.infamy} Infamy`).join("; ")}.`;
    case "grand_finale": return "This is the Grand Finale.";
    case "campaign_end_triggered": return "The campaign's end is triggered: the next game is the Grand Finale.";
    case "troubleshooting": return `The game closes early: ${d.reason}.`;
    default: {
      const said = names.params(d);
      return `${humanize(event.type)}${said ? `: ${said}` : ""}.`;
    }
  }
}

/** One log entry: its first sentence as the line, the rest below it. */
export function describe(entry, ctx) {
  const events = Array.isArray(entry.events) ? entry.events : [];
  return entryInWords(entry, ctx.names, events.map((e) => sentence(e, ctx.names)), "qd-log");
}
