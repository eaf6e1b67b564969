// The builder's "Submit to event": the deck in the builder sent to an event's submission URL
// (POST /v1/events/ID/registrations), or replacing the player's registration with its edit
// token (PUT .../registrations/RID). Loaded by the builder's page; it adds its own button and
// panel, and reads the deck through window.deckcheckBuilder.
"use strict";

(function () {
  const KEY = "deckcheck-event-";  // + event id: {registration, token, player, player_id}

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function call(method, path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, { method, headers, body: JSON.stringify(body) });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const error = new Error(data && data.error ? data.error.message : `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  // "http://host/?event=ID", "/?event=ID" or just "ID" -> the event id (same origin only)
  function eventOf(text) {
    const raw = (text || "").trim();
    if (!raw) return null;
    if (/^[A-Za-z0-9_-]{4,64}$/.test(raw)) return raw;
    let url;
    try { url = new URL(raw, location.href); } catch (e) { return null; }
    if (url.origin !== location.origin) throw new Error("this submission link is for another site: open it there");
    return url.searchParams.get("event");
  }

  function saved(id) {
    try { return JSON.parse(localStorage.getItem(KEY + id) || "null"); } catch (e) { return null; }
  }

  function build() {
    const deckButtons = document.querySelector("#deck-panel .buttons");
    if (!deckButtons || !window.deckcheckBuilder) return;
    const open = el("button", { id: "event-open", type: "button", class: "quiet" }, "Submit to event");
    deckButtons.appendChild(open);

    const panel = el("section", { id: "event-panel", class: "event-panel", "aria-label": "Submit to event" });
    panel.hidden = true;
    panel.innerHTML = `
      <h3>Submit to event</h3>
      <label>Submission link <input id="event-url" type="text" spellcheck="false" placeholder="https://…/?event=…"></label>
      <p id="event-info" class="hint"></p>
      <label>Player name <input id="event-player" type="text" maxlength="200" autocomplete="name"></label>
      <label>Player ID <input id="event-player-id" type="text" maxlength="100"></label>
      <label>Edit token <input id="event-token" type="text" spellcheck="false" placeholder="(for a change to your registration)"></label>
      <div class="buttons">
        <button id="event-submit" type="button">Submit deck</button>
        <button id="event-update" type="button" class="quiet">Update my registration</button>
      </div>
      <div id="event-result" class="event-result" aria-live="polite"></div>`;
    deckButtons.parentNode.insertBefore(panel, deckButtons.nextSibling);
    const $ = (id) => document.getElementById(id);
    const result = $("event-result");

    function show(state, title, lines) {
      result.replaceChildren();
      result.dataset.state = state;
      result.appendChild(el("strong", { id: "event-verdict" }, title));
      const list = el("ul");
      for (const line of lines) list.appendChild(el("li", {}, line));
      result.appendChild(list);
    }

    async function describe() {
      $("event-info").textContent = "";
      let id;
      try { id = eventOf($("event-url").value); } catch (e) { $("event-info").textContent = e.message; return null; }
      if (!id) return null;
      try {
        const ev = await (await fetch(`/v1/events/${encodeURIComponent(id)}`)).json();
        if (ev.error) { $("event-info").textContent = ev.error.message; return null; }
        const deadline = new Date(ev.deadline).toLocaleString();
        $("event-info").textContent = `${ev.name} · ${ev.format} · ${ev.date} · closes ${deadline} · ${ev.status}`;
      } catch (e) { $("event-info").textContent = "cannot reach the event"; }
      const mine = saved(id);
      if (mine) {
        $("event-token").value = $("event-token").value || mine.token || "";
        $("event-player").value = $("event-player").value || mine.player || "";
        $("event-player-id").value = $("event-player-id").value || mine.player_id || "";
      }
      return id;
    }

    function verdictLines(doc) {
      const v = doc.verdict || {};
      const lines = (v.violations || []).map((x) => `${x.code}: ${x.message}`);
      lines.push(`registration ${doc.id} · fingerprint ${doc.fingerprint} · version ${doc.version}`);
      return lines;
    }

    async function send(edit) {
      const id = await describe();
      if (!id) { show("error", "Give the event's submission link", []); return; }
      const deck = window.deckcheckBuilder.deckJson();
      const player = $("event-player").value.trim();
      const playerId = $("event-player-id").value.trim();
      try {
        let doc;
        if (edit) {
          const mine = saved(id) || {};
          const token = $("event-token").value.trim();
          const rid = mine.registration || new URLSearchParams(location.search).get("registration");
          if (!token || !rid) { show("error", "Give your edit token (from your first submission)", []); return; }
          doc = await call("PUT", `/v1/events/${encodeURIComponent(id)}/registrations/${encodeURIComponent(rid)}`,
                           { deck, player: player || null }, token);
        } else {
          doc = await call("POST", `/v1/events/${encodeURIComponent(id)}/registrations`,
                           { player, player_id: playerId, deck });
          localStorage.setItem(KEY + id, JSON.stringify({ registration: doc.id, token: doc.edit_token, player, player_id: playerId }));
          $("event-token").value = doc.edit_token;
        }
        const lines = verdictLines(doc);
        if (doc.edit_token) lines.push(`Your edit token (keep it; shown once): ${doc.edit_token}`);
        show(doc.legal ? "legal" : "illegal", doc.legal ? "SUBMITTED: LEGAL" : "SUBMITTED: ILLEGAL (fix it before the deadline)", lines);
      } catch (e) {
        const why = e.status === 409 ? "Already registered: use your edit token to update it"
          : e.status === 423 ? "Submissions are closed" : "Not submitted";
        show("error", why, [e.message]);
      }
    }

    open.addEventListener("click", () => { panel.hidden = !panel.hidden; if (!panel.hidden) $("event-url").focus(); });
    $("event-url").addEventListener("change", describe);
    $("event-submit").addEventListener("click", () => send(false));
    $("event-update").addEventListener("click", () => send(true));

    const params = new URLSearchParams(location.search);
    if (params.get("event")) {
      $("event-url").value = location.href;
      panel.hidden = false;
      describe();
    }
  }

  // the builder sets window.deckcheckBuilder when it starts (on DOMContentLoaded too)
  function whenReady(tries) {
    if (window.deckcheckBuilder || tries <= 0) build();
    else setTimeout(() => whenReady(tries - 1), 50);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => whenReady(100));
  else whenReady(100);
})();
