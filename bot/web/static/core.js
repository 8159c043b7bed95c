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
  // Telegram's own colours may miss AA contrast (its night theme's hint is 4.2:1 on its background,
  // its button 3.7:1 under white text): each text colour is moved toward black or white until it
  // reads at AA (4.5:1) on what it sits on. Tiles and cards keep their own palette (app.css).
  const rgb = (hex) => {
    const m = /^#?([0-9a-f]{6})$/i.exec(String(hex).trim());
    return m ? [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16)) : null;
  };
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const hex = (c) => "#" + c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  function readable(fg, bg) {
    const f = rgb(fg), b = rgb(bg);
    if (!f || !b) return fg;
    const toward = luminance(b) < 0.18 ? [255, 255, 255] : [0, 0, 0];
    for (let t = 0; t <= 1; t += 0.05) {
      const c = f.map((v, i) => v + (toward[i] - v) * t);
      if (contrast(c, b) >= 5) return hex(c); // 5, not 4.5: panels tint the background a little
    }
    return hex(toward);
  }
  function applyTheme(theme) {
    const map = { bg_color: "--bg", text_color: "--text", hint_color: "--hint", button_color: "--button",
      button_text_color: "--button-text" };
    const root = document.documentElement;
    for (const [k, v] of Object.entries(theme || {})) if (map[k]) root.style.setProperty(map[k], v);
    if (!theme || !theme.bg_color) return;
    const css = getComputedStyle(root);
    const value = (name) => css.getPropertyValue(name).trim();
    const bg = value("--bg");
    const dark = rgb(bg) && luminance(rgb(bg)) < 0.18;
    // The page's own colours follow the theme's lightness, not the device's.
    const own = dark ? { "--bad": "#ff8a80", "--good": "#81c995", "--line": "#4a525b", "--focus": "#8ab4f8",
      "--bad-bg": "#3b1f1d", "--good-bg": "#1d3326", "--panel": "rgba(255, 255, 255, .05)" }
      : { "--bad": "#b3261e", "--good": "#2e7d32", "--line": "#b9b1a0", "--focus": "#0b57d0",
        "--bad-bg": "#fdecea", "--good-bg": "#e8f3ec", "--panel": "rgba(255, 255, 255, .35)" };
    for (const [k, v] of Object.entries(own)) root.style.setProperty(k, v);
    for (const name of ["--text", "--hint", "--bad", "--good"]) root.style.setProperty(name, readable(value(name), bg));
    root.style.setProperty("--button", readable(value("--button"), value("--button-text")));
  }
  // Telegram puts the theme in the launch hash of every page it opens, a link's page in its browser too.
  try { applyTheme(JSON.parse(hash.get("tgWebAppThemeParams") || "{}")); } catch (e) { /* no theme: defaults */ }
  if (tgData) {
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

  // ---- honest states: the link, the server, the connection ----
  // The server answers any refused credential with a bare 401 and never says why; the page knows
  // its own link's expiry (the link names it) and the server's clock (every payload's `now`), so it
  // can tell an expired link from one a restarted server (a new secret) no longer opens.
  const linkExpiry = () => {
    const parts = (params.get("k") || "").split(".");
    const at = parts.length >= 4 ? Number(parts[parts.length - 2]) : NaN;
    return Number.isFinite(at) ? at : null;
  };
  const serverNow = () => Date.now() / 1000 + (st.skew || 0);
  function deniedWhy() {
    if (!params.get("k")) return tgData ? "signin" : "nolink";
    const at = linkExpiry();
    return at !== null && at <= serverNow() ? "expired" : "restarted";
  }

  // A banner above the table with the way forward; `retry` adds a button that tries again now.
  function banner(kind, retry) {
    document.body.dataset.state = kind;
    $("banner").hidden = false;
    $("banner").dataset.kind = kind;
    $("banner-text").textContent = w(`web.state.${kind}`);
    const again = retry ? [button(w("web.retry"), retry, "retry")] : [];
    $("banner-actions").replaceChildren(...again);
    $("live").classList.add("off");
    $("live").title = w(`web.state.${kind}`);
  }
  function online() {
    if (document.body.dataset.state === "denied") return;
    // Back in touch: a sentence about the lost connection no longer holds.
    if ([w("web.not_sent"), w("web.check_failed")].includes($("message").textContent)) say("");
    $("banner").hidden = true;
    delete document.body.dataset.state;
    $("live").classList.remove("off");
    $("live").title = w("web.live");
  }
  // A request that got no answer: the device is offline, or the server is down or moved (a restart
  // of the terminal's `play --web` takes a new port).
  const unreachable = (retry) => banner(navigator.onLine === false ? "offline" : "down", retry);

  // The server's clock from an answer's header (sent with refusals too).
  function clocked(r) {
    const at = Number(r && r.headers.get("X-Server-Time"));
    if (at) st.skew = at - Date.now() / 1000;
  }

  async function denied(r) {
    clocked(r);
    if (!st.words.__lang) await loadWords(params.get("lang") || "en");
    const why = deniedWhy();
    say("");
    banner(why);
    document.body.dataset.denied = why;
    // Nothing of the seat stays in view: its hand, its draft on the table, its private lines.
    for (const id of ["board", "hand", "actions", "player-list", "events", "latest", "result-body"]) $(id).replaceChildren();
    $("hints").textContent = "";
    $("handbox").hidden = true;
    $("result").hidden = true;
    document.body.dataset.state = "denied";
  }

  function button(label, onClick, kind) {
    const b = document.createElement("button");
    b.textContent = label;
    b.dataset.kind = kind;
    b.dataset.focus = `${kind}:${label}`;
    b.addEventListener("click", onClick);
    return b;
  }

  const el = (tag, className, text) => {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // A redraw replaces the pieces and buttons: the one that had the keyboard's focus (by its
  // `data-focus` key) gets it back, or its zone's, so a keyboard player never starts over at the top.
  function keepFocus(draw, fallback) {
    const had = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
    draw();
    if (!had) return;
    for (const key of [had, typeof fallback === "function" ? fallback() : fallback]) {
      const target = key && document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (target) { target.focus(); return; }
    }
  }

  const newKey = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

  // A move: the whole Rummikub layout (`play`) or a legal-move control (`press`), with the page's version.
  // Nothing on the page changes when it fails: a Rummikub arrangement stays as the player left it.
  let sending = false;
  async function send(body) {
    if (sending) { say(w("web.wait_sending"), true); return false; }
    sending = true;
    let r;
    try {
      r = await fetch(api("/move"), { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ version: st.data.version, key: newKey(), ...body }) });
    } catch (e) {
      say(w("web.not_sent"));
      unreachable(() => RC.recover());
      return false;
    } finally {
      sending = false;
    }
    if (r.status === 401) { denied(r); return false; }
    const out = await r.json().catch(() => ({}));
    if (!r.ok) {
      // A refusal names its reason; a server in trouble (5xx) or a proxy's page says the move is kept.
      say(out.error || (r.status >= 500 ? w("web.not_sent") : String(r.status)));
      if (out.meld !== undefined && RC.markMeld) RC.markMeld(out.meld, out.error);
      if (r.status === 409 && out.code === "E_STALE") RC.refresh();
      return false;
    }
    say("");
    online();
    await RC.show(out, false);
    return true;
  }

  // `a` is a hand action or a tap's {index, option}: picks go with it only where the move takes them.
  function press(a) {
    return send({ press: { index: a.index, option: a.option, picks: a.with_items ? st.picks : [], staged: st.staged } });
  }

  // A tap that cannot act says why rather than doing nothing.
  function idle() {
    const d = st.data;
    if (!d) return;
    if (d.status !== "playing") say(w(d.status === "finished" ? "web.finished" : "web.ended"), true);
    else if (d.seat === null) say(w("web.watch_only"), true);
    else say(d.turn !== null ? w("web.not_your_turn", { name: d.names[d.turn] }) : w("web.wait"), true);
  }

  // A tap on a piece that cannot act now says why (the page's own handlers act on the others).
  document.addEventListener("click", (e) => {
    const piece = e.target.closest && e.target.closest("#hand [data-code], #board [data-code], #board .back");
    const d = st.data;
    if (!piece || !d || RC.replaying || document.body.dataset.state === "denied") return;
    if (!(d.hand && d.hand.my_turn)) idle();
    else if (d.game !== "rummikub" && piece.closest("#board") && !piece.closest(".takes")) say(w("web.not_tappable"), true);
  });

  // Rummikub's live check of the draft: the answer, or null with the reason told (the arrangement stays).
  async function checked(url, init) {
    let r;
    try {
      r = await fetch(url, init);
    } catch (e) {
      say(w("web.check_failed"));
      unreachable(() => RC.recover());
      return null;
    }
    if (r.status === 401) { denied(r); return null; }
    if (!r.ok) { say((r.status < 500 && await r.text().catch(() => "")) || w("web.check_failed")); return null; }
    if ($("message").textContent === w("web.check_failed")) say(""); // checked again: that no longer holds
    return r;
  }

  window.RC = { $, params, tgData, auth, tableId, api, st, w, say, loadWords, denied, button, el, send, press, keepFocus,
    banner, online, unreachable, idle, checked, clocked,
    replaying: location.pathname.startsWith("/replay/") };
})();
