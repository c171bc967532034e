// The table's API: every call carries the tab's token and the reader's language; a refusal is
// an Error with the server's one-line message.
//
// The token comes in the address lukfu serve printed (?token=…); the page takes it out of the
// address bar and keeps it in this tab's sessionStorage, so a reload finds it again (the server
// keeps its token across restarts). Never in a cookie: a cookie reaches every port of the host,
// so any other local web service the browser visits would receive it.

import { language } from "./i18n.js";

const TOKEN_KEY = "lukfu.token";
const CLIENT_KEY = "lukfu.client";

/** The token of the address (taken out of it and kept for this tab), else the tab's kept one. */
function takeToken() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

/** This tab's id, for the server's bound on the jobs one client may have waiting. */
function clientId() {
  let id = sessionStorage.getItem(CLIENT_KEY);
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(CLIENT_KEY, id);
  }
  return id;
}

let token = takeToken();
const client = clientId();

/** Whether this tab has a token to call the server with. */
export function hasToken() {
  return token !== "";
}

/** The headers of every call. */
function headersFor(lang) {
  const headers = { "X-Lukfu-Lang": lang, "X-Lukfu-Client": client };
  if (token) headers["X-Lukfu-Token"] = token;
  return headers;
}

/** The server's one-line refusal of a call without the token, in `lang` (what to do next). */
export async function refusalMessage(lang) {
  try {
    const response = await fetch("/api/info", { headers: headersFor(lang) });
    return (await response.json()).error || `HTTP ${response.status}`;
  } catch (err) {
    return "connection: " + err.message;
  }
}

/** Fetch `path` (JSON both ways); throws Error(message) on a refusal or a lost connection. A
 *  refused token (a server started with --new-token) is forgotten and announced ("lukfu:token"). */
export async function call(path, { method = "GET", body, signal } = {}) {
  const headers = headersFor(language());
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new Error("connection: " + err.message);
  }
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    if ((response.status === 401 || response.status === 403) && /^token:/.test(error.message)) {
      sessionStorage.removeItem(TOKEN_KEY);
      token = "";
      error.token = true;
      window.dispatchEvent(new CustomEvent("lukfu:token", { detail: error.message }));
    }
    throw error;
  }
  return data;
}

/** Fetch a JSON resource (the catalogue) with the token. */
export function fetchJson(path) {
  return call(path);
}

/**
 * Follow a job until it ends: `onProgress(job)` hears of each state; resolves with the ended job
 * (done, failed or cancelled). Long polls (the server waits up to `wait` seconds a request).
 */
export async function follow(job, onProgress) {
  let current = job;
  while (!["done", "failed", "cancelled"].includes(current.state)) {
    if (onProgress) onProgress(current);
    current = await call(`/api/jobs/${current.id}?wait=${current.kind === "engine" ? 2 : 1}`);
  }
  if (onProgress) onProgress(current);
  return current;
}

/** Cancel a job (ignoring one that has already ended). */
export async function cancel(job) {
  try {
    return await call(`/api/jobs/${job.id}`, { method: "DELETE" });
  } catch (err) {
    return null;
  }
}

/** Save `text` as a file named `name` (a download the browser keeps). */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The record of a game as text, with its file name. */
export async function recordFile(gameId) {
  const response = await fetch(`/api/games/${gameId}/record`, { headers: headersFor(language()) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const disposition = response.headers.get("content-disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  return { name: match ? match[1] : "lukfu-record.json", text: await response.text() };
}
