// Shared by every part of the page: who is asking (link or Telegram initData), the API, the words,
// messages, buttons and sending a move. Each part registers on `window.RC`; no build step.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.slice(1));
  const tgData = hash.get("tgWebAppData"); // present only when Telegram opened the page
  const auth = new URLSearchParams();
  if (params.get("k")) auth.set("k", params.get("k"));
  else if (tgData) auth.set("tma", tgData);
  if (params.get("lang")) auth.set("lang", params.get("lang"));
  const pathTable = location.pathname.match(/\/(?:table|replay)\/([^/]+)/);
  const tableId = pathTable ? decodeURIComponent(pathTable[1])
    : (tgData && new URLSearchParams(tgData).get("start_param")) || params.get("table") || "";
  const api = (suffix, extra) => {
    const q = new URLSearchParams(auth);
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    return `/api/table/${encodeURIComponent(tableId)}${suffix}?${q}`;
  };

  // The page's state: the last payload, the card games' picks (in pick order), the Rummikub draft.
  // `staged`: the melds staged for a compound move (issue 25), each a list of hand positions.
  const st = { words: {}, data: null, picks: [], staged: [], draft: null };
  const w = (key, vars) => {
    let s = st.words[key] || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.replace(`{${k}}`, v);
    return s;
  };

  // ---- Telegram: the theme (from the launch hash at once, from the script when it loads) ----
  function applyTheme(theme) {
    const map = { bg_color: "--bg", text_color: "--text", hint_color: "--hint", button_color: "--button",
      button_text_color: "--button-text", secondary_bg_color: "--card" };
    for (const [k, v] of Object.entries(theme || {})) if (map[k]) document.documentElement.style.setProperty(map[k], v);
  }
  if (tgData) {
    try { applyTheme(JSON.parse(hash.get("tgWebAppThemeParams") || "{}")); } catch (e) { /* no theme: defaults */ }
    const s = document.createElement("script");
    s.src = "https://telegram.org/js/telegram-web-app.js";
    s.onload = () => { const app = window.Telegram && Telegram.WebApp; if (app) { app.ready(); app.expand();
      applyTheme(app.themeParams); app.onEvent("themeChanged", () => applyTheme(app.themeParams)); } };
    document.head.appendChild(s); // if it cannot load, the page works as in any browser
  }

  function say(text, info) {
    const m = $("message");
    m.textContent = text || "";
    m.hidden = !text;
    m.classList.toggle("info", !!info);
  }

  async function loadWords(lang) {
    if (st.words.__lang === lang) return;
    const r = await fetch(`/api/words/${lang}`);
    if (!r.ok) return;
    st.words = await r.json();
    st.words.__lang = lang;
    document.documentElement.lang = lang;
    $("astext").textContent = w("web.as_text");
  }

  function denied() {
    say(w("web.denied"));
    $("board").replaceChildren();
    $("handbox").hidden = true;
    document.body.dataset.state = "denied";
  }

  function button(label, onClick, kind) {
    const b = document.createElement("button");
    b.textContent = label;
    b.dataset.kind = kind;
    b.addEventListener("click", onClick);
    return b;
  }

  const el = (tag, className, text) => {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const newKey = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

  // A move: the whole Rummikub layout (`play`) or a legal-move control (`press`), with the page's version.
  async function send(body) {
    const r = await fetch(api("/move"), { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ version: st.data.version, key: newKey(), ...body }) });
    if (r.status === 401) { denied(); return false; }
    const out = await r.json().catch(() => ({}));
    if (!r.ok) {
      say(out.error || String(r.status));
      if (out.meld !== undefined && RC.markMeld) RC.markMeld(out.meld, out.error);
      return false;
    }
    say("");
    await RC.show(out, false);
    return true;
  }

  // `a` is a hand action or a tap's {index, option}: picks go with it only where the move takes them.
  function press(a) {
    return send({ press: { index: a.index, option: a.option, picks: a.with_items ? st.picks : [], staged: st.staged } });
  }

  window.RC = { $, params, tgData, auth, tableId, api, st, w, say, loadWords, denied, button, el, send, press,
    replaying: location.pathname.startsWith("/replay/") };
})();
