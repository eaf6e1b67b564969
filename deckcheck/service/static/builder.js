// deckcheck deck builder: plain JavaScript over the service's /v1 API (no build step, no
// external assets). Every string from the API or the user reaches the page through
// textContent, never as HTML.
"use strict";

const SECTIONS = ["main", "extra", "side"];
const COLOURS = ["#2357c6", "#b3261e", "#1b7f3b", "#9a6700", "#6f42c1", "#0b7285"];
const TURNS = 5;

const state = {
  deck: { main: [], extra: [], side: [] },  // passcodes in order, one entry per copy
  name: null,
  cards: new Map(),                          // passcode -> card document
  categories: [],                            // {name, want: "any" | "none", cards: Set<passcode>}
  marks: new Map(),                          // "section:passcode" -> [{severity, message}]
  seq: { validate: 0, search: 0, odds: 0 },
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = data && data.error ? data.error.message : `HTTP ${response.status}`;
    const error = new Error(message);
    error.code = data && data.error ? data.error.code : "http-error";
    throw error;
  }
  return data;
}

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

// -- rules: region, format, date ----------------------------------------------------------

function rules() {
  const out = { timeline: $("region").value };  // tcg/ocg: the card-release timeline
  const format = $("format").value;
  if (format) out.format = format;
  if ($("date").value) out.date = $("date").value;
  return out;
}

async function loadFormats() {
  try {
    const data = await api("GET", "/v1/formats");
    const select = $("format");
    const formats = el("optgroup", { label: "Formats" });
    const eras = el("optgroup", { label: "Eras" });
    for (const f of data.formats) {
      (f.kind === "era" ? eras : formats).append(el("option", { value: f.id }, `${f.name} (${f.id})`));
    }
    select.append(formats, eras);
  } catch (e) { showVerdict("error", `Formats: ${e.message}`); }
  try {
    const health = await api("GET", "/healthz");
    $("as-of").textContent = `${health.data.as_of} (fingerprint ${health.data.fingerprint.slice(0, 12)})`;
  } catch (e) { $("as-of").textContent = "unknown"; }
}

// -- cards --------------------------------------------------------------------------------

function cardName(passcode) {
  const card = state.cards.get(passcode);
  return card ? card.name : `#${passcode}`;
}

async function ensureCards(passcodes) {
  const missing = [...new Set(passcodes)].filter((p) => !state.cards.has(p));
  await Promise.all(missing.map(async (p) => {
    try { state.cards.set(p, await api("GET", `/v1/cards/${p}`)); } catch (e) { /* unknown: shown as #passcode */ }
  }));
}

const search = debounce(async () => {
  const q = $("search").value.trim();
  const seq = ++state.seq.search;
  const list = $("results");
  if (!q) { list.replaceChildren(); return; }
  const params = new URLSearchParams({ q, limit: "30" });
  if ($("lang").value) params.set("lang", $("lang").value);
  let data;
  try { data = await api("GET", `/v1/cards?${params}`); } catch (e) {
    if (seq === state.seq.search) list.replaceChildren(el("li", { class: "none" }, e.message));
    return;
  }
  if (seq !== state.seq.search) return;  // a newer query answered first
  if (!data.results.length) { list.replaceChildren(el("li", { class: "none" }, "No card matches.")); return; }
  list.replaceChildren(...data.results.map((card) => {
    state.cards.set(card.passcode, card);
    const others = [card.names.ja, card.names["zh-CN"]].filter(Boolean).join(" · ");
    const home = card.zone === "extra" ? "extra" : "main";
    return el("li", { dataset: { passcode: card.passcode } },
      el("button", { type: "button", class: "card-name", title: `Add to the ${home === "extra" ? "Extra" : "Main"} Deck`,
                     onclick: () => addCard(card.passcode, home) },
        el("span", { class: "en" }, card.name),
        el("span", { class: "sub" }, `${card.type_line}${others ? " · " + others : ""}`)),
      el("button", { type: "button", class: "add-side", title: "Add to the Side Deck",
                     onclick: () => addCard(card.passcode, "side") }, "Side"));
  }));
}, 120);

// -- deck ---------------------------------------------------------------------------------

function addCard(passcode, section) {
  if (section !== "side") {
    const card = state.cards.get(passcode);
    section = card && card.zone === "extra" ? "extra" : "main";
  }
  state.deck[section].push(passcode);
  changed();
}

function removeCard(passcode, section) {
  const cards = state.deck[section];
  const i = cards.lastIndexOf(passcode);
  if (i >= 0) cards.splice(i, 1);
  changed();
}

function moveCard(passcode, from, to) {
  const cards = state.deck[from];
  const i = cards.lastIndexOf(passcode);
  if (i < 0) return;
  cards.splice(i, 1);
  state.deck[to].push(passcode);
  changed();
}

function deckJson() {
  const out = { deckcheck: 1, main: state.deck.main, extra: state.deck.extra, side: state.deck.side };
  if (state.name) out.name = state.name;
  return out;
}

function renderDeck() {
  for (const section of SECTIONS) {
    const counts = new Map();
    for (const p of state.deck[section]) counts.set(p, (counts.get(p) || 0) + 1);
    $(`count-${section}`).textContent = String(state.deck[section].length);
    $(section).replaceChildren(...[...counts].map(([passcode, n]) => {
      const marks = state.marks.get(`${section}:${passcode}`) || state.marks.get(`*:${passcode}`) || [];
      const bad = marks.some((m) => m.severity === "error");
      const other = section === "side" ? (state.cards.get(passcode) && state.cards.get(passcode).zone === "extra" ? "extra" : "main") : "side";
      return el("li", { class: bad ? "bad" : marks.length ? "warn" : "", dataset: { passcode, section } },
        el("span", { class: "n" }, `${n}×`),
        el("span", { class: "name" }, cardName(passcode),
          ...marks.map((m) => el("span", { class: "why" }, m.message))),
        el("button", { type: "button", class: "minus", title: "Remove one", "aria-label": `Remove one ${cardName(passcode)}`,
                       onclick: () => removeCard(passcode, section) }, "−"),
        el("button", { type: "button", class: "plus", title: "Add one", "aria-label": `Add one ${cardName(passcode)}`,
                       onclick: () => { state.deck[section].push(passcode); changed(); } }, "+"),
        el("button", { type: "button", class: "move", title: `Move one to the ${other} deck`,
                       onclick: () => moveCard(passcode, section, other) }, other === "side" ? "→ Side" : "→ Deck"));
    }));
  }
  $("deck-name").textContent = state.name ? `· ${state.name}` : "";
}

function changed() {
  renderDeck();
  renderCategories();
  validate();
  odds();
}

// -- legality -----------------------------------------------------------------------------

function showVerdict(kind, text) {
  const verdict = $("verdict");
  verdict.dataset.state = kind;
  verdict.textContent = text;
}

const validate = debounce(async () => {
  const seq = ++state.seq.validate;
  const total = SECTIONS.reduce((n, s) => n + state.deck[s].length, 0);
  if (!total) {
    state.marks = new Map();
    showVerdict("empty", "Empty deck");
    $("violations").replaceChildren(el("li", { class: "none" }, "Add cards to check the deck."));
    renderDeck();
    return;
  }
  let report;
  try {
    report = await api("POST", "/v1/validate", { deck: deckJson(), ...rules() });
  } catch (e) {
    if (seq === state.seq.validate) showVerdict("error", `Cannot check: ${e.message}`);
    return;
  }
  if (seq !== state.seq.validate) return;  // the deck changed meanwhile
  showVerdict(report.legal ? "legal" : "illegal", report.legal ? "LEGAL" : "ILLEGAL");
  $("verdict").title = `${report.format}, era ${report.era}, ${report.date}` +
    (report.banlist ? `, list ${report.banlist.name}` : "");
  state.marks = new Map();
  for (const v of report.violations) {
    if (v.passcode === null || v.passcode === undefined) continue;
    const key = `${v.section || "*"}:${v.passcode}`;
    if (!state.marks.has(key)) state.marks.set(key, []);
    state.marks.get(key).push(v);
  }
  const list = report.violations.length
    ? report.violations.map((v) => el("li", { class: v.severity, dataset: { code: v.code } },
        el("code", {}, v.code), v.message))
    : [el("li", { class: "none" }, `No problem: legal in ${report.format} on ${report.date}.`)];
  $("violations").replaceChildren(...list);
  renderDeck();
}, 150);

// -- import / export ----------------------------------------------------------------------

async function importDeck() {
  const text = $("io").value;
  const notes = $("io-notes");
  notes.replaceChildren();
  if (!text.trim()) { notes.append(el("li", {}, "Paste a deck first.")); return; }
  let result;
  try { result = await api("POST", "/v1/convert", { deck: text, to: "json" }); } catch (e) {
    notes.append(el("li", {}, `Cannot import: ${e.message}`));
    return;
  }
  const deck = JSON.parse(result.content);
  state.deck = { main: deck.main || [], extra: deck.extra || [], side: deck.side || [] };
  state.name = deck.name || null;
  for (const f of result.findings) {
    notes.append(el("li", {}, `${f.line ? "line " + f.line + ": " : ""}${f.message}`));
  }
  await ensureCards(SECTIONS.flatMap((s) => state.deck[s]));
  changed();
}

async function exportDeck(to) {
  const notes = $("io-notes");
  notes.replaceChildren();
  try {
    const result = await api("POST", "/v1/convert", { deck: deckJson(), to });
    $("io").value = result.content;
    $("io").dataset.format = to;
  } catch (e) { notes.append(el("li", {}, `Cannot export: ${e.message}`)); }
}

// -- odds ---------------------------------------------------------------------------------

function addCategory() {
  const input = $("new-category");
  const name = input.value.trim().replace(/[`]/g, "");
  if (!name || state.categories.some((c) => c.name === name)) return;
  state.categories.push({ name, want: "any", cards: new Set() });
  input.value = "";
  renderCategories();
  odds();
}

function renderCategories() {
  const distinct = [...new Set(state.deck.main)];
  $("categories").replaceChildren(...state.categories.map((cat, i) => {
    for (const p of [...cat.cards]) if (!distinct.includes(p)) cat.cards.delete(p);
    const want = el("select", { "aria-label": `What the hand needs of ${cat.name}`,
      onchange: (e) => { cat.want = e.target.value; odds(); } },
      el("option", { value: "any" }, "at least 1"), el("option", { value: "none" }, "none"));
    want.value = cat.want;
    return el("div", { class: "category", dataset: { name: cat.name } },
      el("header", {}, el("strong", {}, cat.name), want,
        el("button", { type: "button", class: "quiet", onclick: () => { state.categories.splice(i, 1); renderCategories(); odds(); } }, "Remove")),
      el("div", { class: "picks" }, ...(distinct.length ? distinct.map((p) => {
        const box = el("input", { type: "checkbox", onchange: (e) => {
          if (e.target.checked) cat.cards.add(p); else cat.cards.delete(p);
          odds();
        } });
        box.checked = cat.cards.has(p);
        return el("label", {}, box, cardName(p));
      }) : [el("span", { class: "none" }, "The Main Deck is empty.")])));
  }));
}

function quote(name) { return "`" + name + "`"; }

const odds = debounce(async () => {
  const seq = ++state.seq.odds;
  const cats = state.categories.filter((c) => c.cards.size);
  const box = $("odds");
  if (!cats.length || !state.deck.main.length) {
    box.replaceChildren(el("p", { class: "none" }, state.categories.length ? "Tick cards in a category." : "No category yet."));
    $("chart").replaceChildren();
    return;
  }
  const categories = {};
  const conditions = {};
  for (const c of cats) {
    categories[c.name] = { passcodes: [...c.cards] };
    conditions[`${c.name}: ${c.want === "any" ? "at least 1" : "none"}`] = `${quote(c.name)} ${c.want === "any" ? ">= 1" : "== 0"}`;
  }
  if (cats.length > 1) {
    conditions["all of these"] = cats.map((c) => `${quote(c.name)} ${c.want === "any" ? ">= 1" : "== 0"}`).join(" and ");
  }
  let stats;
  try {
    stats = await api("POST", "/v1/simulate", {
      deck: deckJson(), ...rules(), spec: { categories, conditions }, turns: TURNS, going: "both",
      trials: 20000, seed: 1,
    });
  } catch (e) {
    if (seq === state.seq.odds) box.replaceChildren(el("p", { class: "none" }, `Cannot compute odds: ${e.message}`));
    return;
  }
  if (seq !== state.seq.odds) return;
  const pct = (p) => `${(100 * p).toFixed(1)}%`;
  const head = el("tr", {}, el("th", {}, "by turn"), ...Array.from({ length: stats.turns }, (_, i) => el("th", {}, String(i + 1))));
  const rows = [];
  for (const c of stats.conditions) {
    for (const going of stats.going) {
      rows.push(el("tr", { dataset: { condition: c.name, going } }, el("td", {}, `${c.name} (going ${going})`),
        ...c.results[going].map((r) => el("td", {}, pct(r.p)))));
    }
  }
  box.replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)),
    el("p", { class: "hint" }, stats.method === "exact" ? "Exact odds." : `Simulated (${stats.trials} games per going, 95% intervals in the API).`));
  drawChart(stats);
}, 300);

function svg(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawChart(stats) {
  const W = 360, H = 200, L = 34, R = 10, T = 10, B = 28;
  const turns = stats.turns;
  const x = (t) => L + (turns === 1 ? (W - L - R) / 2 : ((t - 1) * (W - L - R)) / (turns - 1));
  const y = (p) => T + (1 - p) * (H - T - B);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
  root.append(svg("title", {}, "Odds by turn, going first (solid) and second (dashed)"));
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#d9dee5" }));
    root.append(svg("text", { x: 2, y: y(p) + 3 }, `${p * 100}%`));
  }
  for (let t = 1; t <= turns; t++) root.append(svg("text", { x: x(t) - 3, y: H - 14 }, String(t)));
  root.append(svg("text", { x: W / 2 - 20, y: H - 2 }, "turn"));
  stats.conditions.forEach((c, i) => {
    const colour = COLOURS[i % COLOURS.length];
    for (const going of stats.going) {
      const points = c.results[going].map((r) => `${x(r.turn)},${y(r.p)}`).join(" ");
      root.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2,
        "stroke-dasharray": going === "second" ? "5 4" : "none", "data-going": going, "data-condition": c.name }));
    }
  });
  const legend = el("ul", { class: "notes" }, ...stats.conditions.map((c, i) =>
    el("li", { style: `color:${COLOURS[i % COLOURS.length]}` }, `${c.name} — solid: first, dashed: second`)));
  $("chart").replaceChildren(root, legend);
}

// -- start --------------------------------------------------------------------------------

function start() {
  $("date").value = new Date().toISOString().slice(0, 10);
  $("search").addEventListener("input", search);
  $("lang").addEventListener("change", search);
  for (const id of ["region", "format", "date"]) $(id).addEventListener("change", () => { validate(); odds(); });
  $("import").addEventListener("click", importDeck);
  for (const id of ["export-ydk", "export-ydke", "export-text"]) {
    $(id).addEventListener("click", (e) => exportDeck(e.currentTarget.dataset.to));
  }
  $("add-category").addEventListener("click", addCategory);
  $("new-category").addEventListener("keydown", (e) => { if (e.key === "Enter") addCategory(); });
  $("clear").addEventListener("click", () => { state.deck = { main: [], extra: [], side: [] }; state.name = null; changed(); });
  loadFormats();
  renderDeck();
}

document.addEventListener("DOMContentLoaded", start);
