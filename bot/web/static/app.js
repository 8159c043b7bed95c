// The table in a browser: draws the seat's payload from the server, sends moves, follows the push.
// No rule of any game lives here: legal moves come as controls, meld validity from /check.
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
  const replaying = location.pathname.startsWith("/replay/");
  const tableId = pathTable ? decodeURIComponent(pathTable[1])
    : (tgData && new URLSearchParams(tgData).get("start_param")) || params.get("table") || "";
  const api = (suffix, extra) => {
    const q = new URLSearchParams(auth);
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    return `/api/table/${encodeURIComponent(tableId)}${suffix}?${q}`;
  };

  let words = {};
  let data = null; // the last payload
  let picks = []; // card games: picked item indices, in pick order
  let draft = null; // Rummikub: {melds: [[tile]], rack: [tile]} being arranged
  let checkSeq = 0;
  const w = (key, vars) => {
    let s = words[key] || key;
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
    if (words.__lang === lang) return;
    const r = await fetch(`/api/words/${lang}`);
    if (r.ok) { words = await r.json(); words.__lang = lang; document.documentElement.lang = lang; }
  }

  async function refresh() {
    const r = await fetch(api("", picks.length ? { picks: picks.join(",") } : {}));
    if (r.status === 401) { denied(); return; }
    if (r.ok) await show(await r.json(), false);
  }

  function denied() {
    say(w("web.denied"));
    $("board").replaceChildren();
    $("handbox").hidden = true;
    document.body.dataset.state = "denied";
  }

  async function show(payload, pushed) {
    const changed = !data || data.version !== payload.version;
    await loadWords(payload.lang);
    if (pushed && !changed) return;
    if (changed) { picks = []; draft = null; if (pushed) say(""); }
    data = payload;
    document.body.dataset.version = payload.version;
    document.body.dataset.game = payload.game;
    $("title").textContent = payload.title;
    $("body").textContent = payload.body + (payload.lines.length ? "\n\n" + payload.lines.join("\n") : "");
    const mine = payload.hand && payload.hand.my_turn;
    $("status").textContent = payload.status === "finished" ? w("web.finished")
      : payload.status === "abandoned" ? w("web.ended")
      : payload.seat === null ? w("web.watching")
      : mine ? w("web.your_turn") : payload.turn !== null ? w("web.turn_of", { name: payload.names[payload.turn] }) : "";
    $("rack-title").textContent = w(payload.game === "rummikub" ? "web.rack" : "web.hand");
    $("handbox").hidden = !payload.hand;
    // The deadline against the server's clock: the device's may be off by minutes.
    deadline = payload.deadline && payload.now ? Date.now() + (payload.deadline - payload.now) * 1000 : null;
    tick();
    if (payload.game === "rummikub") drawRummikub(); else drawCards();
  }

  let deadline = null;
  function tick() {
    const left = deadline === null ? null : Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const clock = $("clock");
    clock.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.title = left === null ? "" : w("web.time_left");
  }
  setInterval(tick, 1000);

  // ---- card games and tile rummy: tap to pick, then the legal-move buttons ----
  function faceClass(label) {
    return /[HD♥♦]$/.test(label) ? "card red" : "card";
  }

  function drawCards() {
    $("board").replaceChildren();
    const hand = data.hand;
    if (!hand) return;
    const box = $("hand");
    box.replaceChildren(...hand.items.map((item) => {
      const el = document.createElement("span");
      const tile = /^([rbky])\d+$|^j$/.exec(item.label);
      el.className = tile ? `tile ${tile[1] || "j"}` : faceClass(item.label);
      el.textContent = item.label;
      el.dataset.index = item.index;
      el.dataset.item = item.label;
      if (item.selected) el.classList.add("selected");
      el.addEventListener("click", () => {
        if (!hand.my_turn) return;
        const i = picks.indexOf(item.index);
        if (i >= 0) picks.splice(i, 1); else picks.push(item.index);
        refresh();
      });
      return el;
    }));
    const moves = hand.actions.map((a) => button(a.label, () => press(a), "action"));
    if (hand.my_turn && !picks.length) {
      const tip = document.createElement("p");
      tip.className = "tip";
      tip.textContent = w("web.pick_hint");
      moves.push(tip);
    }
    $("actions").replaceChildren(...moves);
    $("hints").textContent = hand.body;
  }

  function button(label, onClick, kind) {
    const b = document.createElement("button");
    b.textContent = label;
    b.dataset.kind = kind;
    b.addEventListener("click", onClick);
    return b;
  }

  const newKey = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

  async function send(body) {
    const r = await fetch(api("/move"), { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ version: data.version, key: newKey(), ...body }) });
    if (r.status === 401) { denied(); return false; }
    const out = await r.json().catch(() => ({}));
    if (!r.ok) { say(out.error || String(r.status)); if (out.meld !== undefined) markMeld(out.meld, out.error); return false; }
    say("");
    await show(out, false);
    return true;
  }

  // A refused Done names the meld it concerns: the sentence goes on that meld as well.
  function markMeld(index, text) {
    const row = [...document.querySelectorAll(".meld")].filter((r) => draft.melds[r.dataset.meld].length)[index];
    if (!row) return;
    row.classList.add("invalid", "refused");
    const why = document.createElement("span");
    why.className = "why";
    why.textContent = text;
    row.append(why);
  }

  function press(a) {
    return send({ press: { index: a.index, option: a.option, picks: a.with_items ? picks : [] } });
  }

  // ---- Rummikub: drag tiles between the rack, the melds and a new meld; the server checks ----
  function startDraft() {
    const view = data.view;
    draft = { melds: (view.table || []).map((m) => [...m.tiles]), rack: [...(view.rack || [])] };
  }

  function tileEl(tile, from, pos) {
    const el = document.createElement("span");
    el.className = `tile ${tile === "j" ? "j" : tile[0]}`;
    el.textContent = tile === "j" ? "☺" : tile.slice(1);
    el.dataset.tile = tile;
    el.dataset.from = from;
    el.dataset.pos = pos;
    el.title = tile;
    return el;
  }

  function drawRummikub() {
    if (!draft) startDraft();
    const mine = data.hand && data.hand.my_turn;
    const board = $("board");
    const rows = draft.melds.map((tiles, i) => {
      const row = document.createElement("div");
      row.className = "meld";
      row.dataset.drop = "meld";
      row.dataset.meld = i;
      row.append(...tiles.map((tile, p) => tileEl(tile, String(i), p)));
      return row;
    });
    const opening = document.createElement("div");
    opening.className = "opening";
    opening.id = "opening";
    if (mine) {
      const fresh = document.createElement("div");
      fresh.className = "newmeld";
      fresh.dataset.drop = "new";
      fresh.id = "newmeld";
      fresh.textContent = w("web.new_meld");
      rows.push(fresh);
    }
    board.replaceChildren(...rows, opening);
    if (data.hand) {
      $("hand").replaceChildren(...draft.rack.map((tile, p) => tileEl(tile, "rack", p)));
      const plain = data.hand.actions.filter((a) => !a.with_items && mine && !isDraftVerb(a));
      const buttons = plain.map((a) => button(a.label, () => press(a), "action"));
      if (mine) {
        buttons.push(button(w("web.reset"), () => { startDraft(); say(""); drawRummikub(); }, "reset"));
        const done = button(w("web.done"), () => send({ play: draft.melds.filter((m) => m.length) }), "done");
        done.id = "done";
        buttons.push(done);
      }
      $("actions").replaceChildren(...buttons);
      $("hints").textContent = data.hand.body;
      if (mine) check();
    }
  }

  // The chat's step-by-step draft verbs are what drag and drop replaces here.
  const isDraftVerb = (a) => /^(new|add|move|split|reset|done)\b/i.test(a.label);

  async function check() {
    const seq = ++checkSeq;
    const layout = draft.melds.filter((m) => m.length);
    const r = await fetch(api("/check"), { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ layout }) });
    if (!r.ok || seq !== checkSeq) return;
    const result = await r.json();
    const rows = [...document.querySelectorAll(".meld")].filter((row) => draft.melds[row.dataset.meld].length);
    rows.forEach((row, i) => {
      const m = result.melds[i];
      if (!m) return;
      row.classList.toggle("valid", m.valid);
      row.classList.toggle("invalid", !m.valid);
      row.dataset.valid = m.valid;
      row.title = m.valid ? w("web.valid") : m.reason;
      if (!m.valid) { const why = document.createElement("span"); why.className = "why"; why.textContent = m.reason; row.append(why); }
    });
    const opening = $("opening");
    if (opening) {
      opening.textContent = result.opened ? "" : w("web.opening", { value: result.opening, required: result.required });
      opening.classList.toggle("enough", !result.opened && result.opening >= result.required);
    }
    document.body.dataset.checked = result.ok ? "ok" : "refused";
  }

  function moveTile(from, pos, target, before) {
    const source = from === "rack" ? draft.rack : draft.melds[Number(from)];
    const [tile] = source.splice(pos, 1);
    if (target.kind === "rack") draft.rack.push(tile);
    else if (target.kind === "new") draft.melds.push([tile]);
    else {
      const dest = draft.melds[target.meld];
      let at = before === null ? dest.length : before;
      if (source === dest && pos < at) at -= 1;
      dest.splice(at, 0, tile);
    }
    draft.melds = draft.melds.filter((m) => m.length);
    drawRummikub();
  }

  // Pointer events serve mouse and touch alike: press a tile, drag its copy, drop it on a zone.
  let drag = null;
  document.addEventListener("pointerdown", (e) => {
    const el = e.target.closest(".tile[data-from]");
    if (!el || !data || !data.hand || !data.hand.my_turn || data.game !== "rummikub") return;
    e.preventDefault();
    const copy = el.cloneNode(true);
    copy.classList.add("dragging");
    document.body.append(copy);
    el.classList.add("ghost");
    drag = { el, copy, from: el.dataset.from, pos: Number(el.dataset.pos) };
    place(e);
  });
  function place(e) {
    drag.copy.style.left = `${e.clientX - 18}px`;
    drag.copy.style.top = `${e.clientY - 24}px`;
    document.querySelectorAll(".over").forEach((z) => z.classList.remove("over"));
    const zone = zoneAt(e.clientX, e.clientY);
    if (zone) zone.classList.add("over");
  }
  function zoneAt(x, y) {
    const under = document.elementFromPoint(x, y);
    return under && under.closest("[data-drop]");
  }
  document.addEventListener("pointermove", (e) => { if (drag) { e.preventDefault(); place(e); } });
  document.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const { copy, el, from, pos } = drag;
    drag = null;
    copy.remove();
    el.classList.remove("ghost");
    document.querySelectorAll(".over").forEach((z) => z.classList.remove("over"));
    const zone = zoneAt(e.clientX, e.clientY);
    if (!zone) return;
    const under = document.elementFromPoint(e.clientX, e.clientY).closest(".tile[data-from]");
    if (zone.dataset.drop === "meld") {
      // Dropped on a tile: it goes before that tile (between two tiles of a run), else at the end.
      const before = under && under.dataset.from === zone.dataset.meld ? Number(under.dataset.pos) : null;
      moveTile(from, pos, { kind: "meld", meld: Number(zone.dataset.meld) }, before);
    } else {
      moveTile(from, pos, { kind: zone.dataset.drop }, null);
    }
  });
  document.addEventListener("pointercancel", () => { if (drag) { drag.copy.remove(); drag.el.classList.remove("ghost"); drag = null; } });

  // ---- the push: every committed change of this table, as this seat sees it ----
  function follow() {
    const source = new EventSource(api("/events"));
    source.addEventListener("table", (e) => { $("live").classList.remove("off"); show(JSON.parse(e.data), true); });
    source.onerror = () => { $("live").classList.add("off"); $("live").title = w("web.offline"); };
    source.onopen = () => { $("live").title = w("web.live"); };
  }

  // ---- a finished match, move by move: step, back, play/pause ----
  let frame = null;
  let player = null;
  async function showStep(index) {
    const r = await fetch(api("/replay", { step: index }));
    if (r.status === 401 || r.status === 403) { denied(); return; }
    if (!r.ok) return;
    frame = await r.json();
    await loadWords(frame.lang);
    document.body.dataset.step = frame.step;
    $("title").textContent = `${frame.title} · ${w("web.replay")}`;
    $("status").textContent = w("web.step", { step: frame.step, steps: frame.steps - 1 });
    $("body").textContent = frame.body + (frame.lines.length ? "\n\n" + frame.lines.join("\n") : "");
    $("handbox").hidden = frame.hand === null;
    $("hand").replaceChildren();
    $("rack-title").textContent = w(frame.game === "rummikub" ? "web.rack" : "web.hand");
    $("hints").textContent = frame.hand || "";
    if (player && frame.step >= frame.steps - 1) toggle();
  }
  function toggle() {
    if (player) { clearInterval(player); player = null; } else player = setInterval(() => showStep(frame.step + 1), 700);
    $("play").textContent = w(player ? "web.pause" : "web.play");
  }
  function replayControls() {
    const bar = document.createElement("div");
    bar.className = "actions";
    const first = button("⏮", () => showStep(0), "first");
    const back = button("◀", () => showStep(frame.step - 1), "back");
    const play = button(w("web.play"), toggle, "play");
    play.id = "play";
    const next = button("▶", () => showStep(frame.step + 1), "next");
    bar.append(first, back, play, next);
    $("board").replaceChildren(bar);
  }

  if (!tableId || !auth.toString()) { loadWords(params.get("lang") || "en").then(denied); return; }
  if (replaying) showStep(Number(params.get("step") || 0)).then(() => { if (frame) replayControls(); });
  else refresh().then(() => { if (data) follow(); });
})();
