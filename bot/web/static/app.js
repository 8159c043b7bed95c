// The table in a browser: draws the seat's payload from the server, sends moves, follows the push.
// No rule of any game lives here: legal moves come as controls, meld validity from /check.
// Parts: core.js (auth, API, sending), faces.js (tiles and cards), cards.js (the card games),
// rummikub.js (drag and drop), replay.js; this file loads the table and keeps it live.
"use strict";
(() => {
  const { $, st, w, api, params } = RC;

  // The table again (with the page's picks). Every failure is told: the banner says what is wrong
  // and how to go on; nothing the player arranged is dropped.
  RC.refresh = async () => {
    const screen = {};
    if (st.picks.length) screen.picks = st.picks.join(",");
    if (st.staged.length) screen.staged = st.staged.map((g) => g.join(",")).join(";");
    let r;
    try {
      r = await fetch(api("", screen));
    } catch (e) {
      RC.unreachable(() => RC.recover());
      return false;
    }
    if (r.status === 401) { RC.denied(r); return false; }
    if (!r.ok) {
      const text = await r.text().catch(() => "");
      RC.banner(r.status === 503 ? "unavailable" : "down", () => RC.recover());
      if (text && r.status < 500) RC.say(text);
      return false;
    }
    RC.online();
    await RC.show(await r.json(), false);
    return true;
  };

  // After a failure: the table again, and its live stream reopened if it had closed.
  RC.recover = async () => {
    if (await RC.refresh()) follow();
  };

  // What the player had begun on this turn (picks, staged melds, a moved Rummikub draft): a
  // timeout that wipes it says so.
  function work(prev) {
    if (!prev || !prev.hand) return false;
    if (st.picks.length || st.staged.length) return true;
    const table = (prev.view.table || []).map((m) => m.tiles);
    return !!st.draft && JSON.stringify(st.draft.melds) !== JSON.stringify(table);
  }

  RC.show = async (payload, pushed) => {
    const changed = !st.data || st.data.version !== payload.version;
    await RC.loadWords(payload.lang);
    if (document.body.dataset.state === "denied") return;
    if (pushed && !changed) return;
    const prev = st.data;
    const before = RC.tableCodes();
    const hadWork = changed && work(prev);
    if (payload.now) st.skew = payload.now - Date.now() / 1000;
    if (changed) { st.picks = []; st.staged = []; st.draft = null; if (pushed) RC.say(""); }
    st.data = payload;
    document.body.dataset.version = payload.version;
    document.body.dataset.game = payload.game;
    $("title").textContent = payload.title;
    $("body").textContent = payload.body + (payload.lines.length ? "\n\n" + payload.lines.join("\n") : "");
    const mine = payload.hand && payload.hand.my_turn;
    $("status").textContent = payload.status === "finished" ? w("web.finished")
      : payload.status === "abandoned" ? w("web.ended")
      : mine ? w("web.your_turn")
      : [payload.seat === null ? w("web.watching") : "",
        payload.turn !== null ? w("web.turn_of", { name: payload.names[payload.turn] }) : ""].filter(Boolean).join(" · ");
    $("rack-title").textContent = w(payload.game === "rummikub" ? "web.rack" : "web.hand");
    $("handbox").hidden = !payload.hand;
    // The deadline against the server's clock: the device's may be off by minutes.
    deadline = payload.deadline && payload.now ? Date.now() + (payload.deadline - payload.now) * 1000 : null;
    turnTotal = payload.turn_s || null;
    if (payload.game === "rummikub") RC.drawRummikub(); else RC.drawCards();
    RC.tell(payload, prev, before, changed, hadWork);
    tick();
  };

  let deadline = null;
  let turnTotal = null;
  function tick() {
    const left = deadline === null ? null : Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const clock = $("clock");
    clock.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.title = left === null ? "" : w("web.time_left");
    if (st.data) RC.warnClock(left, turnTotal);
  }
  setInterval(tick, 1000);

  // ---- the push: every committed change of this table, as this seat sees it ----
  let source = null;
  function follow() {
    if (source && source.readyState !== EventSource.CLOSED) return;
    source = new EventSource(api("/events"));
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
    // The stream broke: ask the table once to learn why (a refused link, a server gone, the device
    // offline) and say it; the browser reconnects a stream by itself unless the server refused it.
    source.onerror = () => { $("live").classList.add("off"); $("live").title = w("web.offline"); probe(); };
    source.onopen = () => { RC.online(); };
  }

  let probing = null;
  function probe() {
    if (probing) return;
    probing = RC.refresh().then((ok) => {
      probing = null;
      if (ok && (!source || source.readyState === EventSource.CLOSED)) follow();
      else if (!ok && document.body.dataset.state !== "denied") setTimeout(() => { if (!source || source.readyState === EventSource.CLOSED) probe(); }, 5000);
    });
  }
  window.addEventListener("online", () => RC.recover());
  window.addEventListener("offline", () => RC.unreachable(() => RC.recover()));

  if (!RC.tableId || !RC.auth.toString()) { RC.loadWords(params.get("lang") || "en").then(RC.denied); return; }
  if (RC.replaying) RC.replay(Number(params.get("step") || 0));
  else RC.refresh().then(() => { if (st.data) follow(); else if (document.body.dataset.state !== "denied") probe(); });
})();
