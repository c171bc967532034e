// One game at the table: its state from the server, your clicks, the engines' turns at the pace
// you chose (a won trick stays until you go on, unless you chose a timed pace), the hint, undo,
// the review (a page of its own) and the record.

import { call, cancel, download, follow, recordFile } from "./api.js";
import { button, el, reveal, select, workElement } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { adviceElement, hintElement, historyElement } from "./panels.js";
import { reviewElement, reviewHead, reviewMarks } from "./review.js";
import { madeMove, moveTable, playable, toggle } from "./select.js";
import { nextDeal, pauses, seriesStale, setGame, tableState, trickJustWon } from "./state.js";
import { renderTable } from "./table.js";
import { seatNames, strengthWord } from "./words.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pace this browser keeps (remembered), and a test's quicker pauses (lukfu.pause, ms). */
function pace() {
  return localStorage.getItem("lukfu.pace") || "wait";
}

function paceNow() {
  const base = localStorage.getItem("lukfu.pause");
  return pauses(pace(), base === null ? null : Number(base));
}

export class GameView {
  constructor(tableRoot, sideRoot, reviewRoot, app) {
    this.tableRoot = tableRoot;
    this.sideRoot = sideRoot;
    this.reviewRoot = reviewRoot;
    this.app = app;
    this.state = tableState();
    this.loopFor = null; // the game whose engines' turns are being run now
    this.goOn = null; // resolves the wait on a won trick
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

  /** A new game with the start screen's settings (or a record to resume). */
  async create(options) {
    this.adopt(await call("/api/games", { method: "POST", body: options }));
  }

  /** A game the server has just made (a new game, a session's deal): shown, named in the
   * address, its engines set going. */
  adopt(game) {
    this.set(game);
    this.app.remember(this.id);
    this.runEngines();
  }

  set(game) {
    const before = this.game;
    const stale = seriesStale(this.state, before, game);
    for (const job of setGame(this.state, game)) cancel(job);
    if (before && game.id !== before.id) this.closeReview(false);
    if (this.goOn && (!before || game.answers !== before.answers || game.id !== before.id)) this.goOnNow(); // moved: no trick to wait on
    this.render();
    if (stale) this.loadSeries();
  }

  /** The session of deals of the game as the server sums it up (its score from the records). */
  async loadSeries() {
    const g = this.game;
    if (!g || !g.series) return;
    try {
      const series = await call(`/api/sessions/${g.series.id}`);
      if (this.game && this.game.series && this.game.series.id === series.id) {
        this.state.series = series;
        this.render();
      }
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  /** The next deal of the session (made by the server once this one is over; a second tab
   * asking gets the same deal). */
  async nextDeal() {
    const k = nextDeal(this.state);
    if (k === null) return;
    try {
      this.adopt(await call(`/api/sessions/${this.game.series.id}/deal`, { method: "POST", body: { deal: k } }));
    } catch (err) {
      this.app.toast(err.message, true);
    }
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
      onNextDeal: () => this.nextDeal(),
      onSummary: () => this.app.showSummary(this.game.series.id),
      onStopEngine: () => this.stopEngine(),
      onGoOn: () => this.goOnNow(),
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
    if (this.state.reviewing) this.renderReview();
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
    if (g.phase === "over") tools.append(button(_("Review the deal"), () => this.review(), { key: "R", id: "btn-review-side" }));
    if (g.waiting_for_engine && this.loopFor !== g.id) tools.append(button(_("Continue"), () => this.runEngines(), { cls: "primary", id: "btn-continue" }));
    side.append(tools);
    const tabs = el("div", "tabs");
    tabs.setAttribute("role", "tablist");
    for (const [key, label] of [["hint", _("Hint")], ["tricks", _("Tricks")]]) {
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
    panel.id = "panel";
    panel.setAttribute("role", "tabpanel");
    panel.append(this.panel());
    side.append(panel);
    const paces = [["wait", _("a won trick stays until you go on")], ["slow", _("slow")], ["normal", _("normal")], ["fast", _("fast")]];
    const chooser = select("pace", _("Pace"), paces, pace());
    chooser.addEventListener("change", () => {
      localStorage.setItem("lukfu.pace", chooser.value);
      if (chooser.value !== "wait") this.goOnNow();
    });
    side.append(el("label", "small pace", el("span", "", _("Pace:")), chooser));
    const facts = { seed: g.seed, level: g.level, a: strengthWord(g.opponents[0]), b: strengthWord(g.opponents[1]) };
    side.append(el("p", "small game-facts", fmt(_("Deal {seed} · level {level} · opponents: {a}, {b}"), facts)));
  }

  panel() {
    const g = this.game;
    if (this.state.tab === "hint") {
      const h = this.state.hint;
      if (!h) return el("p", "small", g.your_turn ? _("Ask for a hint (H): the engine's expected points for each of your moves; at the call, the advice.") : _("A hint is for your own turn."));
      if (!h.result) return workElement(h.job, g.phase === "call" ? _("weighing play and pass…") : _("weighing your moves…"), _("Stop"), () => this.dropHint(true));
      if (h.result.kind === "call") return adviceElement(h.result);
      return hintElement(g, h.result, (move) => this.pick(move));
    }
    return historyElement(g, reviewMarks(this.state.review && this.state.review.result));
  }

  /** Bring the side panel's answer into view with your hand and its buttons above it (a phone
   * shows them on one screen: from the call's buttons or your hand down to as much of the answer
   * as the screen holds). */
  showAnswer() {
    const panel = this.sideRoot.querySelector("#panel");
    const first = this.tableRoot.querySelector(".call-area") || this.tableRoot.querySelector(".hand-area");
    if (!panel || !first) return;
    const end = panel.getBoundingClientRect().bottom + window.scrollY;
    const handTop = first.getBoundingClientRect().top + window.scrollY;
    const target = Math.min(handTop - 4, end - window.innerHeight + 8);
    if (target > window.scrollY || panel.getBoundingClientRect().top > window.innerHeight) window.scrollTo({ top: Math.max(0, target) });
    else reveal(panel);
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
      this.app.played(this.id); // the game you answered in is the one the bare address returns to
      this.runEngines();
    } catch (err) {
      this.app.toast(err.message, true);
    }
  }

  /** Until you go on (the button under a won trick, Enter or Space), or the pace changes. */
  waitForYou() {
    this.state.waiting = true;
    this.render();
    return new Promise((resolve) => {
      this.goOn = resolve;
    });
  }

  goOnNow() {
    const go = this.goOn;
    this.goOn = null;
    this.state.waiting = false;
    if (go) go();
  }

  async runEngines() {
    if (!this.game || this.loopFor === this.id) return;
    const id = this.id;
    this.loopFor = id;
    try {
      while (this.game && this.id === id && this.game.waiting_for_engine) {
        const answers = this.game.answers;
        const pause = paceNow();
        if (!trickJustWon(this.game)) await sleep(pause.move);
        else if (pause.trick === null) await this.waitForYou();
        else await sleep(pause.trick);
        if (this.id !== id) return;
        if (this.game.answers !== answers) continue; // taken back (or moved in another tab) meanwhile
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
        this.state.waiting = false;
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
      this.showAnswer();
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
      this.showAnswer();
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

  // ------------------------------------------------------------ the review, a page of its own

  /** Open the review's page (its progress at the top, in view), asking for it the first time. */
  async review() {
    if (this.game.phase !== "over") return;
    this.state.reviewing = true;
    this.app.showPage("review");
    this.renderReview();
    window.scrollTo({ top: 0 });
    const r = this.state.review;
    if (r && (r.result || (r.job && !r.error))) return;
    try {
      // lukfu review's options (samples, max_nodes, time) may be set for this browser: a quick review
      const options = JSON.parse(localStorage.getItem("lukfu.review") || "{}");
      let job = await call(`/api/games/${this.id}/review`, { method: "POST", body: options });
      const mine = { job, result: null };
      this.state.review = mine;
      this.renderReview();
      job = await follow(job, (j) => {
        mine.job = j;
        if (this.state.review === mine) this.renderReview();
      });
      if (this.state.review !== mine) return;
      if (job.state === "done") mine.result = job.result;
      else mine.error = job.error || _("The review was stopped.");
      this.render();
    } catch (err) {
      this.state.review = { error: err.message };
      this.renderReview();
    }
  }

  renderReview() {
    const g = this.game;
    const root = this.reviewRoot;
    if (!g || !this.state.reviewing) return;
    const names = seatNames(g.players, g.seat);
    root.replaceChildren();
    const head = el("div", "review-page-head", el("h2", "", _("Review of the deal")));
    head.append(button(_("Back to the table"), () => this.closeReview(), { key: "Esc", id: "btn-review-close" }));
    root.append(head, reviewHead(g, names));
    const r = this.state.review;
    if (!r || (!r.result && !r.error)) root.append(workElement(r && r.job, _("reviewing the deal…"), _("Stop"), () => this.dropReview()));
    else if (r.error) root.append(el("p", "error", r.error));
    else root.append(reviewElement(g, r.result, names));
  }

  closeReview(render = true) {
    if (!this.state.reviewing) return;
    this.state.reviewing = false;
    this.app.showPage("game");
    if (render) this.render();
  }

  dropReview() {
    const r = this.state.review;
    this.state.review = null;
    if (r && r.job && !r.result) cancel(r.job);
    this.closeReview();
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
    if (this.state.reviewing) {
      if (k === "Escape" || k === "r" || k === "R") return this.closeReview(), true;
      return false;
    }
    if (this.state.waiting && (k === "Enter" || k === " ")) return this.goOnNow(), true;
    if (g.phase === "call" && g.your_turn && (k === "1" || k === "2")) return this.move(k === "1" ? "play" : "pass"), true;
    if (k === "h" || k === "H") return this.hint(), true;
    if (k === "u" || k === "U") return this.undo(), true;
    if (k === "d" || k === "D") return this.download(), true;
    if ((k === "r" || k === "R") && g.phase === "over") return this.review(), true;
    if ((k === "c" || k === "C") && g.claim_total !== null) return this.move("claim"), true;
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
