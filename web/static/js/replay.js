// A record opened from a file, replayed with a move slider: every hand shown, the trick on the
// table, what each play did, the claim and the result.

import { call } from "./api.js";
import { cardElement, legend, parseCards, playElement, suitGroups, suitName } from "./cards.js";
import { button, el } from "./dom.js";
import { _, fmt, pgettext, signed, term } from "./i18n.js";
import { callsText, claimText, moveWords, outcomeText, seatNames, trickWinText, who } from "./words.js";

export class ReplayView {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.data = null;
    this.step = 0;
  }

  /** Check a record's text on the server and show its first step. */
  async load(text) {
    let record;
    try {
      record = JSON.parse(text);
    } catch (err) {
      throw new Error("record: " + _("not valid JSON"));
    }
    this.data = await call("/api/replay", { method: "POST", body: { record } });
    this.step = 0;
    this.render();
  }

  go(step) {
    const last = this.data.steps.length - 1;
    this.step = Math.max(0, Math.min(last, step));
    this.render();
    const slider = this.root.querySelector("#replay-slider");
    if (slider) slider.focus();
  }

  render() {
    const { record, steps } = this.data;
    const step = steps[this.step];
    const root = this.root;
    root.replaceChildren();
    const head = el("div", "replay-head");
    const names = seatNames(record.players);
    const players = record.players ? names.map((n, s) => `${s} ${n}`).join(", ") : "";
    head.append(el("h2", "", _("Replay of a record")));
    const facts = [];
    if (record.seed !== null) facts.push(fmt(_("Deal {seed}"), { seed: record.seed }));
    if (players) facts.push(fmt(_("players by seat: {players}"), { players }));
    facts.push(fmt(_("Calls: {calls}"), { calls: callsText(record.calls, names) }));
    head.append(el("p", "small", facts.join(" · ")));
    root.append(head);

    const nav = el("div", "replay-nav");
    const slider = document.createElement("input");
    Object.assign(slider, { type: "range", min: 0, max: steps.length - 1, value: this.step, id: "replay-slider" });
    slider.setAttribute("aria-label", _("Move"));
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    nav.append(
      button("«", () => this.go(0), { cls: "small", id: "replay-first" }),
      button("◀", () => this.go(this.step - 1), { cls: "small", id: "replay-prev" }),
      slider,
      button("▶", () => this.go(this.step + 1), { cls: "small", id: "replay-next" }),
      button("»", () => this.go(steps.length - 1), { cls: "small", id: "replay-last" }),
      el("span", "count", step.trick_number ? fmt(_("trick {n} of {count}"), { n: step.trick_number, count: this.data.tricks }) : _("before the first lead")),
    );
    root.append(nav);
    root.append(el("p", "move-words", moveWords(step.move, names)));

    const hands = el("div", "replay-hands");
    for (const s of [0, 1, 2]) {
      const olds = new Set(parseCards(step.old[s]));
      const box = el("section", "seat" + (step.to_move === s ? " to-move" : ""));
      const roles = [];
      if (s === 0) roles.push(el("span", "badge master", term("Master")));
      if (record.caller === s) roles.push(el("span", "badge caller", term("caller")));
      box.append(el("h3", "", el("span", "name", names[s]), el("span", "seatno", fmt(_("seat {seat}"), { seat: s })), ...roles, el("span", "fact", `${step.fu[s]} ${pgettext("column", "fu")}`)));
      const row = el("div", "hand small-hand");
      suitGroups(parseCards(step.hands[s])).forEach((cards, k) => {
        if (!cards.length) return;
        const cardRow = el("div", "cards");
        for (const c of cards) cardRow.append(cardElement(c, { old: olds.has(c), small: true }));
        const group = el("div", "suit-group", el("span", "suit-label", `${"CSMT"[k]} ${suitName(k)}`), cardRow);
        row.append(group);
      });
      box.append(row);
      hands.append(box);
    }
    root.append(hands);
    if (step.old.some((o) => o)) root.append(legend());

    const table = el("div", "trick-area");
    const trick = step.trick;
    if (trick) {
      const grid = el("div", "trick-grid replay-trick");
      trick.plays.forEach((p, i) => {
        const slot = el("div", "slot" + (i === trick.best ? " best" : ""));
        slot.append(el("span", "slot-label", names[p.seat]), playElement(p.play, { olds: step.old.join(""), small: false }));
        grid.append(slot);
      });
      table.append(grid);
      if (trick.winner !== null) table.append(el("p", "summary", trickWinText(step.trick_number, trick, names)));
    }
    if (step.move && step.move.role === "claim") {
      const claim = step.move;
      table.append(el("p", "claim-line", claimText(claim, parseCards(claim.old).length, names)));
    }
    if (step.outcome) {
      table.append(el("p", "outcome", outcomeText(step.outcome, names)));
      table.append(el("p", "", fmt(_("Net points: {points}"), { points: step.outcome.points.map((p, s) => fmt(_("{player}: {points}"), { player: who(names, s), points: signed(p) })).join(", ") })));
    }
    root.append(table);
    root.append(button(_("Close the replay"), () => this.app.closeReplay(), { id: "replay-close" }));
  }

  key(event) {
    if (!this.data) return false;
    if (event.target && event.target.id === "replay-slider") return false;
    if (event.key === "ArrowRight") return this.go(this.step + 1), true;
    if (event.key === "ArrowLeft") return this.go(this.step - 1), true;
    if (event.key === "Home") return this.go(0), true;
    if (event.key === "End") return this.go(this.data.steps.length - 1), true;
    return false;
  }
}
