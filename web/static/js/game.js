// One game at the table: its state from the server, your clicks, the engines' turns (with a
// pause so you can follow), the hint, undo, the review and the record.

import { call, cancel, download, follow, recordFile } from "./api.js";
import { _, fmt } from "./i18n.js";
import { button, el, workElement } from "./dom.js";
import { adviceElement, hintElement, historyElement } from "./panels.js";
import { reviewElement, reviewMarks } from "./review.js";
import { madeMove, moveTable, playable, toggle } from "./select.js";
import { setGame, tableState, trickJustWon } from "./state.js";
import { renderTable } from "./table.js";
import { strengthWord } from "./words.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pause before an engine's move, and after a trick ends (milliseconds; a test may shorten it). */
function pauses() {
  const base = Number(localStorage.getItem("lukfu.pause") || 700);
  return { move: base, trick: base * 2 };
}

export class GameView {
  constructor(tableRoot, sideRoot, app) {
    this.tableRoot = tableRoot;
    this.sideRoot = sideRoot;
    this.app = app;
    this.state = tableState();
    this.loopFor = null; // the game whose engines' turns are being run now
  }

  /** The server's game as it last answered (null before one is open). */
  get game() {
    return this.state.game;
  }

  get id() {
    return this.game && this.game.id;
  }

  /** The game as the server has it now (another tab may have moved it): on coming back to this tab. */
  async refresh() {
    if (!this.game || this.loopFor === this.id) return;
    try {
      this.set(await call(`/api/games/${this.id}`));
      this.runEngines();
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  /** Open a saved or live game. */
  async open(id) {
    this.set(await call(`/api/games/${id}`));
    this.runEngines();
  }

  /** A new game with the dialog's settings (or a record to resume). */
  async create(options) {
    this.set(await call("/api/games", { method: "POST", body: options }));
    this.app.remember(this.id);
    this.runEngines();
  }

  set(game) {
    for (const job of setGame(this.state, game)) cancel(job);
    this.render();
  }

  handlers() {
    return {
      onCard: (c) => this.choose(toggle(moveTable(this.game.choices), this.state.chosen, c)),
      onQuick: (c) => {
        const made = madeMove(moveTable(this.game.choices), new Set([c]));
        if (made) this.move(made);
      },
      onCombo: (text) => this.pick(text),
      onClear: () => this.choose(new Set()),
      onMove: (text) => this.move(text),
      onHint: () => this.hint(),
      onReview: () => this.review(),
      onNew: () => this.app.newGame(),
      onStopEngine: () => this.stopEngine(),
    };
  }

  choose(chosen) {
    this.state.chosen = chosen;
    this.state.fresh = false;
    this.render();
  }

  render() {
    if (!this.game) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    renderTable(this.tableRoot, this.state, this.handlers());
    if (focused) {
      const again = this.tableRoot.querySelector(`.hand button[data-card="${focused}"]`);
      if (again) again.focus();
    }
    this.renderSide();
  }

  renderSide() {
    const g = this.game;
    const side = this.sideRoot;
    side.replaceChildren();
    const tools = el("div", "tools");
    tools.append(
      button(_("Hint"), () => this.hint(), { key: "H", disabled: !g.your_turn, id: "btn-hint" }),
      button(_("Undo"), () => this.undo(), { key: "U", disabled: !g.can_undo, id: "btn-undo" }),
      button(_("Download record"), () => this.download(), { key: "D", id: "btn-download" }),
    );
    if (g.waiting_for_engine && this.loopFor !== g.id) tools.append(button(_("Continue"), () => this.runEngines(), { cls: "primary", id: "btn-continue" }));
    side.append(tools);
    const tabs = el("div", "tabs");
    tabs.setAttribute("role", "tablist");
    const names = [["hint", _("Hint")], ["tricks", _("Tricks")]];
    if (g.phase === "over") names.push(["review", _("Review")]);
    for (const [key, label] of names) {
      const t = button(label, () => {
        this.state.tab = key;
        this.renderSide();
      }, { cls: "tab" + (this.state.tab === key ? " on" : "") });
      t.setAttribute("role", "tab");
      t.setAttribute("aria-selected", this.state.tab === key ? "true" : "false");
      tabs.append(t);
    }
    side.append(tabs);
    const panel = el("div", "panel");
    panel.setAttribute("role", "tabpanel");
    panel.append(this.panel());
    side.append(panel);
    side.append(el("p", "small game-facts", fmt(_("Deal {seed} · level {level} · against {a} and {b}"), { seed: g.seed, level: g.level, a: strengthWord(g.opponents[0]), b: strengthWord(g.opponents[1]) })));
  }

  panel() {
    const g = this.game;
    const tab = this.state.tab;
    if (tab === "hint") {
      const h = this.state.hint;
      if (!h) return el("p", "small", g.your_turn ? _("Ask for a hint (H): the engine's expected points for each of your moves; at the call, the advice.") : _("A hint is for your own turn."));
      if (!h.result) return workElement(h.job, g.phase === "call" ? _("weighing play and pass…") : _("weighing your moves…"), _("Stop"), () => this.dropHint(true));
      if (h.result.kind === "call") return adviceElement(h.result);
      return hintElement(g, h.result, (move) => this.pick(move));
    }
    if (tab === "review") {
      const r = this.state.review;
      if (!r) return el("p", "small", _("Ask for the review (R): every decision of yours, costed in points."));
      if (r.error) return el("p", "error", r.error);
      if (!r.result) return workElement(r.job, _("reviewing the deal…"), _("Stop"), () => this.dropReview());
      return reviewElement(g, r.result);
    }
    return historyElement(g, reviewMarks(this.state.review && this.state.review.result));
  }

  /** Choose the cards of `move` (from the hint's list); a second click plays it. */
  pick(move) {
    const cards = moveTable([move])[0];
    if (!cards || !cards.cards.size) return this.move(move);
    if (madeMove(moveTable(this.game.choices), this.state.chosen) === move) return this.move(move);
    this.choose(new Set(cards.cards));
  }

  // ------------------------------------------------------------ actions

  async move(text) {
    if (!this.game.your_turn) return;
    try {
      this.state.fresh = true;
      this.set(await call(`/api/games/${this.id}/move`, { method: "POST", body: { move: text } }));
      this.runEngines();
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  async runEngines() {
    if (!this.game || this.loopFor === this.id) return;
    const id = this.id;
    this.loopFor = id;
    try {
      while (this.game && this.id === id && this.game.waiting_for_engine) {
        await sleep(trickJustWon(this.game) ? pauses().trick : pauses().move);
        if (this.id !== id) return;
        const seat = this.game.to_move;
        let job = await call(`/api/games/${id}/engine?wait=2`, { method: "POST" });
        const work = { seat, job };
        this.state.engine = work;
        // a quick move is never drawn as work; a slow one shows in its seat, with its progress
        let visible = false;
        const shown = setTimeout(() => {
          visible = true;
          if (this.state.engine === work) this.render();
        }, 600);
        job = await follow(job, (j) => {
          work.job = j;
          if (visible && this.state.engine === work) this.render();
        });
        clearTimeout(shown);
        this.state.engine = null;
        if (this.id !== id) return;
        if (job.state === "done") {
          this.state.fresh = true;
          this.set(job.state_of_game);
        } else {
          if (job.state === "failed") this.app.toast(job.error, true);
          else this.app.toast(_("The engine's move was stopped; press Continue to let it move."));
          break;
        }
      }
    } catch (err) {
      this.app.toast(err.message, true);
    } finally {
      if (this.loopFor === id) this.loopFor = null;
      if (this.id === id) {
        this.state.engine = null;
        this.render();
      }
    }
  }

  async stopEngine() {
    const work = this.state.engine;
    if (work) await cancel(work.job);
  }

  async hint() {
    if (!this.game.your_turn) return;
    this.state.tab = "hint";
    try {
      let job = await call(`/api/games/${this.id}/hint`, { method: "POST" });
      const h = { job, result: null, answers: job.answers };
      this.state.hint = h;
      this.renderSide();
      job = await follow(job, (j) => {
        h.job = j;
        if (this.state.hint === h && this.state.tab === "hint") this.renderSide();
      });
      if (this.state.hint !== h) return;
      if (job.state === "done") h.result = job.result;
      else {
        this.state.hint = null;
        if (job.state === "failed") this.app.toast(job.error, true);
      }
      this.renderSide();
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  dropHint(render = false) {
    const h = this.state.hint;
    this.state.hint = null;
    if (h && !h.result) cancel(h.job);
    if (render) this.renderSide();
  }

  async undo() {
    if (!this.game.can_undo) return;
    this.dropHint();
    try {
      this.set(await call(`/api/games/${this.id}/undo`, { method: "POST" }));
      this.app.toast(_("Taken back: you are at your previous decision."));
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  async review() {
    this.state.tab = "review";
    if (this.state.review && (this.state.review.result || (this.state.review.job && !this.state.review.error))) return this.renderSide();
    try {
      // lukfu review's options (samples, max_nodes, time) may be set for this browser: a quick review
      const options = JSON.parse(localStorage.getItem("lukfu.review") || "{}");
      let job = await call(`/api/games/${this.id}/review`, { method: "POST", body: options });
      const r = { job, result: null };
      this.state.review = r;
      this.renderSide();
      this.showSide();
      job = await follow(job, (j) => {
        r.job = j;
        if (this.state.review === r && this.state.tab === "review") this.renderSide();
      });
      if (job.state === "done") r.result = job.result;
      else r.error = job.error || _("The review was stopped.");
      this.renderSide();
    } catch (err) {
      this.state.review = { error: err.message };
      this.renderSide();
    }
  }

  /** On a narrow screen the panel sits below the table: bring it into view. */
  showSide() {
    const top = this.sideRoot.getBoundingClientRect().top;
    if (top > window.innerHeight * 0.6) this.sideRoot.scrollIntoView({ block: "start" });
  }

  dropReview() {
    const r = this.state.review;
    this.state.review = null;
    if (r && r.job && !r.result) cancel(r.job);
    this.renderSide();
  }

  async download() {
    try {
      const { name, text } = await recordFile(this.id);
      download(name, text);
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  /** Keys at the table (the page's handler passes those not meant for a form field). */
  key(event) {
    const g = this.game;
    if (!g) return false;
    const k = event.key;
    if (g.phase === "call" && g.your_turn && (k === "1" || k === "2")) return this.move(k === "1" ? "play" : "pass"), true;
    if (k === "h" || k === "H") return this.hint(), true;
    if (k === "u" || k === "U") return this.undo(), true;
    if (k === "d" || k === "D") return this.download(), true;
    if ((k === "r" || k === "R") && g.phase === "over") return this.review(), true;
    if ((k === "c" || k === "C") && g.choices.includes("claim")) return this.move("claim"), true;
    if (k === "Escape" && this.state.chosen.size) return this.choose(new Set()), true;
    const onCard = event.target.closest && event.target.closest(".hand button.card");
    if (k === "Enter" && g.phase === "play" && g.your_turn && (onCard || !(event.target instanceof HTMLButtonElement))) {
      // on a card too: Enter plays the cards chosen (Space chooses the card in focus)
      const made = madeMove(moveTable(g.choices), this.state.chosen);
      if (made) this.move(made);
      return true;
    }
    if ((k === "ArrowLeft" || k === "ArrowRight") && event.target.closest && event.target.closest(".hand")) {
      const cards = [...this.tableRoot.querySelectorAll(".hand button.card")];
      const i = cards.indexOf(event.target);
      const next = cards[(i + (k === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
      if (next) next.focus();
      return true;
    }
    if (g.phase === "play" && g.your_turn && /^[1-9]$/.test(k)) {
      // digits pick the first legal card of that rank (a quick path from the keyboard)
      const can = [...playable(moveTable(g.choices))].filter((c) => c[1] === k);
      if (can.length) this.choose(toggle(moveTable(g.choices), this.state.chosen, can[0]));
      return true;
    }
    return false;
  }
}
