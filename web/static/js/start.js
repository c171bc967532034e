// The start screen: whom you play (the opponents' strength, as the server lists them), your seat
// and how many deals (one, or an evening of several, as `lukfu play --deals N`), the finer
// settings (level, deal number, an engine instead of a strength) folded away. It remembers
// nothing itself: the page gives it the last choices and takes the new ones.

import { button, el, select } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { strengthWord } from "./words.js";

/** An evening's deals unless chosen otherwise, and the most a session has (the server checks). */
export const EVENING = { deals: 5, most: 100 };

/** What each plain strength is like, in a line (the engines behind them are in docs/web.md). */
function strengthNote(word) {
  const notes = {
    easy: _("plays by simple rules, at once"),
    medium: _("weighs sampled deals before each move"),
    strong: _("weighs more deals, and takes longer"),
  };
  return notes[word] || "";
}

/** The choices the screen opens with: `last` (the ones made before, if any) over the defaults. */
export function startChoices(info, last = {}) {
  const strengths = info.strengths;
  return {
    strength: strengths.includes(last.strength) ? last.strength : strengths[0],
    engine: info.opponents.includes(last.engine) && !strengths.includes(last.engine) ? last.engine : "",
    seat: ["", "0", "1", "2"].includes(last.seat) ? last.seat : "",
    evening: Boolean(last.evening),
    deals: Number.isInteger(last.deals) && last.deals >= 2 && last.deals <= EVENING.most ? last.deals : EVENING.deals,
    level: info.levels.includes(last.level) ? last.level : info.default_level,
  };
}

/** A new game's request from the choices: {options (POST /api/games's), deals (1 or more)}; the
 * deal number `seed` (text, "" for a random one) is not remembered. */
export function startRequest(choices, seed = "") {
  const options = { opponents: [choices.engine || choices.strength], level: choices.level };
  if (choices.seat !== "") options.seat = Number(choices.seat);
  if (seed !== "") options.seed = Number(seed);
  return { options, deals: choices.evening ? choices.deals : 1 };
}

function radio(name, value, checked, id) {
  const input = document.createElement("input");
  Object.assign(input, { type: "radio", name, value, checked, id });
  return input;
}

/** The start screen in `root`: `choices` as startChoices makes them; `handlers.onStart(choices,
 * seed)` deals, `handlers.onBack` (null when no game is open) goes back to the table,
 * `handlers.onRecord` opens your record. */
export function renderStart(root, info, choices, handlers) {
  root.replaceChildren();
  const form = el("form", "start");
  form.addEventListener("submit", (e) => e.preventDefault());
  const head = el("div", "page-head", el("h2", "", _("New game")));
  if (handlers.onBack) head.append(button(_("Back to the table"), handlers.onBack, { key: "Esc", id: "start-back" }));
  form.append(head);

  const who = el("fieldset", "strengths");
  who.append(el("legend", "", _("Whom do you play against?")));
  for (const word of info.strengths) {
    const input = radio("strength", word, word === choices.strength && !choices.engine, `start-${word}`);
    input.addEventListener("change", () => {
      choices.strength = word;
      choices.engine = "";
      engine.value = "";
    });
    who.append(el("label", "choice", input, el("span", "choice-name", strengthWord(word)), el("span", "choice-note", strengthNote(word))));
  }
  form.append(who);

  const seats = [["", _("as the deal number gives it")], ...[0, 1, 2].map((s) => [String(s), s === 0 ? _("seat 0 (Master)") : fmt(_("seat {seat}"), { seat: s })])];
  const seat = select("new-seat", _("Your seat"), seats, choices.seat);
  seat.addEventListener("change", () => (choices.seat = seat.value));
  const seatNote = el("p", "small note-seat", _("Each deal draws its Master at random, as the rules say (R2), so in an evening your seat changes from deal to deal: this is your seat in the first deal."));
  const seatField = el("fieldset", "seat-choice", el("legend", "", _("Your seat")), seat, seatNote);
  form.append(seatField);

  const how = el("fieldset", "deals");
  how.append(el("legend", "", _("How many deals?")));
  const one = radio("deals", "one", !choices.evening, "start-one");
  const evening = radio("deals", "evening", choices.evening, "start-evening");
  const count = document.createElement("input");
  Object.assign(count, { type: "number", min: 2, max: EVENING.most, value: String(choices.deals), id: "new-deals" });
  count.setAttribute("aria-label", _("deals in the evening"));
  one.addEventListener("change", () => (choices.evening = false));
  evening.addEventListener("change", () => (choices.evening = true));
  count.addEventListener("input", () => {
    const n = Number(count.value);
    if (Number.isInteger(n) && n >= 2 && n <= EVENING.most) choices.deals = n;
    choices.evening = true;
    evening.checked = true;
  });
  how.append(
    el("label", "choice", one, el("span", "choice-name", _("One deal"))),
    el("label", "choice", evening, el("span", "choice-name", _("An evening of several deals:")), count, el("span", "choice-note", _("a running score, the same two players all evening, and a summary at the end"))),
  );
  form.append(how);

  const more = el("details", "more");
  more.id = "start-more";
  more.append(el("summary", "", _("More settings")));
  const level = select("new-level", _("Level (engines and hints)"), info.levels.map((l) => [String(l), String(l)]), String(choices.level));
  level.addEventListener("change", () => (choices.level = Number(level.value)));
  const seed = document.createElement("input");
  Object.assign(seed, { type: "number", min: 0, id: "new-seed", placeholder: _("random") });
  const engines = info.opponents.filter((o) => !info.strengths.includes(o));
  const engine = select("new-engine", _("or an engine"), [["", "—"], ...engines.map((k) => [k, k])], choices.engine);
  engine.addEventListener("change", () => {
    choices.engine = engine.value;
    for (const r of who.querySelectorAll("input")) r.checked = !engine.value && r.value === choices.strength;
  });
  const field = (label, input) => el("label", "", el("span", "", label), input);
  more.append(
    el("div", "settings", field(_("Level (engines and hints)"), level), field(_("Deal number"), seed), field(_("or an engine"), engine)),
  );
  if (choices.engine || choices.level !== info.default_level) more.open = true;
  form.append(more);

  const go = button(_("Deal"), () => handlers.onStart(choices, seed.value), { cls: "primary", key: "Enter", id: "new-deal" });
  const row = el("div", "actions", go);
  if (handlers.onRecord) row.append(button(_("Your record"), handlers.onRecord, { id: "start-record" }));
  form.append(row);
  root.append(form);
  go.focus();
}
