// The Queen's Dilemma's vocabulary in words: sides, Ideologies, Resources, Legacy markers,
// Pass Actions. Shared by the table's parts and the log so both say things the same way.

import { humanize } from "/play/ui.js";

export const AYE = "aye";
export const NAY = "nay";
export const PASS = "pass";
export const SIDES = [AYE, NAY];
export const RESOURCES = ["gold", "food", "army", "materials"];
/** The Ideology board's three axes, each keyed by its first Ideology (QD-015). */
export const AXES = [["tradition", "progress"], ["force", "diplomacy"], ["order", "liberty"]];

const SIDE_WORDS = { aye: "Aye", nay: "Nay", pass: "Pass" };
const MARKER = { aye: "blue", nay: "red" };
const PASS_WORDS = { gather: "Gather Power", moderator: "Become Moderator" };

export const sideName = (side) => SIDE_WORDS[side] || humanize(side || "—");
/** The Outcome marker colour of a side (blue for Aye, red for Nay: QD-137). */
export const markerOf = (side) => MARKER[side] || "";
export const ideologyName = (ideology) => humanize(ideology);
export const resourceName = (resource) => humanize(resource);

/** "3 Gold" / "1 Army". */
export function amount(n, what) {
  return `${n} ${humanize(what)}`;
}

/** A Pass Action in words: "Gather Power", or the card's name for a card's own action. */
export function passName(action, source, names) {
  if (action === "card") return `use ${source ? names.text(source) : "a card"}`;
  return PASS_WORDS[action] || humanize(action || "pass");
}

/** "Progress +1, Force +1" for a side's Slider pushes. */
export function pushesText(pushes) {
  return (pushes || []).map((p) => `${ideologyName(p.ideology)} +${p.n ?? 1}`).join(", ") || "no Slider push";
}

export const legacyName = (legacy) => (legacy ? `${humanize(legacy)} legacy` : "");

/** The seat's Character by its glossary name ("Aesyas, The …"), or "". */
export function characterOf(state, seat, names) {
  const diary = state && state.campaign && state.campaign.diaries ? state.campaign.diaries[seat] : null;
  return diary && diary.character ? names.text(diary.character) : "";
}

/** "Seat 1 (Ada)" and, when known, the Character: "Seat 1 (Ada), Aesyas, The …". */
export function seatWithCharacter(state, seat, names) {
  const character = characterOf(state, seat, names);
  return character ? `${names.seat(seat)} · ${character}` : names.seat(seat);
}
