// A finished match, move by move from the stored log: step, back, play/pause. Each step is drawn
// with tiles and cards as the live table draws them (the card games' board from cards.js, Rummikub's
// numbered melds from rummikub.js, the player's own hand); its text stays under "as text".
"use strict";
(() => {
  const { $, w, api, button, el } = RC;
  let frame = null;
  let player = null;

  function drawTable() {
    const box = $("replay-table");
    if (!box) return;
    if (frame.melds) {
      box.replaceChildren(frame.melds.length ? RC.rummikubMelds(frame.melds) : el("p", "tip", w("web.no_melds")));
    } else {
      box.replaceChildren(...(frame.board ? RC.boardNodes(frame.board) : []));
    }
  }

  async function showStep(index) {
    const r = await fetch(api("/replay", { step: index }));
    if (r.status === 401 || r.status === 403) { RC.denied(); return; }
    if (!r.ok) return;
    frame = await r.json();
    await RC.loadWords(frame.lang);
    document.body.dataset.step = frame.step;
    document.body.dataset.game = frame.game;
    $("title").textContent = `${frame.title} · ${w("web.replay")}`;
    $("status").textContent = w("web.step", { step: frame.step, steps: frame.steps - 1 });
    $("body").textContent = frame.body + (frame.lines.length ? "\n\n" + frame.lines.join("\n") : "");
    drawTable();
    $("handbox").hidden = frame.hand === null;
    $("hand").replaceChildren(...(frame.pieces || []).map(RC.face));
    $("rack-title").textContent = w(frame.game === "rummikub" ? "web.rack" : "web.hand");
    // What happened at this step, under the hand (the table's whole text is under "as text").
    $("hints").textContent = frame.lines.join("\n");
    if (player && frame.step >= frame.steps - 1) toggle();
  }

  function toggle() {
    if (player) { clearInterval(player); player = null; } else player = setInterval(() => showStep(frame.step + 1), 700);
    $("play").textContent = w(player ? "web.pause" : "web.play");
  }

  function controls() {
    const bar = document.createElement("div");
    bar.className = "actions";
    const play = button(w("web.play"), toggle, "play");
    play.id = "play";
    bar.append(button("⏮", () => showStep(0), "first"), button("◀", () => showStep(frame.step - 1), "back"), play,
      button("▶", () => showStep(frame.step + 1), "next"));
    const table = el("div", "replay-table");
    table.id = "replay-table";
    $("board").replaceChildren(bar, table);
    drawTable();
  }

  RC.replay = (step) => showStep(step).then(() => { if (frame) controls(); });
})();
