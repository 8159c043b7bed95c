// A finished match, move by move from the stored log: step, back, play/pause.
"use strict";
(() => {
  const { $, w, api, button } = RC;
  let frame = null;
  let player = null;

  async function showStep(index) {
    const r = await fetch(api("/replay", { step: index }));
    if (r.status === 401 || r.status === 403) { RC.denied(); return; }
    if (!r.ok) return;
    frame = await r.json();
    await RC.loadWords(frame.lang);
    document.body.dataset.step = frame.step;
    $("title").textContent = `${frame.title} · ${w("web.replay")}`;
    $("status").textContent = w("web.step", { step: frame.step, steps: frame.steps - 1 });
    $("body").textContent = frame.body + (frame.lines.length ? "\n\n" + frame.lines.join("\n") : "");
    $("textbox").open = true; // a frame is the table's text: nothing else shows it
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

  function controls() {
    const bar = document.createElement("div");
    bar.className = "actions";
    const play = button(w("web.play"), toggle, "play");
    play.id = "play";
    bar.append(button("⏮", () => showStep(0), "first"), button("◀", () => showStep(frame.step - 1), "back"), play,
      button("▶", () => showStep(frame.step + 1), "next"));
    $("board").replaceChildren(bar);
  }

  RC.replay = (step) => showStep(step).then(() => { if (frame) controls(); });
})();
