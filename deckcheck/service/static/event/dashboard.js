// The organiser's dashboard of one event: registrations, illegal and missing decks, lock,
// publish, downloads. The organiser token stays in this tab (sessionStorage) and goes only in
// the Authorization header; nothing is loaded from elsewhere.
"use strict";

(function () {
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  const $ = (x) => document.getElementById(x);
  const TOKEN = `deckcheck-organiser-${id}`;
  const EXPECTED = `deckcheck-expected-${id}`;
  let token = sessionStorage.getItem(TOKEN) || "";
  let entries = [];

  function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); }
  function item(list, text) { const li = document.createElement("li"); li.textContent = text; list.appendChild(li); }

  async function call(method, path) {
    const response = await fetch(path, { method, headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try { const data = await response.json(); message = data.error.message; } catch (e) { /* not JSON */ }
      const error = new Error(message); error.status = response.status; throw error;
    }
    return response;
  }

  function showEvent(ev) {
    $("event-name").textContent = ev.name;
    $("event-status").textContent = ev.status;
    $("event-status").dataset.status = ev.status;
    $("event-facts").textContent = `${ev.format} · ${ev.date} · submissions close ${new Date(ev.deadline).toLocaleString()}`;
    if (ev.submission_url) { $("submission-url").textContent = ev.submission_url; $("submission-url").href = ev.submission_url; }
    $("lock").disabled = ev.status !== "open";
    $("publish").disabled = ev.status === "published";
  }

  function expected() {
    return $("expected").value.split(/\r?\n/).map((l) => l.split(/[,;\t]/)[0].trim()).filter((x) => x && !/^player.?id$/i.test(x));
  }

  function render() {
    const legal = entries.filter((e) => e.legal).length;
    const have = new Set(entries.map((e) => e.player_id));
    const missing = expected().filter((x) => !have.has(x));
    $("count-all").textContent = `${entries.length} registrations`;
    $("count-legal").textContent = `${legal} legal`;
    $("count-illegal").textContent = `${entries.length - legal} illegal`;
    $("count-missing").textContent = `${missing.length} missing`;
    const body = $("registrations"); body.replaceChildren();
    for (const e of entries) {
      const row = document.createElement("tr");
      row.className = e.legal ? "legal" : "illegal";
      row.dataset.playerId = e.player_id;
      for (const text of [e.player_id, e.player, e.legal ? "legal" : "ILLEGAL", e.fingerprint, String(e.version), new Date(e.updated_at).toLocaleString()]) cell(row, text);
      body.appendChild(row);
    }
    const bad = $("illegal"); bad.replaceChildren();
    for (const e of entries.filter((x) => !x.legal)) {
      const codes = ((e.verdict || {}).violations || []).filter((v) => v.severity === "error").map((v) => v.code);
      item(bad, `${e.player_id} ${e.player}: ${[...new Set(codes)].join(", ")}`);
    }
    const gone = $("missing"); gone.replaceChildren();
    for (const x of missing) item(gone, x);
  }

  async function load() {
    $("message").textContent = "";
    try {
      const list = await (await call("GET", `/v1/events/${encodeURIComponent(id)}/registrations`)).json();
      const ev = await (await fetch(`/v1/events/${encodeURIComponent(id)}`)).json();
      showEvent(ev);
      entries = list.registrations;
      render();
      const log = await (await call("GET", `/v1/events/${encodeURIComponent(id)}/audit`)).json();
      const body = $("audit"); body.replaceChildren();
      for (const a of log.audit) {
        const row = document.createElement("tr");
        for (const text of [new Date(a.at).toLocaleString(), a.action, a.actor, a.registration_id || "", a.old_fingerprint || "", a.new_fingerprint || ""]) cell(row, text);
        body.appendChild(row);
      }
      $("board").hidden = false;
      sessionStorage.setItem(TOKEN, token);
    } catch (e) {
      $("board").hidden = true;
      $("message").textContent = e.status === 401 || e.status === 403 ? `That is not this event's organiser token (${e.message})` : e.message;
    }
  }

  async function act(what) {
    try { await call("POST", `/v1/events/${encodeURIComponent(id)}/${what}`); await load(); } catch (e) { $("message").textContent = e.message; }
  }

  async function download(file) {
    try {
      const response = await call("GET", `/v1/events/${encodeURIComponent(id)}/${file}`);
      const blob = await response.blob();
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = file === "meta" ? `${id}-meta.json` : file === "export" ? `event-${id}.zip` : `${id}-${file}`;
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (e) { $("message").textContent = e.message; }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    try { showEvent(await (await fetch(`/v1/events/${encodeURIComponent(id)}`)).json()); } catch (e) { /* shown on load */ }
    $("expected").value = localStorage.getItem(EXPECTED) || "";
    $("expected").addEventListener("input", () => { localStorage.setItem(EXPECTED, $("expected").value); render(); });
    $("sign-in").addEventListener("click", () => { token = $("token").value.trim(); load(); });
    $("token").addEventListener("keydown", (e) => { if (e.key === "Enter") { token = $("token").value.trim(); load(); } });
    $("refresh").addEventListener("click", load);
    $("lock").addEventListener("click", () => { if (confirm("Lock the event? No deck can change after it.")) act("lock"); });
    $("publish").addEventListener("click", () => { if (confirm("Publish every decklist?")) act("publish"); });
    for (const b of document.querySelectorAll("#downloads button")) b.addEventListener("click", () => download(b.dataset.file));
    if (token) load();
  });
})();
