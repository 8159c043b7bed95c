// Rummikub: drag tiles between the rack, the melds and a new meld; drop a tile on a gap between two
// tiles to put it in between, tap a gap to split the meld there. The server checks every meld live
// (/check) and Done sends the whole layout as one `play`. By keyboard: Enter or Space picks a tile up,
// then puts it on the meld, gap, "new meld" or rack it is pressed on; Escape puts it down.
"use strict";
(() => {
  const { $, st, w, el, button, api } = RC;
  let checkSeq = 0;
  let held = null; // {from, pos}: the tile picked up by keyboard

  // The layout starts from the draft the player began in the chat, if any (the seat's view holds it
  // while they are on turn); Reset goes back to the table as the turn found it.
  function startDraft(fromChat = true) {
    const view = st.data.view;
    const chat = fromChat && view.draft;
    st.draft = chat ? { melds: chat.melds.map((m) => [...m.tiles]), rack: [...chat.rack] }
      : { melds: (view.table || []).map((m) => [...m.tiles]), rack: [...(view.rack || [])] };
  }

  function tileEl(tile, from, pos) {
    const e = RC.face(tile);
    e.dataset.tile = tile;
    e.dataset.from = from;
    e.dataset.pos = pos;
    if (mine()) {
      const isHeld = !!held && held.from === from && held.pos === pos;
      RC.operable(e, () => pickOrPlace(from, pos), isHeld);
      e.dataset.focus = `tile:${from}:${pos}`;
      if (isHeld) e.classList.add("held");
    }
    return e;
  }

  // Enter on a tile: pick it up; on the held tile: put it down; with a tile held, on a meld's tile:
  // put the held one before it; on another rack tile: hold that one instead.
  function pickOrPlace(from, pos) {
    if (held && held.from === from && held.pos === pos) held = null;
    else if (held && from !== "rack") return putHeld(held, { kind: "meld", meld: Number(from) }, pos);
    else if (held && held.from !== "rack") return putHeld(held, { kind: "rack" }, null);
    else held = { from, pos };
    drawRummikub();
  }

  function putHeld(tile, target, at) {
    held = null;
    after = tile.from === "rack" ? tile.pos : null;
    moveTile(tile.from, tile.pos, target, at);
  }

  // While a tile is held, a meld and the rack end in a "put it here" button (they hold tile buttons,
  // so they cannot be buttons themselves); "new meld" holds none and becomes one.
  function target(node, label, where) {
    if (!held) return;
    const key = `zone:${where.kind}:${where.meld === undefined ? "" : where.meld}`;
    if (where.kind === "new") {
      RC.operable(node, () => putHeld(held, where, null));
      node.dataset.focus = key;
      return;
    }
    const put = button("+", () => putHeld(held, where, null), "put");
    put.className = "put";
    put.setAttribute("aria-label", w("web.put_here", { where: label }));
    put.dataset.focus = key;
    node.append(put);
  }

  // Between tiles p-1 and p of meld i: a drop target (insert there) and a tap target (split there).
  function gapEl(i, p) {
    const g = el("span", "gap");
    g.dataset.drop = "gap";
    g.dataset.meld = i;
    g.dataset.at = p;
    g.title = w("web.split");
    g.addEventListener("click", () => split(i, p));
    RC.operable(g, () => (held ? putHeld(held, { kind: "meld", meld: i }, p) : split(i, p)));
    g.setAttribute("aria-label", w("web.split"));
    g.dataset.focus = `gap:${i}:${p}`;
    return g;
  }

  function split(i, p) {
    const tail = st.draft.melds[i].splice(p);
    st.draft.melds.splice(i + 1, 0, tail);
    drawRummikub();
  }

  const mine = () => st.data.hand && st.data.hand.my_turn;

  // A placed tile's place on the rack goes to the tile that slid into it (or the rack's last).
  let after = null;
  const drawRummikub = () => RC.keepFocus(drawAll, () => {
    const rack = st.draft ? st.draft.rack.length : 0;
    return after !== null && rack ? `tile:rack:${Math.min(after, rack - 1)}` : "done:" + w("web.done");
  });

  function drawAll() {
    if (!st.draft || !mine()) held = null;
    if (!st.draft) startDraft();
    const draft = st.draft;
    const rows = draft.melds.map((tiles, i) => {
      const row = el("div", "meld");
      row.dataset.drop = "meld";
      row.dataset.meld = i;
      tiles.forEach((tile, p) => {
        if (p > 0 && mine()) row.append(gapEl(i, p));
        row.append(tileEl(tile, String(i), p));
      });
      if (mine()) target(row, w("web.meld_n", { n: i + 1 }), { kind: "meld", meld: i });
      return row;
    });
    const opening = el("div", "opening");
    opening.id = "opening";
    if (mine()) {
      const fresh = el("div", "newmeld", w("web.new_meld"));
      fresh.dataset.drop = "new";
      fresh.id = "newmeld";
      target(fresh, w("web.new_meld"), { kind: "new" });
      rows.push(fresh);
      if (draft.melds.some((m) => m.length > 1)) rows.push(el("p", "tip", w("web.split_tip")));
    }
    $("board").replaceChildren(...rows, opening);
    if (!st.data.hand) return;
    const rack = $("hand");
    rack.replaceChildren(...draft.rack.map((tile, p) => tileEl(tile, "rack", p)));
    if (mine() && held && held.from !== "rack") target(rack, w("web.rack"), { kind: "rack" });
    const plain = st.data.hand.actions.filter((a) => !a.with_items && mine() && !isDraftVerb(a));
    const buttons = (st.data.hand.suggestions || []).map((g) => button(g.label, () => RC.send({ suggestion: g.index }), "suggestion"));
    buttons.push(...plain.map((a) => button(a.label, () => RC.press(a), "action")));
    if (mine()) {
      buttons.push(button(w("web.reset"), () => { held = null; startDraft(false); RC.say(""); drawRummikub(); }, "reset"));
      const done = button(w("web.done"), () => RC.send({ play: draft.melds.filter((m) => m.length) }), "done");
      done.id = "done";
      buttons.push(done);
    }
    $("actions").replaceChildren(...buttons);
    $("hints").textContent = st.data.hand.body;
    if (mine()) check();
  }

  // The chat's step-by-step draft verbs are what drag and drop replaces here.
  const isDraftVerb = (a) => /^(new|add|move|split|reset|done)\b/i.test(a.label);

  const meldRows = () => [...document.querySelectorAll(".meld")].filter((r) => st.draft.melds[r.dataset.meld].length);

  function why(row, text) {
    row.append(el("span", "why", text));
  }

  async function check() {
    const seq = ++checkSeq;
    const layout = st.draft.melds.filter((m) => m.length);
    const r = await RC.checked(api("/check"), { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ layout }) });
    if (!r || seq !== checkSeq) return;
    const result = await r.json();
    meldRows().forEach((row, i) => {
      const m = result.melds[i];
      if (!m) return;
      row.classList.toggle("valid", m.valid);
      row.classList.toggle("invalid", !m.valid);
      row.dataset.valid = m.valid;
      row.title = m.valid ? w("web.valid") : m.reason;
      if (!m.valid) why(row, m.reason);
    });
    const opening = $("opening");
    if (opening) {
      opening.textContent = result.opened ? "" : w("web.opening", { value: result.opening, required: result.required });
      opening.classList.toggle("enough", !result.opened && result.opening >= result.required);
    }
    document.body.dataset.checked = result.ok ? "ok" : "refused";
  }

  // A refused Done names the meld it concerns: the sentence goes on that meld as well.
  RC.markMeld = (index, text) => {
    const row = meldRows()[index];
    if (!row) return;
    row.classList.add("invalid", "refused");
    why(row, text);
  };

  // `at`: the index in the target meld to put the tile at (null: at its end).
  function moveTile(from, pos, target, at) {
    const draft = st.draft;
    const source = from === "rack" ? draft.rack : draft.melds[Number(from)];
    const [tile] = source.splice(pos, 1);
    if (target.kind === "rack") draft.rack.push(tile);
    else if (target.kind === "new") draft.melds.push([tile]);
    else {
      const dest = draft.melds[target.meld];
      let i = at === null ? dest.length : at;
      if (source === dest && pos < i) i -= 1;
      dest.splice(i, 0, tile);
    }
    draft.melds = draft.melds.filter((m) => m.length);
    drawRummikub();
  }

  // Pointer events serve mouse and touch alike: press a tile, drag its copy, drop it on a zone.
  let drag = null;
  const zoneAt = (x, y) => { const under = document.elementFromPoint(x, y); return under && under.closest("[data-drop]"); };
  const clearOver = () => document.querySelectorAll(".over").forEach((z) => z.classList.remove("over"));
  function place(e) {
    drag.copy.style.left = `${e.clientX - 18}px`;
    drag.copy.style.top = `${e.clientY - 24}px`;
    clearOver();
    const zone = zoneAt(e.clientX, e.clientY);
    if (zone) zone.classList.add("over");
  }
  document.addEventListener("pointerdown", (e) => {
    const t = e.target.closest(".tile[data-from]");
    if (!t || !st.data || st.data.game !== "rummikub" || !mine()) return;
    e.preventDefault();
    const copy = t.cloneNode(true);
    copy.classList.add("dragging");
    document.body.append(copy);
    t.classList.add("ghost");
    drag = { el: t, copy, from: t.dataset.from, pos: Number(t.dataset.pos) };
    place(e);
  });
  document.addEventListener("pointermove", (e) => { if (drag) { e.preventDefault(); place(e); } });
  document.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const { copy, el: t, from, pos } = drag;
    drag = null;
    copy.remove();
    t.classList.remove("ghost");
    clearOver();
    const zone = zoneAt(e.clientX, e.clientY);
    if (!zone) return;
    const kind = zone.dataset.drop;
    if (kind === "gap") {
      moveTile(from, pos, { kind: "meld", meld: Number(zone.dataset.meld) }, Number(zone.dataset.at));
    } else if (kind === "meld") {
      // Dropped on a tile: it goes before that tile, else at the meld's end.
      const under = document.elementFromPoint(e.clientX, e.clientY).closest(".tile[data-from]");
      const at = under && under.dataset.from === zone.dataset.meld ? Number(under.dataset.pos) : null;
      moveTile(from, pos, { kind: "meld", meld: Number(zone.dataset.meld) }, at);
    } else {
      moveTile(from, pos, { kind }, null);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && held) { held = null; drawRummikub(); }
  });
  document.addEventListener("pointercancel", () => {
    if (drag) { drag.copy.remove(); drag.el.classList.remove("ghost"); drag = null; }
  });

  RC.drawRummikub = drawRummikub;
})();
