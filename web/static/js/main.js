// The page: its header (new game, saved games, your record, open a record, language), the dialogs,
// the keyboard, and which screen shows, as the address names it: a game (#game=ID, with its
// review), the start screen (#new), a session's summary (#session=ID), your record (#record), or
// a replay of a record opened from a file.

import { call, fetchJson, hasToken, refusalMessage } from "./api.js";
import { _, fmt, language, loadLanguage, signed, term } from "./i18n.js";
import { button, el } from "./dom.js";
import { renderSummary } from "./evening.js";
import { GameView } from "./game.js";
import { ReplayView } from "./replay.js";
import { LAST_GAME, keptGame, resumeTarget } from "./resume.js";
import { renderStanding } from "./standing.js";
import { renderStart, startChoices, startRequest } from "./start.js";
import { againstText } from "./words.js";

/** The pages besides the table, each a section of the main area, and its body class. */
const PAGES = { review: "reviewing", replay: "replaying", start: "starting", session: "summing", record: "standing" };

const $ = (sel) => document.querySelector(sel);

class App {
  constructor() {
    this.info = null; // what the server offers (GET /api/info): languages, levels, opponents
    const section = (id, cls) => {
      const page = el("section", cls);
      page.id = id;
      $("#main").append(page);
      return page;
    };
    const reviewPage = section("review-page", "review-page");
    this.pages = { start: section("start-page", "page"), session: section("session-page", "page"), record: section("record-page", "page") };
    this.game = new GameView($("#table"), $("#side"), reviewPage, this);
    this.replay = new ReplayView($("#replay"), this);
    this.mode = "game"; // the screen shown: game (the table or its review), replay, start, session, record
    this.shown = null; // what the page shown draws from (the session summed up, your record)
  }

  async start() {
    const url = new URL(location.href);
    const asked = url.searchParams.get("lang") || localStorage.getItem("lukfu.lang") || $('meta[name="lukfu-lang"]').content;
    window.addEventListener("lukfu:token", (e) => this.notice(e.detail));
    if (!hasToken()) {
      this.notice(await refusalMessage(asked || "en"));
      return;
    }
    await loadLanguage(asked || "en", fetchJson);
    this.info = await call("/api/info");
    this.header();
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("resize", () => {
      // the graphs' scale follows the width
      if (this.mode === "game" && this.game.state.reviewing) this.game.renderReview();
      else if (this.mode === "record") this.drawRecord();
    });
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && this.mode === "game" && this.game.refresh());
    await this.route();
  }

  /** What the address names: a game, the start screen, a session's summary, your record; else
   * the game in progress (the one this browser played last while it goes on, else the last
   * unfinished one or the current deal of the session played last), else the start screen. */
  async route() {
    const hash = location.hash.slice(1);
    const params = new URLSearchParams(hash);
    const id = params.get("game");
    try {
      if (hash === "new") this.showStart();
      else if (hash === "record") await this.showRecord();
      else if (params.get("session")) await this.showSession(params.get("session"));
      else if (id) {
        if (id !== this.game.id) await this.game.open(id);
        this.played(id);
        this.showGame();
      } else {
        await this.resume();
      }
    } catch (err) {
      if (err.token) return;
      this.toast(err.message, true);
      if (hash) {
        history.replaceState(null, "", location.pathname);
        await this.resume();
      }
    }
  }

  /** Back to the game in progress (resume.js decides which): the game this browser played last
   * while it goes on (or its session's current deal), else the last unfinished game or the
   * current deal of the session played last if that is later; else the start screen. */
  async resume() {
    const gone = (err) => {
      if (err.token) throw err;
      return null; // deleted or damaged since: the lists decide
    };
    const kept = keptGame(localStorage.getItem(LAST_GAME));
    const [mine, { games }, { sessions }] = await Promise.all([
      kept ? call(`/api/games/${kept}`).catch(gone) : null,
      call("/api/games?finished=false&limit=1"),
      call("/api/sessions?finished=false&limit=1"),
    ]);
    const mineSession = mine && mine.phase === "over" && mine.series ? await call(`/api/sessions/${mine.series.id}`).catch(gone) : null;
    const id = resumeTarget({ mine, mineSession, games, sessions });
    if (id) {
      this.remember(id);
      await this.game.open(id);
      this.showGame();
    } else {
      this.showStart();
    }
  }

  /** The table (or the game's review, when open) as the screen. */
  showGame() {
    this.mode = "game";
    this.showPage(this.game.state.reviewing ? "review" : "game");
    this.game.render();
  }

  /** Back to the game shown before a page, by its address (the start screen when there is none). */
  back() {
    if (this.game.id) location.hash = `game=${this.game.id}`;
    else this.showStart();
  }

  /** The start screen: whom to play, your seat, one deal or an evening. */
  showStart() {
    this.mode = "start";
    this.showPage("start");
    let last = {};
    try {
      last = JSON.parse(localStorage.getItem("lukfu.start") || "{}") || {};
    } catch {
      last = {};
    }
    const choices = startChoices(this.info, last);
    const handlers = {
      onStart: (c, seed) => this.dealChosen(c, seed),
      onBack: this.game.id ? () => this.back() : null,
      onRecord: () => (location.hash = "record"),
    };
    renderStart(this.pages.start, this.info, choices, handlers);
    window.scrollTo({ top: 0 });
  }

  /** Deal what the start screen chose: one game, or the first deal of a session. */
  async dealChosen(choices, seed) {
    localStorage.setItem("lukfu.start", JSON.stringify(choices));
    const { options, deals } = startRequest(choices, seed);
    this.closeReplay(false);
    try {
      if (deals > 1) {
        const { game } = await call("/api/sessions", { method: "POST", body: { ...options, deals } });
        this.game.adopt(game);
      } else {
        await this.game.create(options);
      }
      this.showGame();
    } catch (err) {
      this.toast(err.message, true);
    }
  }

  /** A session's summary (by the address: a reload shows it again). */
  async showSession(id) {
    const series = await call(`/api/sessions/${id}`);
    this.mode = "session";
    this.shown = series;
    this.showPage("session");
    this.drawSession();
    window.scrollTo({ top: 0 });
  }

  drawSession() {
    const series = this.shown;
    renderSummary(this.pages.session, series, {
      onBack: () => (location.hash = `game=${this.game.id && this.game.game.series && this.game.game.series.id === series.id ? this.game.id : series.current}`),
      onOpen: (gameId) => (location.hash = `game=${gameId}`),
      onNew: () => this.newGame(),
      onRecord: () => (location.hash = "record"),
    });
  }

  /** Open the summary of session `id` (from the table's score or the last deal's end). */
  showSummary(id) {
    location.hash = `session=${id}`;
  }

  /** Your record: every finished deal's points against each strength, and your last sessions. */
  async showRecord() {
    const [data, { sessions }] = await Promise.all([call("/api/standing"), call("/api/sessions?limit=8")]);
    this.mode = "record";
    this.shown = { data, sessions };
    this.showPage("record");
    this.drawRecord();
    window.scrollTo({ top: 0 });
  }

  drawRecord() {
    const { data, sessions } = this.shown;
    renderStanding(this.pages.record, data, sessions, {
      onBack: this.game.id ? () => this.back() : null,
      onOpenSession: (id) => this.showSummary(id),
    });
  }

  /** The whole page gives way to one message (a refused token: what to do next). */
  notice(message) {
    const box = document.createElement("section");
    box.className = "notice";
    box.id = "notice";
    const title = document.createElement("h1");
    title.textContent = "Luk Fu";
    const text = document.createElement("p");
    text.textContent = message;
    box.append(title, text);
    $("#main").replaceChildren(box);
  }

  /** The game shown is named in the address (a reload returns to it) and is this browser's. */
  remember(id) {
    history.replaceState(null, "", `${location.pathname}#game=${id}`);
    this.played(id);
  }

  /** The game this browser plays now: the bare address returns to it while it goes on. */
  played(id) {
    try {
      localStorage.setItem(LAST_GAME, id);
    } catch {
      // storage refused (a private window's quota): the lists decide instead
    }
  }

  header() {
    const bar = $("#bar");
    bar.replaceChildren();
    bar.append(el("h1", "", "Luk Fu"));
    const nav = el("nav", "");
    const file = document.createElement("input");
    Object.assign(file, { type: "file", accept: ".json,application/json", hidden: true, id: "file-open" });
    file.addEventListener("change", () => this.openFile(file));
    const lang = document.createElement("select");
    lang.id = "lang";
    lang.setAttribute("aria-label", _("Language"));
    for (const { code, name } of this.info.languages) {
      const o = new Option(name, code, false, code === language());
      lang.append(o);
    }
    lang.addEventListener("change", () => this.setLanguage(lang.value));
    nav.append(
      button(_("New game"), () => this.newGame(), { key: "N", id: "btn-new" }),
      button(_("Games"), () => this.listGames(), { key: "G", id: "btn-games" }),
      button(_("Your record"), () => (location.hash = "record"), { key: "Y", id: "btn-record" }),
      button(_("Open a record"), () => file.click(), { key: "O", id: "btn-open" }),
      file,
      lang,
      button("?", () => this.help(), { id: "btn-help", cls: "small" }),
    );
    bar.append(nav);
    document.title = `Luk Fu — ${_("you against two engine players")}`;
  }

  async setLanguage(code) {
    await loadLanguage(code, fetchJson);
    localStorage.setItem("lukfu.lang", code);
    this.header();
    if (this.mode === "replay") this.replay.render();
    else if (this.mode === "start") this.showStart();
    else if (this.mode === "session") this.drawSession();
    else if (this.mode === "record") this.drawRecord();
    else this.game.render();
  }

  /** Which page shows: the table ("game"), a game's review, a replay, the start screen, a
   * session's summary or your record (PAGES). */
  showPage(page) {
    for (const [name, cls] of Object.entries(PAGES)) document.body.classList.toggle(cls, page === name);
  }

  /** A one-line message at the bottom (an error in red). */
  toast(message, isError = false) {
    const t = $("#toast");
    t.textContent = message;
    t.className = isError ? "error show" : "show";
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (t.className = ""), isError ? 6000 : 3000);
  }

  dialog(title, body, actions) {
    const d = $("#dialog");
    d.replaceChildren(el("h2", "", title), body, el("div", "actions", ...actions, button(_("Close"), () => d.close(), { id: "dialog-close" })));
    d.showModal();
    return d;
  }

  /** The start screen, by its address (so the browser's Back returns to the table). */
  newGame() {
    if (location.hash === "#new") this.showStart();
    else location.hash = "new";
  }

  async listGames() {
    const { games } = await call("/api/games");
    const list = el("ul", "games");
    if (!games.length) list.append(el("li", "small", _("No saved games yet.")));
    for (const g of games) {
      const when = new Date(g.updated * 1000).toLocaleString(language());
      const what = g.finished ? fmt(_("finished, {points} for you"), { points: signed(g.points ?? 0) }) : _("unfinished");
      const against = g.against.length ? ` · ${againstText(g.against)}` : "";
      const open = button(fmt(_("Deal {seed}"), { seed: g.seed }), () => {
        $("#dialog").close();
        this.closeReplay(false);
        location.hash = `game=${g.id}`;
      }, { cls: "link" });
      list.append(el("li", "", open, el("span", "small", ` ${what}${against} · ${when}`)));
    }
    this.dialog(_("Saved games"), list, []);
  }

  async openFile(input) {
    const f = input.files[0];
    input.value = "";
    if (!f) return;
    try {
      await this.replay.load(await f.text());
      this.game.closeReview(false);
      this.mode = "replay";
      this.showPage("replay");
    } catch (err) {
      this.toast(err.message, true);
    }
  }

  closeReplay(render = true) {
    if (this.mode !== "replay") return;
    if (!this.game.id) return this.showStart();
    this.mode = "game";
    this.showPage("game");
    if (render) this.game.render();
  }

  help() {
    const keys = [
      ["1 / 2", _("at the call: play / pass")],
      ["← →", _("move between your cards")],
      [_("Space"), _("choose or drop the card in focus")],
      ["1–9", _("choose a card of that rank")],
      ["Enter", _("play the chosen cards")],
      [`Enter / ${_("Space")}`, _("go on after a won trick (at the pace that waits for you)")],
      ["C", term("claim")],
      ["H", _("hint (at the call: the advice)")],
      ["U", _("undo")],
      ["D", _("download the record")],
      ["R", _("review (after the deal)")],
      ["N / G / O", _("new game / saved games / open a record")],
      ["Y", _("your record against each strength")],
      ["Esc", _("drop the chosen cards")],
    ];
    const table = el("table", "keys");
    for (const [k, what] of keys) table.append(el("tr", "", el("th", "", el("kbd", "", k)), el("td", "", what)));
    const body = el("div", "", el("p", "", _("Click a card to choose it; the cards that can make a legal move stand out. A set or run is one click below your hand; a discard is the cards you choose. Double-click a card to play it at once.")), table);
    this.dialog(_("How to play here"), body, []);
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    if ($("#dialog").open) return;
    const k = event.key;
    let done = false;
    if (this.mode === "replay") done = this.replay.key(event);
    else if (this.mode === "game") done = this.game.key(event);
    else if (k === "Escape" && (this.game.id || this.mode !== "start")) (this.back(), (done = true));
    if (!done) {
      if (k === "n" || k === "N") (this.newGame(), (done = true));
      else if (k === "g" || k === "G") (this.listGames(), (done = true));
      else if (k === "y" || k === "Y") ((location.hash = "record"), (done = true));
      else if (k === "o" || k === "O") ($("#file-open").click(), (done = true));
      else if (k === "?") (this.help(), (done = true));
    }
    if (done) event.preventDefault();
  }
}

const app = new App();
app.start().catch((err) => (err.token ? app.notice(err.message) : app.toast(err.message, true)));
window.lukfu = app; // for the browser tests and the curious
