// deckcheck deck builder: plain JavaScript over the service's /v1 API (no build step, no
// external assets). Every string from the API or the user reaches the page through
// textContent, never as HTML.
"use strict";

const SECTIONS = ["main", "extra", "side"];
const COLOURS = ["#2357c6", "#b3261e", "#1b7f3b", "#9a6700", "#6f42c1", "#0b7285"];
const TURNS = 5;
const SAMPLES = 3;                           // sample hands shown under the odds
const MAX_LINK_CATEGORIES = 20;              // categories a share link may carry

const STORE = "deckcheck.deck";
const EXTENSIONS = { ydk: "ydk", ydke: "ydke.txt", text: "txt", omega: "omega.txt", json: "json" };

const state = {
  // per section, in order: a passcode per copy, or {line: "2 Ash Blosom"} for a line that names
  // no card (kept as the server's JSON deck form keeps it, and counted as the server counts it)
  deck: { main: [], extra: [], side: [] },
  name: null,
  cards: new Map(),                          // passcode -> card document (null: unknown)
  categories: [],                            // {name, want: "any" | "none", cards: Set<passcode>}
  marks: new Map(),                          // "section:passcode" -> [{severity, message}]
  seq: { validate: 0, search: 0, odds: 0 },
  fixing: null,                              // {section, index}: the unknown row a search fixes
  undo: null,                                // the deck before "Clear deck" or opening a link
  offer: null,                               // a shared deck waiting for "Open as a new deck"
  imageUrl: "",                              // DECKCHECK_IMAGE_URL of the server ("" = none)
};

const isUnknown = (entry) => typeof entry === "object" && entry !== null;

// copies an unknown line stands for: its leading count ("3 Foo", "3x Foo"), else 1
function lineCount(entry) {
  const m = /^\s*(\d{1,2})\s*[xX×]?\s+\S/.exec(entry.line || "");
  return m ? Number(m[1]) : 1;
}

function lineName(entry) {
  return (entry.line || "").replace(/^\s*\d{1,2}\s*[xX×]?\s+/, "").trim();
}

function sectionCount(section) {
  return state.deck[section].reduce((n, e) => n + (isUnknown(e) ? lineCount(e) : 1), 0);
}

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
  // answers (errors too) in the interface's language (i18n.js)
  const init = { method, headers: { "Accept-Language": window.deckcheckI18n ? window.deckcheckI18n.lang : "en" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = data && data.error ? data.error.message_local || data.error.message : `HTTP ${response.status}`;
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
  if (!$("tcg-region-choice").hidden) out.tcg_region = $("tcg-region").value;  // na/eu
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
      (f.kind === "era" ? eras : formats).append(el("option", { value: f.id, dataset: { region: f.region } }, `${f.name} (${f.id})`));
    }
    select.append(formats, eras);
    showTcgRegion();
  } catch (e) { showVerdict("error", `Formats: ${e.message}`); }
  try {
    const health = await api("GET", "/healthz");
    $("as-of").textContent = `${health.data.as_of} (fingerprint ${health.data.fingerprint.slice(0, 12)})`;
  } catch (e) { $("as-of").textContent = "unknown"; }
}

// North America / Europe: only where the format (or, with none picked, the timeline) is TCG's
function showTcgRegion() {
  const picked = $("format").selectedOptions[0];
  const region = picked && picked.dataset.region ? picked.dataset.region : $("region").value;
  $("tcg-region-choice").hidden = region !== "tcg";
}

// -- cards --------------------------------------------------------------------------------

function cardName(passcode) {
  const card = state.cards.get(passcode);
  if (card && window.deckcheckI18n) return window.deckcheckI18n.cardName(card);  // i18n.js
  return card ? card.name : `#${passcode} (unknown passcode)`;
}

async function ensureCards(passcodes) {
  const missing = [...new Set(passcodes.filter((p) => !isUnknown(p)))].filter((p) => !state.cards.has(p));
  await Promise.all(missing.map(async (p) => {
    try { state.cards.set(p, await api("GET", `/v1/cards/${p}`)); } catch (e) { state.cards.set(p, null); }
  }));
}

function image(passcode, name) {
  if (!state.imageUrl) return null;
  return el("img", { class: "thumb", loading: "lazy", alt: "", title: name,
                     src: state.imageUrl.replace("{passcode}", String(passcode)) });
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
  list.dataset.query = q;
  if (!data.results.length) { list.replaceChildren(el("li", { class: "none" }, "No card matches.")); return; }
  const fixing = state.fixing !== null;
  list.replaceChildren(...data.results.map((card) => {
    state.cards.set(card.passcode, card);
    // beside the English name: the interface's language, the searched one, Japanese, Chinese
    const others = [...new Set([cardName(card.passcode), card.names[$("lang").value],
      card.names.ja, card.names["zh-CN"]])].filter((n) => n && n !== card.name).join(" · ");
    const home = card.zone === "extra" ? "extra" : "main";
    const title = fixing ? "Use this card for the unknown line"
      : `Add to the ${home === "extra" ? "Extra" : "Main"} Deck`;
    return el("li", { dataset: { passcode: card.passcode } },
      image(card.passcode, card.name),
      el("button", { type: "button", class: "card-name", title,
                     onclick: () => pick(card.passcode, home) },
        el("span", { class: "en" }, card.name),
        el("span", { class: "sub" }, `${card.type_line}${others ? " · " + others : ""}`)),
      fixing ? null : el("button", { type: "button", class: "add-side", title: "Add to the Side Deck",
                                     "aria-label": `Add ${card.name} to the Side Deck`,
                                     onclick: () => addCard(card.passcode, "side") }, "Side"));
  }));
}, 120);

// a result chosen: added to the deck, or put in place of the unknown line being fixed
function pick(passcode, section) {
  if (state.fixing === null) { addCard(passcode, section); return; }
  const { section: where, index } = state.fixing;
  const entry = state.deck[where][index];
  state.fixing = null;
  $("search").placeholder = SEARCH_HINT;
  if (!isUnknown(entry)) { addCard(passcode, section); return; }
  const copies = Array(lineCount(entry)).fill(passcode);
  const card = state.cards.get(passcode);
  const target = where === "side" ? "side" : card && card.zone === "extra" ? "extra" : "main";
  state.deck[where].splice(index, 1);
  state.deck[target].push(...copies);
  focusAfter = { section: target, passcode: String(passcode), cls: "plus" };
  changed();
}

// keyboard in the search box and the results: arrows move, Enter adds, Escape goes back
function resultButtons() { return [...$("results").querySelectorAll("button.card-name")]; }

function searchKeys(e) {
  const buttons = resultButtons();
  if (e.key === "ArrowDown" && buttons.length) { e.preventDefault(); buttons[0].focus(); }
  else if (e.key === "Enter" && buttons.length) { e.preventDefault(); buttons[0].click(); }
  else if (e.key === "Escape" && state.fixing !== null) { state.fixing = null; $("search").placeholder = SEARCH_HINT; search(); }
}

function resultKeys(e) {
  const buttons = resultButtons();
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  if (e.key === "ArrowDown") { e.preventDefault(); buttons[Math.min(i + 1, buttons.length - 1)].focus(); }
  else if (e.key === "ArrowUp") { e.preventDefault(); (i === 0 ? $("search") : buttons[i - 1]).focus(); }
  else if (e.key === "Escape") { e.preventDefault(); $("search").focus(); }
}

function fixLine(section, index) {
  const entry = state.deck[section][index];
  state.fixing = { section, index };
  const box = $("search");
  box.value = lineName(entry);
  box.placeholder = "Search the card this line means…";
  box.focus();
  search();
}

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

let focusAfter = null;  // {section, passcode, cls}: where focus goes after the next render

function focusKey(node) {
  const row = node && node.closest ? node.closest(".cards li") : null;
  if (!row || !node.classList) return null;
  const cls = ["minus", "plus", "move", "fix", "drop"].find((c) => node.classList.contains(c));
  return cls ? { section: row.dataset.section, passcode: row.dataset.passcode, cls } : null;
}

function restoreFocus(key) {
  if (!key) return;
  const row = $(key.section).querySelector(`li[data-passcode="${CSS.escape(key.passcode)}"]`);
  const target = row ? row.querySelector(`button.${key.cls}`) || row.querySelector("button")
    : $(key.section).querySelector("li button") || $("search");
  if (target) target.focus();
}

function deckRow(section, passcode, n) {
  const marks = state.marks.get(`${section}:${passcode}`) || state.marks.get(`*:${passcode}`) || [];
  const bad = marks.some((m) => m.severity === "error");
  const card = state.cards.get(passcode);
  const other = section === "side" ? (card && card.zone === "extra" ? "extra" : "main") : "side";
  const name = cardName(passcode);
  return el("li", { class: bad ? "bad" : marks.length ? "warn" : "", dataset: { passcode, section } },
    image(passcode, name),
    el("span", { class: "n" }, `${n}×`),
    el("span", { class: "name" }, name, ...marks.map((m) => el("span", { class: "why" }, m.message_local || m.message))),
    el("button", { type: "button", class: "minus", title: "Remove one", "aria-label": `Remove one ${name}`,
                   onclick: () => removeCard(passcode, section) }, "−"),
    el("button", { type: "button", class: "plus", title: "Add one", "aria-label": `Add one ${name}`,
                   onclick: () => { state.deck[section].push(passcode); changed(); } }, "+"),
    el("button", { type: "button", class: "move", title: `Move one to the ${other} deck`,
                   "aria-label": `Move one ${name} to the ${other === "side" ? "Side" : "Main or Extra"} Deck`,
                   onclick: () => moveCard(passcode, section, other) }, other === "side" ? "→ Side" : "→ Deck"));
}

function unknownRow(section, entry, index) {
  const key = `line-${index}`;
  return el("li", { class: "unknown bad", dataset: { passcode: key, section, line: entry.line } },
    el("span", { class: "n" }, `${lineCount(entry)}×`),
    el("span", { class: "name" }, lineName(entry) || entry.line,
      el("span", { class: "why" }, "No card has this name: search for the one you mean.")),
    el("button", { type: "button", class: "fix", "aria-label": `Find the card for ${entry.line}`,
                   onclick: () => fixLine(section, index) }, "Find"),
    el("button", { type: "button", class: "drop", "aria-label": `Remove the line ${entry.line}`,
                   onclick: () => { state.deck[section].splice(index, 1); changed(); } }, "−"));
}

function renderDeck() {
  const key = focusAfter || focusKey(document.activeElement);
  focusAfter = null;
  for (const section of SECTIONS) {
    const counts = new Map();
    const unknown = [];
    state.deck[section].forEach((p, i) => {
      if (isUnknown(p)) unknown.push([p, i]);
      else counts.set(p, (counts.get(p) || 0) + 1);
    });
    $(`count-${section}`).textContent = String(sectionCount(section));
    $(section).replaceChildren(
      ...[...counts].map(([passcode, n]) => deckRow(section, passcode, n)),
      ...unknown.map(([entry, i]) => unknownRow(section, entry, i)));
  }
  $("deck-name").textContent = state.name ? `· ${state.name}` : "";
  restoreFocus(key);
}

function changed() {
  if (state.undo && sectionCount("main") + sectionCount("extra") + sectionCount("side")) forgetUndo();
  // the deck is no longer the one in the address bar: a reload shows this deck, never the link's
  if (location.hash && !state.offer) history.replaceState(null, "", location.pathname + location.search);
  renderDeck();
  renderCategories();
  save();
  validate();
  odds();
}

// -- keeping and sharing the deck ---------------------------------------------------------

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify({ deck: state.deck, name: state.name }));
  } catch (e) { /* storage full or off: the deck lives on in the page */ }
}

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (!saved || !saved.deck) return false;
    const ok = (v) => typeof v === "number" || (isUnknown(v) && typeof v.line === "string");
    state.deck = Object.fromEntries(SECTIONS.map((s) => [s, (saved.deck[s] || []).filter(ok)]));
    state.name = typeof saved.name === "string" ? saved.name : null;
    return true;
  } catch (e) { return false; }
}

function notice(text, undo, offer) {
  $("notice-text").textContent = text;
  $("notice").hidden = !text;
  $("undo").hidden = !undo;
  $("open-shared").hidden = !offer;
  $("keep-mine").hidden = !offer;
}

function clearDeck() {
  state.undo = { deck: state.deck, name: state.name };
  state.deck = { main: [], extra: [], side: [] };
  state.name = null;
  state.fixing = null;
  changed();
  notice("Deck cleared.", true);
  $("undo").focus();
}

function undoClear() {
  if (!state.undo) return;
  state.deck = state.undo.deck;
  state.name = state.undo.name;
  if (state.undo.question) applyQuestion(state.undo.question);
  state.undo = null;
  notice("", false);
  changed();
  $("clear").focus();
}

function forgetUndo() { state.undo = null; notice("", false); }

// the odds question (categories, going, turns) as a share link carries it
function question() {
  return {
    categories: state.categories.map((c) => ({ name: c.name, want: c.want, cards: [...c.cards] })),
    going: $("odds-going").value,
    turns: oddsTurns(),
  };
}

function applyQuestion(q) {
  if (!q || typeof q !== "object") return;
  const cats = Array.isArray(q.categories) ? q.categories.slice(0, MAX_LINK_CATEGORIES) : [];
  state.categories = [];
  for (const c of cats) {
    if (!c || typeof c.name !== "string") continue;
    const name = c.name.trim().replace(/[`]/g, "").slice(0, 80);
    if (!name || state.categories.some((x) => x.name === name)) continue;
    const cards = Array.isArray(c.cards) ? c.cards.filter((p) => Number.isInteger(p) && p > 0) : [];
    state.categories.push({ name, want: c.want === "none" ? "none" : "any", cards: new Set(cards) });
  }
  if (["both", "first", "second"].includes(q.going)) $("odds-going").value = q.going;
  if (Number.isInteger(q.turns) && q.turns >= 1 && q.turns <= 20) $("odds-turns").value = String(q.turns);
}

async function share() {
  let link;
  try {
    const result = await api("POST", "/v1/convert", { deck: deckJson(), to: "ydke" });
    let hash = result.content.trim();
    const q = question();
    if (q.categories.length) hash += "&odds=" + encodeURIComponent(JSON.stringify(q));
    link = `${location.origin}${location.pathname}#${hash}`;
  } catch (e) { notice(`Cannot make a link: ${e.message}`, false); return; }
  history.replaceState(null, "", link);
  const box = $("share-url");
  box.value = link;
  box.hidden = false;
  box.select();
  const lines = SECTIONS.some((s) => state.deck[s].some(isUnknown));
  let copied = false;
  try { await navigator.clipboard.writeText(link); copied = true; } catch (e) { /* not allowed here */ }
  notice((copied ? "Link copied." : "Link to this deck:") + (lines ? " (Unknown lines are not in it.)" : ""), false);
}

// the deck (and odds question) of the link in the address bar, or null
function parseLink() {
  const raw = location.hash.slice(1);
  const at = raw.indexOf("&odds=");
  let ydke;
  try { ydke = decodeURIComponent(at < 0 ? raw : raw.slice(0, at)); } catch (e) { return null; }
  if (!ydke.startsWith("ydke://")) return null;
  let q = null;
  if (at >= 0) {
    try { q = JSON.parse(decodeURIComponent(raw.slice(at + 6))); } catch (e) { q = null; }
  }
  return { ydke, q };
}

const sorted = (deck) => JSON.stringify(SECTIONS.map((s) => (deck[s] || []).filter((p) => !isUnknown(p)).sort((a, b) => a - b)));
const isEmpty = (deck) => SECTIONS.every((s) => !(deck[s] || []).length);

// A link in the address bar never replaces the deck without asking: it opens at once only
// when there is no deck of one's own (or the same deck); else the page offers it as a new
// deck, and "Undo" brings one's own deck back after opening it.
async function fromLink() {
  const link = parseLink();
  if (!link) return false;
  let deck;
  try {
    const result = await api("POST", "/v1/convert", { deck: link.ydke, to: "json" });
    deck = JSON.parse(result.content);
  } catch (e) { notice(`Cannot open the link: ${e.message}`, false); return false; }
  const shared = Object.fromEntries(SECTIONS.map((s) => [s, deck[s] || []]));
  const mine = state.deck;
  if (isEmpty(mine) || sorted(mine) === sorted(shared)) {
    await openShared(shared, deck.name || null, link.q, false);
    return true;
  }
  state.offer = { deck: shared, name: deck.name || null, q: link.q };
  notice("This link holds another deck. Your deck stays as it is unless you open the link.", false, true);
  $("open-shared").focus();
  return false;
}

async function openShared(deck, name, q, keepUndo) {
  const before = { deck: state.deck, name: state.name, question: question() };
  state.offer = null;
  state.deck = deck;
  state.name = name;
  state.fixing = null;
  if (q) applyQuestion(q);
  await ensureCards(SECTIONS.flatMap((s) => state.deck[s]));
  changed();
  if (keepUndo) {
    state.undo = before;
    notice("Opened the shared deck. Undo brings your deck back.", true);
    $("undo").focus();
  }
}

function acceptOffer() {
  if (state.offer) openShared(state.offer.deck, state.offer.name, state.offer.q, true);
}

function declineOffer() {
  state.offer = null;
  notice("", false);
  history.replaceState(null, "", location.pathname + location.search);
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
    const lang = window.deckcheckI18n ? window.deckcheckI18n.lang : "en";  // i18n.js
    report = await api("POST", "/v1/validate", { deck: deckJson(), ...rules(), lang });
  } catch (e) {
    if (seq !== state.seq.validate) return;
    // the previous verdict no longer holds: nothing of it stays on screen
    state.marks = new Map();
    $("verdict").title = "";
    showVerdict("error", `Cannot check: ${e.message}`);
    $("violations").replaceChildren(el("li", { class: "error", dataset: { code: e.code } }, `Cannot check the deck: ${e.message}`));
    renderDeck();
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
        el("code", {}, v.code), v.message_local || v.message))
    : [el("li", { class: "none" }, `No problem: legal in ${report.format} on ${report.date}.`)];
  if (report.points && report.points.cards.length) {  // Genesys: the cards that make the total
    const made = report.points.cards.map((c) =>
      c.copies > 1 ? `${c.copies}x ${c.name} ${c.each} = ${c.points}` : `${c.name} ${c.each}`);
    list.push(el("li", { class: "note points" },
      `${report.points.total}/${report.points.cap} points: ${made.join(", ")}`));
  }
  $("violations").replaceChildren(...list);
  renderDeck();
}, 150);

// -- import / export ----------------------------------------------------------------------

async function importText(text, name) {
  const notes = $("io-notes");
  notes.replaceChildren();
  if (!text.trim()) { notes.append(el("li", {}, "Paste a deck first.")); return; }
  let result;
  try { result = await api("POST", "/v1/convert", { deck: text, to: "json" }); } catch (e) {
    notes.append(el("li", {}, `Cannot import: ${e.message}`));
    return;
  }
  const deck = JSON.parse(result.content);
  state.deck = Object.fromEntries(SECTIONS.map((s) => [s, deck[s] || []]));
  state.name = deck.name || name || null;
  state.fixing = null;
  for (const f of result.findings) {
    notes.append(el("li", {}, `${f.line ? "line " + f.line + ": " : ""}${f.message}`));
  }
  await ensureCards(SECTIONS.flatMap((s) => state.deck[s]));
  changed();
}

function importDeck() { return importText($("io").value, null); }

function readFile(file) {
  if (!file) return;
  if (file.size > 1024 * 1024) { $("io-notes").replaceChildren(el("li", {}, `${file.name}: over 1 MiB`)); return; }
  const reader = new FileReader();
  reader.onload = () => {
    $("io").value = String(reader.result);
    importText(String(reader.result), file.name.replace(/\.(ydk|txt|json|ydke)$/i, ""));
  };
  reader.readAsText(file);
}

async function exportAs(to) {
  const result = await api("POST", "/v1/convert", { deck: deckJson(), to });
  $("io").value = result.content;
  $("io").dataset.format = to;
  return result.content;
}

async function exportDeck(to) {
  const notes = $("io-notes");
  notes.replaceChildren();
  try { await exportAs(to); } catch (e) { notes.append(el("li", {}, `Cannot export: ${e.message}`)); }
}

async function download() {
  const to = $("export-to").value;
  const notes = $("io-notes");
  notes.replaceChildren();
  let content;
  try { content = await exportAs(to); } catch (e) { notes.append(el("li", {}, `Cannot export: ${e.message}`)); return; }
  const type = to === "json" ? "application/json" : "text/plain";
  const url = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  const base = (state.name || "deck").replace(/[^\p{L}\p{N} ._-]+/gu, "_").slice(0, 80) || "deck";
  const a = el("a", { href: url, download: `${base}.${EXTENSIONS[to]}` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
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
  const distinct = [...new Set(state.deck.main.filter((p) => !isUnknown(p)))];
  $("categories").replaceChildren(...state.categories.map((cat, i) => {
    for (const p of [...cat.cards]) if (!distinct.includes(p)) cat.cards.delete(p);
    const want = el("select", { "aria-label": `What the hand needs of ${cat.name}`,
      onchange: (e) => { cat.want = e.target.value; odds(); } },
      el("option", { value: "any" }, "at least 1"), el("option", { value: "none" }, "none"));
    want.value = cat.want;
    return el("div", { class: "category", dataset: { name: cat.name } },
      el("header", {}, el("strong", {}, cat.name), want,
        el("button", { type: "button", class: "quiet whatif-button", onclick: () => whatIf(cat) }, "What if?"),
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
    $("samples").replaceChildren();
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
      deck: deckJson(), ...rules(), spec: { categories, conditions }, turns: oddsTurns(),
      going: $("odds-going").value, trials: 20000, seed: 1, sample: SAMPLES,
    });
  } catch (e) {
    if (seq !== state.seq.odds) return;
    // the old figures no longer hold: none of them stays on screen
    box.replaceChildren(el("p", { class: "none error" }, `Cannot compute odds: ${e.message}`));
    $("chart").replaceChildren();
    $("samples").replaceChildren();
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
  drawSamples(stats);
}, 300);

function oddsTurns() {
  const n = Number($("odds-turns").value);
  return Number.isInteger(n) && n >= 1 && n <= 20 ? n : TURNS;
}

// the card names of an answer (the service writes English names) in the interface's language,
// from the card documents of the deck
function localNames() {
  const local = new Map();
  for (const [passcode, card] of state.cards) if (card) local.set(card.name, cardName(passcode));
  return (name) => local.get(name) || name;
}

// a few seeded sample hands: what the figures mean, hand by hand
function drawSamples(stats) {
  const hands = stats.samples ? stats.samples.hands : [];
  if (!hands.length) { $("samples").replaceChildren(); return; }
  const names = stats.conditions.map((c) => c.name);
  const shown = localNames();
  $("samples").replaceChildren(el("h3", {}, `Sample hands (seed ${stats.samples.seed})`),
    el("ol", { class: "notes" }, ...hands.map((h) => {
      // one text node per piece, so that i18n.js translates each
      const draws = h.draws.map((d, t) => (d.length ? ` · turn ${t + 1}: ${d.map(shown).join(", ")}` : null));
      const met = names.filter((n) => h.met[n][h.met[n].length - 1]);
      return el("li", { dataset: { going: h.going } }, `going ${h.going}: ${h.hand.map(shown).join(", ")}`, ...draws,
        el("br"), `meets by turn ${stats.turns}: ${met.length ? met.join("; ") : "none"}`);
    })));
}

// "What if I play 2 more?": a ratio sweep of one category's copies (POST /v1/simulate/sweep),
// the deck size held by adjusting the cards of no category.
async function whatIf(cat) {
  const box = $("whatif");
  const copies = state.deck.main.filter((p) => cat.cards.has(p)).length;
  if (!copies) {
    box.replaceChildren(el("p", { class: "none" }, `Tick the cards of ${cat.name} first.`));
    return;
  }
  const values = [];
  for (let v = Math.max(0, copies - 2); v <= copies + 2; v++) values.push(v);
  const cond = `${cat.name}: ${cat.want === "any" ? "at least 1" : "none"}`;
  const spec = {
    categories: { [cat.name]: { passcodes: [...cat.cards] } },
    conditions: { [cond]: `${quote(cat.name)} ${cat.want === "any" ? ">= 1" : "== 0"}` },
  };
  box.replaceChildren(el("p", { class: "none" }, "Computing…"));
  let res;
  try {
    res = await api("POST", "/v1/simulate/sweep", {
      deck: deckJson(), ...rules(), spec, turns: 1, going: "first", trials: 20000, seed: 1,
      vary: { [cat.name]: values }, by: cond,
    });
  } catch (e) {
    box.replaceChildren(el("p", { class: "none" }, `Cannot compute: ${e.message}`));
    return;
  }
  const pct = (p) => `${(100 * p).toFixed(1)}%`;
  const rows = [...res.rows].sort((a, b) => a.values[cat.name] - b.values[cat.name]);
  box.replaceChildren(
    el("h3", {}, `What if: copies of ${cat.name}`),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "copies"), el("th", {}, `${cond}, opening hand going first`))),
      el("tbody", {}, ...rows.map((r) => {
        const n = r.values[cat.name];
        return el("tr", { dataset: { copies: String(n), p: String(r.results[cond].first.p) }, class: n === copies ? "now" : "" },
          el("td", {}, n === copies ? `${n} (now)` : String(n)), el("td", {}, pct(r.results[cond].first.p)));
      }))),
    el("p", { class: "hint" }, `${res.method === "exact" ? "Exact odds" : "Simulated"}; the deck stays at ${res.deck.main} cards (cards of no category make room).`));
}

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
  const legend = el("ul", { class: "notes" }, ...stats.conditions.map((c, i) => {
    const item = el("li", {}, `${c.name} — solid: first, dashed: second`);
    item.style.color = COLOURS[i % COLOURS.length];  // CSSOM: allowed by the page's CSP
    return item;
  }));
  $("chart").replaceChildren(root, legend);
}

// -- start --------------------------------------------------------------------------------

const SEARCH_HINT = "Search: Ash Blossom, 灰流うらら, 灰流丽…";

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function dropImport() {
  const zone = document.body;
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("dropping"); });
  zone.addEventListener("dragleave", (e) => { if (e.target === zone) zone.classList.remove("dropping"); });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("dropping");
    const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (file) readFile(file);
  });
}

async function start() {
  // for i18n.js (names in the interface's language) and print.js (the "Print decklist" view)
  window.deckcheckBuilder = { state, deckJson, rules, cardName };
  if (window.deckcheckI18n) window.deckcheckI18n.onChange(() => { renderDeck(); renderCategories(); validate(); });
  const meta = document.querySelector('meta[name="deckcheck-image-url"]');
  state.imageUrl = meta && /^https?:\/\//.test(meta.content) ? meta.content : "";
  $("date").value = localDate();
  $("search").placeholder = SEARCH_HINT;
  $("search").addEventListener("input", search);
  $("search").addEventListener("keydown", searchKeys);
  $("results").addEventListener("keydown", resultKeys);
  $("lang").addEventListener("change", search);
  for (const id of ["region", "format", "date", "tcg-region"]) $(id).addEventListener("change", () => { showTcgRegion(); validate(); odds(); });
  $("import").addEventListener("click", importDeck);
  $("file").addEventListener("change", (e) => { readFile(e.target.files[0]); e.target.value = ""; });
  $("file-button").addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); $("file").click(); }
  });
  $("export").addEventListener("click", () => exportDeck($("export-to").value));
  $("download").addEventListener("click", download);
  $("add-category").addEventListener("click", addCategory);
  $("new-category").addEventListener("keydown", (e) => { if (e.key === "Enter") addCategory(); });
  $("clear").addEventListener("click", clearDeck);
  $("undo").addEventListener("click", undoClear);
  $("share").addEventListener("click", share);
  $("open-shared").addEventListener("click", acceptOffer);
  $("keep-mine").addEventListener("click", declineOffer);
  for (const id of ["odds-going", "odds-turns"]) $(id).addEventListener("change", () => odds());
  window.addEventListener("hashchange", fromLink);
  dropImport();
  loadFormats();
  const saved = restore();  // one's own deck first: a link in the address bar never replaces it unasked
  if (await fromLink()) return;
  if (saved) {
    await ensureCards(SECTIONS.flatMap((s) => state.deck[s]));
    changed();  // with a link on offer, the address bar keeps it until the user answers
    return;
  }
  renderDeck();
}

document.addEventListener("DOMContentLoaded", start);
