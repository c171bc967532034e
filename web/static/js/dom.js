// The page's ground floor: making elements (text, buttons, SVG) and the one widget every screen
// shows for slow work. No game words or rules here; every other module builds on these.

/** A new element with a class and text (or children). */
export function el(tag, cls, ...content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of content) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/** A button with its label, a click handler and an optional keyboard hint. */
export function button(label, onClick, { cls = "", key = "", disabled = false, id = "" } = {}) {
  const b = el("button", cls, label);
  b.type = "button";
  if (id) b.id = id;
  if (key) {
    b.append(el("kbd", "", key));
    b.setAttribute("aria-keyshortcuts", key);
  }
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

/** A `<select>` with an id, a label for screen readers and its options ([value, text] pairs). */
export function select(id, label, options, chosen) {
  const s = document.createElement("select");
  s.id = id;
  if (label) s.setAttribute("aria-label", label);
  for (const [value, text] of options) s.append(new Option(text, value, false, value === chosen));
  return s;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (and text). */
export function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Slow work in progress: what, how far (a bar when the total is known) and a Stop button. */
export function workElement(job, label, stopLabel, onStop) {
  const box = el("div", "work");
  box.setAttribute("role", "status");
  box.append(el("span", "spinner", ""), el("span", "work-label", label));
  const bar = document.createElement("progress");
  if (job && job.progress && job.progress.total) {
    bar.max = job.progress.total;
    bar.value = job.progress.done;
    box.append(bar, el("span", "count", `${job.progress.done}/${job.progress.total}`));
  } else {
    box.append(bar);
  }
  if (onStop) box.append(button(stopLabel, onStop, { cls: "small", id: "btn-stop" }));
  return box;
}

/** Bring `node` into view when it is not (a button's answer on a small screen), without a jump
 * when it already shows. */
export function reveal(node, block = "nearest") {
  if (!node || !node.getBoundingClientRect) return;
  const r = node.getBoundingClientRect();
  const h = window.innerHeight || document.documentElement.clientHeight;
  if (r.top < 0 || r.top > h - 40) node.scrollIntoView({ block, behavior: "smooth" });
}
