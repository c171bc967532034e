// The page: its header (new game, saved games, open a record, language), the dialogs, the
// keyboard, and which screen shows (a game, chosen by the address's #game=ID, or a replay).

import { call, fetchJson, hasToken, refusalMessage } from "./api.js";
import { _, fmt, language, loadLanguage, signed, term } from "./i18n.js";
import { button, el } from "./dom.js";
import { GameView } from "./game.js";
import { ReplayView } from "./replay.js";
import { strengthWord } from "./words.js";

const $ = (sel) => document.querySelector(sel);

class App {
  constructor() {
    this.info = null; // what the server offers (GET /api/info): languages, levels, opponents
    const reviewPage = el("section", "review-page");
    reviewPage.id = "review-page";
    $("#main").append(reviewPage);
    this.game = new GameView($("#table"), $("#side"), reviewPage, this);
    this.replay = new ReplayView($("#replay"), this);
    this.mode = "game";
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
    window.addEventListener("resize", () => this.mode === "game" && this.game.state.reviewing && this.game.renderReview()); // the graph's scale follows the width
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && this.mode === "game" && this.game.refresh());
    await this.route();
  }

  /** The game the address names, else the game in progress (the last unfinished one), else a new game. */
  async route() {
    const id = new URLSearchParams(location.hash.slice(1)).get("game");
    try {
      if (id) {
        if (id !== this.game.id) await this.game.open(id);
      } else {
        await this.resume();
      }
    } catch (err) {
      if (err.token) return;
      this.toast(err.message, true);
      if (id) {
        history.replaceState(null, "", location.pathname);
        await this.resume();
      }
    }
  }

  /** Back to the game in progress (the last unfinished one), else a new game. */
  async resume() {
    const { games } = await call("/api/games?finished=false&limit=1");
    if (games.length) {
      this.remember(games[0].id);
      await this.game.open(games[0].id);
    } else {
      await this.game.create(this.defaults());
    }
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

  /** A new game as the server offers it first: its first strength, its default level. */
  defaults() {
    return { opponents: [this.info.strengths[0]], level: this.info.default_level };
  }

  remember(id) {
    history.replaceState(null, "", `${location.pathname}#game=${id}`);
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
    else this.game.render();
  }

  /** Which page shows: the table ("game"), a game's review ("review") or a replay ("replay"). */
  showPage(page) {
    document.body.classList.toggle("reviewing", page === "review");
    document.body.classList.toggle("replaying", page === "replay");
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

  newGame() {
    const form = el("form", "settings");
    form.method = "dialog";
    const field = (label, input) => el("label", "", el("span", "", label), input);
    const seat = document.createElement("select");
    seat.id = "new-seat";
    seat.append(new Option(_("as the deal number gives it"), ""), ...[0, 1, 2].map((s) => new Option(fmt(s === 0 ? _("seat 0 (Master)") : _("seat {seat}"), { seat: s }), String(s))));
    const opp = document.createElement("select");
    opp.id = "new-opponents";
    for (const k of this.info.strengths) opp.append(new Option(strengthWord(k), k, false, k === this.info.strengths[0]));
    const engines = document.createElement("optgroup");
    engines.label = _("or an engine");
    for (const k of this.info.opponents.filter((o) => !this.info.strengths.includes(o))) engines.append(new Option(k, k));
    opp.append(engines);
    const level = document.createElement("select");
    level.id = "new-level";
    for (const l of this.info.levels) level.append(new Option(String(l), String(l), false, l === this.info.default_level));
    const seed = document.createElement("input");
    Object.assign(seed, { type: "number", min: 0, id: "new-seed", placeholder: _("random") });
    form.append(
      field(_("Your seat"), seat),
      field(_("Opponents"), opp),
      field(_("Level (engines and hints)"), level),
      field(_("Deal number"), seed),
    );
    const start = button(_("Deal"), async () => {
      const options = { opponents: [opp.value], level: Number(level.value) };
      if (seat.value !== "") options.seat = Number(seat.value);
      if (seed.value !== "") options.seed = Number(seed.value);
      $("#dialog").close();
      this.closeReplay(false);
      try {
        await this.game.create(options);
      } catch (err) {
        this.toast(err.message, true);
      }
    }, { cls: "primary", id: "new-deal" });
    this.dialog(_("New game"), form, [start]);
  }

  async listGames() {
    const { games } = await call("/api/games");
    const list = el("ul", "games");
    if (!games.length) list.append(el("li", "small", _("No saved games yet.")));
    for (const g of games) {
      const when = new Date(g.updated * 1000).toLocaleString(language());
      const what = g.finished ? fmt(_("finished, {points} for you"), { points: signed(g.points ?? 0) }) : _("unfinished");
      const open = button(fmt(_("Deal {seed}"), { seed: g.seed }), () => {
        $("#dialog").close();
        this.closeReplay(false);
        location.hash = `game=${g.id}`;
      }, { cls: "link" });
      list.append(el("li", "", open, el("span", "small", ` ${what} · ${when}`)));
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
    else done = this.game.key(event);
    if (!done) {
      if (k === "n" || k === "N") (this.newGame(), (done = true));
      else if (k === "g" || k === "G") (this.listGames(), (done = true));
      else if (k === "o" || k === "O") ($("#file-open").click(), (done = true));
      else if (k === "?") (this.help(), (done = true));
    }
    if (done) event.preventDefault();
  }
}

const app = new App();
app.start().catch((err) => (err.token ? app.notice(err.message) : app.toast(err.message, true)));
window.lukfu = app; // for the browser tests and the curious
