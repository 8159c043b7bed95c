// The table in a browser: draws the seat's payload from the server, sends moves, follows the push.
// No rule of any game lives here: legal moves come as controls, meld validity from /check.
// Parts: core.js (auth, API, sending), faces.js (tiles and cards), cards.js (the card games),
// rummikub.js (drag and drop), replay.js; this file loads the table and keeps it live.
"use strict";
(() => {
  const { $, st, w, api, params } = RC;

  RC.refresh = async () => {
    const screen = {};
    if (st.picks.length) screen.picks = st.picks.join(",");
    if (st.staged.length) screen.staged = st.staged.map((g) => g.join(",")).join(";");
    const r = await fetch(api("", screen));
    if (r.status === 401) { RC.denied(); return; }
    if (r.ok) await RC.show(await r.json(), false);
  };

  RC.show = async (payload, pushed) => {
    const changed = !st.data || st.data.version !== payload.version;
    await RC.loadWords(payload.lang);
    if (pushed && !changed) return;
    if (changed) { st.picks = []; st.staged = []; st.draft = null; if (pushed) RC.say(""); }
    st.data = payload;
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
    if (payload.game === "rummikub") RC.drawRummikub(); else RC.drawCards();
  };

  let deadline = null;
  function tick() {
    const left = deadline === null ? null : Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const clock = $("clock");
    clock.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.title = left === null ? "" : w("web.time_left");
  }
  setInterval(tick, 1000);

  // ---- the push: every committed change of this table, as this seat sees it ----
  function follow() {
    const source = new EventSource(api("/events"));
    source.addEventListener("table", (e) => { $("live").classList.remove("off"); RC.show(JSON.parse(e.data), true); });
    // The table has ended and another follows it (a rematch): offer the way there rather than leave
    // at once, so the last table and its result stay in view. A Mini App page signs in there with
    // its initData (Telegram keeps it for the page), a link's page gets a link signed for its seat.
    source.addEventListener("moved", (e) => {
      const next = JSON.parse(e.data);
      const go = RC.el("a", "next", w(next.status === "lobby" ? "web.next_lobby" : "web.next_table"));
      go.id = "next-table";
      go.href = next.path + (next.link ? "" : location.hash);
      const box = $("message");
      box.replaceChildren(go);
      box.hidden = false;
      box.classList.add("info");
    });
    source.onerror = () => { $("live").classList.add("off"); $("live").title = w("web.offline"); };
    source.onopen = () => { $("live").title = w("web.live"); };
  }

  if (!RC.tableId || !RC.auth.toString()) { RC.loadWords(params.get("lang") || "en").then(RC.denied); return; }
  if (RC.replaying) RC.replay(Number(params.get("step") || 0));
  else RC.refresh().then(() => { if (st.data) follow(); });
})();
