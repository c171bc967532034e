// The table's API: every call carries the page's token and the reader's language; a refusal is
// an Error with the server's one-line message.

import { language } from "./i18n.js";

const token = document.querySelector('meta[name="lukfu-token"]').content;

/** Fetch `path` (JSON both ways); throws Error(message) on a refusal or a lost connection. */
export async function call(path, { method = "GET", body, signal } = {}) {
  const headers = { "X-Lukfu-Token": token, "X-Lukfu-Lang": language() };
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
  const response = await fetch(`/api/games/${gameId}/record`, { headers: { "X-Lukfu-Token": token } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const disposition = response.headers.get("content-disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  return { name: match ? match[1] : "lukfu-record.json", text: await response.text() };
}
