// deckcheck deck builder: the "Print decklist" view, a registration sheet as print-styled HTML
// (Monster / Spell / Trap cards of the Main Deck with counts and totals, the Extra and Side
// Decks, the player's and event's fields to fill in, the verdict), and the same sheet as a PDF
// with the deck's QR code from POST /v1/sheet. It reads the deck through the small interface
// builder.js exposes (window.deckcheckBuilder); every string reaches the page as text.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const i18n = () => window.deckcheckI18n;
  const tr = (text) => (i18n() ? i18n().t(text) : text);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function builder() { return window.deckcheckBuilder; }

  function name(card, passcode) {
    if (!card) return { text: `#${passcode}`, fallback: false };
    const local = i18n() ? i18n().cardName(card) : card.name;
    const fallback = i18n() ? !i18n().hasLocalName(card) : false;
    return { text: local + (fallback ? " *" : ""), fallback };
  }

  function groups() {
    const b = builder();
    const out = { monster: [], spell: [], trap: [], other: [], extra: [], side: [] };
    let fallback = false;
    for (const section of ["main", "extra", "side"]) {
      const counts = new Map();
      for (const p of b.state.deck[section]) {
        if (typeof p === "object" && p !== null) {  // a line naming no card, kept as written
          const m = /^\s*(\d{1,2})\s*[xX×]?\s+(\S.*)$/.exec(p.line || "");
          const row = { passcode: "", n: m ? Number(m[1]) : 1, name: (m ? m[2] : p.line || "").trim() };
          out[section === "main" ? "other" : section].push(row);
          continue;
        }
        counts.set(p, (counts.get(p) || 0) + 1);
      }
      for (const [passcode, n] of counts) {
        const card = b.state.cards.get(passcode);
        const shown = name(card, passcode);
        fallback = fallback || shown.fallback;
        let group = section;
        if (section === "main") {
          const kind = card ? String(card.kind).toLowerCase() : "";
          group = ["monster", "spell", "trap"].includes(kind) ? kind : "other";
        }
        out[group].push({ passcode, n, name: shown.text });
      }
    }
    return { groups: out, fallback };
  }

  function block(title, rows, minimum, key) {
    const body = el("tbody", {});
    for (const r of rows) {
      body.append(el("tr", { "data-passcode": String(r.passcode) },
        el("td", { class: "qty" }, String(r.n)), el("td", { class: "card", "data-no-i18n": "" }, r.name)));
    }
    for (let i = rows.length; i < minimum; i++) body.append(el("tr", {}, el("td", { class: "qty" }), el("td", { class: "card" })));
    const total = rows.reduce((s, r) => s + r.n, 0);
    return el("table", { class: "block", "data-group": key },
      el("colgroup", {}, el("col", { class: "qty-col" }), el("col", {})),
      el("thead", {}, el("tr", {}, el("th", { colspan: "2" }, tr(title)))),
      body,
      el("tfoot", {}, el("tr", {}, el("td", { colspan: "2" }, `${tr("Total")}: ${total}`))));
  }

  function field(label, id, value) {
    const input = el("input", { type: "text", id, "aria-label": tr(label) });
    if (value) input.value = value;
    return el("label", { class: "field" }, el("span", {}, tr(label)), input);
  }

  async function verdict(box) {
    const b = builder();
    try {
      const r = await fetch("/v1/validate", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ deck: b.deckJson(), ...b.rules(), lang: i18n() ? i18n().lang : "en" }) });
      const report = await r.json();
      if (!r.ok) throw new Error(report.error ? report.error.message : `HTTP ${r.status}`);
      const errors = report.violations.filter((v) => v.severity === "error");
      const head = report.legal
        ? (report.banlist ? `Legal on ${report.date}, list ${report.banlist.name}` : `Legal on ${report.date}`)
        : `Not legal on ${report.date}: ${errors.length} errors`;
      box.className = `verdict-box ${report.legal ? "legal" : "illegal"}`;
      box.replaceChildren(el("strong", {}, tr(head)),
        ...errors.slice(0, 4).map((v) => el("div", {}, `${v.code}: ${v.message_local || v.message}`)));
    } catch (e) { box.replaceChildren(el("strong", {}, e.message)); }
  }

  async function ydke(box) {
    const b = builder();
    try {
      const r = await fetch("/v1/convert", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ deck: b.deckJson(), to: "ydke" }) });
      const out = await r.json();
      if (r.ok) box.textContent = out.content.trim();
    } catch (e) { /* the URL is a convenience */ }
  }

  async function download() {
    const b = builder();
    const body = { deck: b.deckJson(), ...b.rules(), lang: i18n() ? i18n().lang : "en" };
    for (const [key, id] of [["player", "print-player"], ["player_id", "print-player-id"], ["event", "print-event"]]) {
      const value = $(id).value.trim();
      if (value) body[key] = value;
    }
    const r = await fetch("/v1/sheet", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    if (!r.ok) return;
    const url = URL.createObjectURL(await r.blob());
    const a = el("a", { href: url, download: "decklist.pdf" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function render() {
    const b = builder();
    const { groups: g, fallback } = groups();
    const rules = b.rules();
    const kept = {};
    for (const id of ["print-player", "print-player-id", "print-event"]) kept[id] = $(id) ? $(id).value : "";
    const main = ["monster", "spell", "trap"].reduce((s, k) => s + g[k].reduce((t, r) => t + r.n, 0), 0) +
      g.other.reduce((t, r) => t + r.n, 0);
    const rows = Math.max(20, g.monster.length, g.spell.length, g.trap.length + g.other.length);
    const trap = block("Trap Cards", g.trap, g.other.length ? 0 : rows, "trap");
    const trapColumn = el("div", { class: "column" }, trap,
      g.other.length ? block("Other / unknown", g.other, rows - g.trap.length, "other") : null);
    const sum = (k) => g[k].reduce((t, r) => t + r.n, 0);
    const verdictBox = el("div", { class: "verdict-box" });
    const url = el("div", { class: "ydke", "data-no-i18n": "" });
    const sheet = el("article", { class: "sheet" },
      el("h1", {}, tr("Deck Registration Sheet")),
      el("div", { class: "fields" },
        field("Player name", "print-player", kept["print-player"]),
        field("Player ID", "print-player-id", kept["print-player-id"]),
        field("Date", "print-date", rules.date || ""),
        field("Event", "print-event", kept["print-event"]),
        field("Format", "print-format", rules.format || rules.region || ""),
        field("Deck name", "print-deck", b.state.name || "")),
      el("h2", {}, `${tr("Main Deck")}: ${main}`),
      el("div", { class: "main-deck" },
        el("div", { class: "column" }, block("Monster Cards", g.monster, rows, "monster")),
        el("div", { class: "column" }, block("Spell Cards", g.spell, rows, "spell")),
        trapColumn),
      el("div", { class: "lower" },
        el("div", { class: "column" }, block("Extra Deck", g.extra, 15, "extra")),
        el("div", { class: "column" }, block("Side Deck", g.side, 15, "side")),
        el("div", { class: "column totals" },
          el("table", { class: "block", "data-group": "totals" },
            el("colgroup", {}, el("col", {}), el("col", { class: "qty-col" })),
            el("thead", {}, el("tr", {}, el("th", { colspan: "2" }, tr("Deck totals")))),
            el("tbody", {},
              el("tr", {}, el("td", {}, tr("Main Deck")), el("td", { class: "qty" }, String(main))),
              el("tr", {}, el("td", {}, tr("Extra Deck")), el("td", { class: "qty" }, String(sum("extra")))),
              el("tr", {}, el("td", {}, tr("Side Deck")), el("td", { class: "qty" }, String(sum("side")))))),
          el("p", { class: "hint" }, tr("The deck as a ydke:// URL")), url)),
      verdictBox,
      fallback ? el("p", { class: "hint" }, tr("* no name in this language: the English name is shown")) : null);
    const toolbar = el("div", { class: "toolbar" },
      el("button", { type: "button", id: "print-go", onclick: () => window.print() }, tr("Print")),
      el("button", { type: "button", id: "print-pdf", onclick: download }, tr("Download PDF (with QR code)")),
      el("button", { type: "button", id: "print-close", class: "quiet", onclick: close }, tr("Close")));
    $("print-view").replaceChildren(toolbar, sheet);
    verdict(verdictBox);
    ydke(url);
  }

  function open() {
    if (!builder()) return;
    let view = $("print-view");
    if (!view) {
      view = el("div", { id: "print-view" });
      document.body.append(view);
    }
    render();
    document.body.classList.add("printing");
  }

  function close() {
    document.body.classList.remove("printing");
    const view = $("print-view");
    if (view) view.replaceChildren();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const anchor = $("clear");
    const button = el("button", { type: "button", id: "print-open", class: "quiet", onclick: open }, "Print decklist");
    if (anchor) anchor.after(" ", button); else document.body.append(button);
    if (i18n()) i18n().onChange(() => { if (document.body.classList.contains("printing")) setTimeout(render, 0); });
  });
})();
