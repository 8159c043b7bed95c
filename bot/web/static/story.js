// The page tells the game: who sits where with how many tiles or cards and points, whose turn it is
// (spectators too), what each move did (the chats' narration, per seat), the pieces another player or
// the AI just put on the table lit for a moment, round and match results, a timeout explained, a cue
// when the player's turn starts and a warning when its time runs low. No rule of any game lives here.
"use strict";
(() => {
  const { $, st, w, el } = RC;
  const FRESH_MS = 3000;
  let seen = -1; // the newest story entry already told on this page

  // ---- the players panel ----
  function drawPlayers(payload) {
    const box = $("players");
    box.hidden = !payload.players || !payload.players.length;
    if (box.hidden) return;
    const rows = payload.players.map((p) => {
      const li = el("li", "player");
      li.dataset.seat = p.seat;
      li.classList.toggle("turn", p.turn);
      li.classList.toggle("you", p.you);
      li.classList.toggle("last", p.count === 1);
      const name = el("span", "name", p.name);
      if (p.turn) { li.setAttribute("aria-current", "true"); li.title = w("web.on_turn"); }
      const bits = [];
      if (p.held) bits.push(el("span", "count", p.held));
      if (p.score !== null && p.score !== undefined) bits.push(el("span", "score", w("web.points", { n: p.score })));
      if (p.count === 1) bits.push(el("strong", "warn", w("web.last_one")));
      if (p.away) bits.push(el("span", "tag", w("web.away")));
      li.append(el("span", "mark", p.turn ? "▶" : ""), name, ...bits);
      li.querySelector(".mark").setAttribute("aria-hidden", "true");
      return li;
    });
    $("player-list").replaceChildren(...rows);
  }

  // ---- what happened ----
  function drawStory(payload, prev) {
    const story = payload.story || [];
    const mine = payload.seat;
    const fresh = story.filter((s) => s.seq > seen);
    const list = story.flatMap((s) => s.lines.map((line) => {
      const li = el("li", s.seat !== null && s.seat !== mine ? "other" : "", line);
      if (s.seq > seen && seen >= 0) li.classList.add("new");
      return li;
    }));
    $("events").replaceChildren(...list.slice(-8));
    const newest = story.length ? story[story.length - 1] : null;
    const latest = $("latest");
    latest.textContent = newest ? newest.lines.join(" ") : w("web.no_moves");
    if (seen >= 0 && fresh.length) {
      latest.classList.remove("flash");
      void latest.offsetWidth; // restart the highlight
      latest.classList.add("flash");
    }
    const others = seen >= 0 && fresh.some((s) => s.seat !== null && s.seat !== mine);
    const timedOut = seen >= 0 && mine !== null && fresh.some((s) => s.timeout === mine);
    if (newest) seen = Math.max(seen, newest.seq);
    else if (seen < 0) seen = 0;
    return { others, timedOut };
  }

  // The pieces on the table, counted by code before a redraw: after it, those that are new lit up.
  function tableCodes() {
    const counts = new Map();
    for (const p of document.querySelectorAll("#board [data-code]")) counts.set(p.dataset.code, (counts.get(p.dataset.code) || 0) + 1);
    return counts;
  }

  function lightNew(before) {
    const after = new Map();
    const lit = [];
    for (const p of document.querySelectorAll("#board [data-code]")) {
      const code = p.dataset.code;
      after.set(code, (after.get(code) || 0) + 1);
      if (after.get(code) > (before.get(code) || 0)) lit.push(p);
    }
    for (const p of lit) p.classList.add("fresh");
    if (lit.length) setTimeout(() => lit.forEach((p) => p.classList.remove("fresh")), FRESH_MS);
    document.body.dataset.fresh = lit.length;
  }

  // ---- results ----
  const dismissedKey = () => `rc:result:${RC.tableId}`;
  function drawResult(payload) {
    const r = payload.result;
    const box = $("result");
    const dismissed = Number(sessionStorage.getItem(dismissedKey()) || -1);
    if (!r || r.seq <= dismissed) { box.hidden = true; return; }
    const table = el("table", "scores");
    const head = el("tr");
    head.append(...r.heads.map((h) => { const th = el("th", "", h); th.scope = "col"; return th; }));
    table.append(head, ...r.rows.map((row) => {
      const tr = el("tr", `${row.won ? "won" : ""} ${row.you ? "you" : ""}`);
      const name = el("th", "", (row.won ? "★ " : "") + row.name);
      name.scope = "row";
      tr.append(name, el("td", "", String(row.round)), el("td", "", String(row.total)));
      return tr;
    }));
    const parts = [el("h2", "", r.headline), table];
    if (r.lines.length) parts.push(el("pre", "text", r.lines.join("\n")));
    parts.push(el("p", "tip", r.next));
    const bar = el("div", "actions");
    if (r.match && payload.status === "finished") {
      const replay = el("a", "link", w("web.watch_replay"));
      replay.id = "replay-link";
      replay.href = location.pathname.replace("/table/", "/replay/") + location.search + location.hash;
      bar.append(replay);
    }
    const close = RC.button(w("web.close"), () => { sessionStorage.setItem(dismissedKey(), String(r.seq)); box.hidden = true; }, "close");
    bar.append(close);
    parts.push(bar);
    $("result-body").replaceChildren(...parts);
    box.querySelector("h2").id = "result-title";
    const opening = box.hidden;
    box.hidden = false;
    if (opening) box.scrollIntoView({ block: "nearest" });
  }

  // ---- the turn's cue and the timer's warning ----
  const base = () => (st.data ? `${st.data.title} · Rummy Club` : "Rummy Club");
  let myTurn = false;
  function cue(payload) {
    const now = !!(payload.hand && payload.hand.my_turn);
    document.title = now ? `▶ ${w("web.your_turn")} · ${base()}` : base();
    if (now && !myTurn && RC.vibrating() && navigator.vibrate) navigator.vibrate([120, 60, 120]);
    myTurn = now;
  }

  const VIBRATE = "rc:vibrate";
  RC.vibrating = () => localStorage.getItem(VIBRATE) === "1";
  function vibrateToggle() {
    const box = $("vibrate");
    if (!navigator.vibrate) return; // the option stays hidden where the device cannot vibrate
    box.closest("label").hidden = false;
    box.checked = RC.vibrating();
    box.addEventListener("change", () => localStorage.setItem(VIBRATE, box.checked ? "1" : "0"));
  }

  function labels() {
    $("players").setAttribute("aria-label", w("web.players"));
    $("story").setAttribute("aria-label", w("web.latest"));
    $("moves-title").textContent = w("web.moves");
    $("vibrate-label").textContent = w("web.vibrate");
  }

  // The clock warns once the turn has less than WARN_S left (a short turn: a third of it).
  const WARN_S = 30;
  let warned = null;
  RC.warnClock = (left, total) => {
    const clock = $("clock");
    const at = total !== null && total < WARN_S * 3 ? Math.ceil(total / 3) : WARN_S;
    const low = left !== null && left <= at && left > 0 && myTurn;
    clock.classList.toggle("warn", low);
    if (low && warned !== st.data.version) {
      warned = st.data.version;
      $("announce").textContent = w("web.time_low", { n: left });
    }
  };

  // Called by RC.show around each redraw: `before` is what tableCodes() held before it.
  RC.tell = (payload, prev, before, changed, hadWork) => {
    labels();
    drawPlayers(payload);
    const told = drawStory(payload, prev);
    if (changed && told.others) lightNew(before);
    if (changed && told.timedOut) RC.say(w("web.timeout_you") + (hadWork ? " " + w("web.timeout_draft") : ""));
    drawResult(payload);
    cue(payload);
  };
  RC.tableCodes = tableCodes;

  if (RC.replaying) { $("story").hidden = true; $("storybox").hidden = true; } // a replay step tells its own lines
  else vibrateToggle();
})();
