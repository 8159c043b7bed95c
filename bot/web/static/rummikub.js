// Rummikub: drag tiles between the rack, the melds and a new meld; drop a tile on a gap between two
// tiles to put it in between, tap a gap to split the meld there, drop a rack tile on another to
// rearrange the rack. The server checks every meld live (/check) and Done sends the whole layout as
// one `play`. By keyboard: Enter or Space picks a tile up, then puts it on the meld, gap, "new meld"
// or rack it is pressed on; Escape puts it down. Undo takes back one step of the draft.
//
// The table keeps its order across turns (the rules' table order): a meld keeps its number while it
// is on the table, and a meld emptied in the draft stays as an empty place until Done, so "meld 3"
// stays under the finger. A phone's table wraps several melds to a row; a drag near the top or the
// bottom of the view (above the rack, which stays in view) scrolls the page.
"use strict";
(() => {
  const { $, st, w, el, button, api } = RC;
  let checkSeq = 0;
  let held = null; // {from, pos}: the tile picked up by keyboard
  let history = []; // the draft before each step, for Undo
  // The player's own rack order, kept across turns (new tiles at its end), and a chosen sort.
  let rackOrder = null;
  let sortBy = null; // "colour" | "number" | null (the player's order)

  const COLOURS = "rbky";
  const colourKey = (t) => (t === "j" ? [9, 0] : [COLOURS.indexOf(t[0]), Number(t.slice(1))]);
  const numberKey = (t) => (t === "j" ? [99, 0] : [Number(t.slice(1)), COLOURS.indexOf(t[0])]);
  const sortedBy = (tiles, key) => [...tiles].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });

  // The rack in the player's order: a chosen sort, else their last arrangement with new tiles last.
  function arranged(rack) {
    if (sortBy === "colour") return sortedBy(rack, colourKey);
    if (sortBy === "number") return sortedBy(rack, numberKey);
    if (!rackOrder) return [...rack];
    const left = [...rack];
    const out = [];
    for (const t of rackOrder) {
      const i = left.indexOf(t);
      if (i >= 0) { out.push(t); left.splice(i, 1); }
    }
    return out.concat(left);
  }

  // The layout starts from the draft the player began in the chat, if any (the seat's view holds it
  // while they are on turn); Reset goes back to the table as the turn found it.
  function startDraft(fromChat = true) {
    const view = st.data.view;
    const chat = fromChat && view.draft;
    return chat ? { melds: chat.melds.map((m) => [...m.tiles]), rack: arranged(chat.rack) }
      : { melds: (view.table || []).map((m) => [...m.tiles]), rack: arranged(view.rack || []) };
  }

  const copy = (d) => ({ melds: d.melds.map((m) => [...m]), rack: [...d.rack] });

  // Every change of the draft goes through here: the step before it is kept for Undo.
  function change(edit) {
    history.push(copy(st.draft));
    edit(st.draft);
    const melds = st.draft.melds;
    while (melds.length && !melds[melds.length - 1].length) melds.pop(); // no empty place at the end
    rackOrder = [...st.draft.rack];
    drawRummikub();
  }

  function undo() {
    if (!history.length) return;
    st.draft = history.pop();
    rackOrder = [...st.draft.rack];
    held = null;
    RC.say("");
    drawRummikub();
  }

  function sortRack(by) {
    sortBy = by;
    change((d) => { d.rack = arranged(d.rack); });
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

  // The tail becomes a meld at the end of the table (where the rules put the smaller half of a split).
  function split(i, p) {
    change((d) => { d.melds.push(d.melds[i].splice(p)); });
  }

  const mine = () => st.data.hand && st.data.hand.my_turn;

  // A placed tile's place on the rack goes to the tile that slid into it (or the rack's last).
  let after = null;
  const drawRummikub = () => RC.keepFocus(drawAll, () => {
    const rack = st.draft ? st.draft.rack.length : 0;
    return after !== null && rack ? `tile:rack:${Math.min(after, rack - 1)}` : "done:" + w("web.done");
  });

  // The table's melds, numbered as the table numbers them: the page's own draft, or any list of
  // melds (the replay's), read-only unless it is the seat's turn.
  function meldsEl(melds, live) {
    const table = el("div", "rk-table");
    melds.forEach((tiles, i) => {
      const row = el("div", "meld");
      row.dataset.meld = i;
      const n = el("span", "meld-n", String(i + 1));
      n.setAttribute("aria-hidden", "true");
      row.append(n);
      if (!tiles.length) row.classList.add("empty");
      if (live) row.dataset.drop = "meld";
      tiles.forEach((tile, p) => {
        if (p > 0 && live) row.append(gapEl(i, p));
        if (live) { row.append(tileEl(tile, String(i), p)); return; }
        const face = RC.face(tile);
        face.dataset.tile = tile;
        row.append(face);
      });
      if (live) target(row, w("web.meld_n", { n: i + 1 }), { kind: "meld", meld: i });
      table.append(row);
    });
    return table;
  }

  function drawAll() {
    if (!st.draft || !mine()) held = null;
    if (!st.draft) { st.draft = startDraft(); history = []; }
    const draft = st.draft;
    const table = meldsEl(draft.melds, mine());
    if (mine()) {
      const fresh = el("div", "newmeld", w("web.new_meld"));
      fresh.dataset.drop = "new";
      fresh.id = "newmeld";
      target(fresh, w("web.new_meld"), { kind: "new" });
      table.append(fresh);
    }
    const parts = [table];
    if (mine() && draft.melds.some((m) => m.length > 1)) parts.push(el("p", "tip", w("web.split_tip")));
    const opening = el("div", "opening");
    opening.id = "opening";
    parts.push(opening);
    // The rack's text goes with the table: the rack's box stays in view at the bottom, kept short.
    if (st.data.hand && st.data.hand.body) parts.push(el("pre", "text hints rk-hints", st.data.hand.body));
    $("board").replaceChildren(...parts);
    document.body.classList.add("rk");
    if (!st.data.hand) return;
    $("hints").textContent = "";
    const rack = $("hand");
    rack.replaceChildren(...draft.rack.map((tile, p) => tileEl(tile, "rack", p)));
    if (mine() && held && held.from !== "rack") target(rack, w("web.rack"), { kind: "rack" });
    const plain = st.data.hand.actions.filter((a) => !a.with_items && mine() && !isDraftVerb(a));
    const buttons = (st.data.hand.suggestions || []).map((g) => button(g.label, () => RC.send({ suggestion: g.index }), "suggestion"));
    buttons.push(...plain.map((a) => button(a.label, () => RC.press(a), "action")));
    if (draft.rack.length > 1) {
      const byColour = button(w("web.sort_colour"), () => sortRack("colour"), "sort-colour");
      const byNumber = button(w("web.sort_number"), () => sortRack("number"), "sort-number");
      byColour.setAttribute("aria-pressed", String(sortBy === "colour"));
      byNumber.setAttribute("aria-pressed", String(sortBy === "number"));
      buttons.push(byColour, byNumber);
    }
    if (mine()) {
      const back = button(w("web.undo"), undo, "undo");
      back.disabled = !history.length;
      buttons.push(back);
      const reset = () => { held = null; RC.say(""); change((d) => Object.assign(d, startDraft(false))); };
      buttons.push(button(w("web.reset"), reset, "reset"));
      const done = button(w("web.done"), () => RC.send({ play: draft.melds.filter((m) => m.length) }), "done");
      done.id = "done";
      buttons.push(done);
    }
    $("actions").replaceChildren(...buttons);
    if (mine()) check();
  }

  // The chat's step-by-step draft verbs are what drag and drop replaces here.
  const isDraftVerb = (a) => /^(new|add|move|split|reset|done)\b/i.test(a.label);

  const meldRows = () => [...document.querySelectorAll("#board .meld")].filter((r) => st.draft.melds[r.dataset.meld].length);

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

  // A refused Done names the meld it concerns (among the melds sent): the sentence goes on it too.
  RC.markMeld = (index, text) => {
    const row = meldRows()[index];
    if (!row) return;
    row.classList.add("invalid", "refused");
    why(row, text);
  };

  // `at`: the index in the target meld (or the rack) to put the tile at (null: at its end).
  function moveTile(from, pos, target, at) {
    change((draft) => {
      const source = from === "rack" ? draft.rack : draft.melds[Number(from)];
      const [tile] = source.splice(pos, 1);
      if (target.kind === "new") { draft.melds.push([tile]); return; }
      const dest = target.kind === "rack" ? draft.rack : draft.melds[target.meld];
      let i = at === null ? dest.length : at;
      if (source === dest && pos < i) i -= 1;
      dest.splice(i, 0, tile);
      if (target.kind === "rack" && from === "rack") sortBy = null; // the player's own order now
    });
  }

  // Pointer events serve mouse and touch alike: press a tile, drag its copy, drop it on a zone.
  let drag = null;
  const zoneAt = (x, y) => { const under = document.elementFromPoint(x, y); return under && under.closest("[data-drop]"); };
  const clearOver = () => document.querySelectorAll(".over").forEach((z) => z.classList.remove("over"));
  function place(x, y) {
    drag.x = x;
    drag.y = y;
    drag.copy.style.left = `${x - 18}px`;
    drag.copy.style.top = `${y - 24}px`;
    clearOver();
    const zone = zoneAt(x, y);
    if (zone) zone.classList.add("over");
  }

  // Near the top of the view, or near the bottom of the table's part of it (above the rack's box
  // when that stays in view), the page scrolls while the finger or the mouse waits there.
  const EDGE = 56;
  function scrollStep() {
    if (!drag) return;
    const box = $("handbox").getBoundingClientRect();
    const bottom = drag.y < box.top ? Math.min(innerHeight, box.top) : innerHeight;
    let dy = 0;
    if (drag.y < EDGE) dy = -Math.ceil((EDGE - drag.y) / 4);
    else if (drag.y > bottom - EDGE && drag.y < bottom) dy = Math.ceil((drag.y - (bottom - EDGE)) / 4);
    if (dy) {
      const before = scrollY;
      scrollBy(0, dy);
      if (scrollY !== before) place(drag.x, drag.y);
    }
    drag.frame = requestAnimationFrame(scrollStep);
  }

  function endDrag() {
    if (!drag) return null;
    const ended = drag;
    cancelAnimationFrame(ended.frame);
    ended.copy.remove();
    ended.el.classList.remove("ghost");
    clearOver();
    drag = null;
    return ended;
  }

  document.addEventListener("pointerdown", (e) => {
    const t = e.target.closest(".tile[data-from]");
    if (!t || !st.data || st.data.game !== "rummikub" || !mine() || RC.replaying) return;
    e.preventDefault();
    const ghost = t.cloneNode(true);
    ghost.classList.add("dragging");
    ghost.removeAttribute("id");
    document.body.append(ghost);
    t.classList.add("ghost");
    drag = { el: t, copy: ghost, from: t.dataset.from, pos: Number(t.dataset.pos), x: e.clientX, y: e.clientY };
    place(e.clientX, e.clientY);
    drag.frame = requestAnimationFrame(scrollStep);
  });
  document.addEventListener("pointermove", (e) => { if (drag) { e.preventDefault(); place(e.clientX, e.clientY); } });
  document.addEventListener("pointerup", (e) => {
    const ended = endDrag();
    if (!ended) return;
    const { from, pos } = ended;
    const zone = zoneAt(e.clientX, e.clientY);
    if (!zone) return;
    const kind = zone.dataset.drop;
    const under = document.elementFromPoint(e.clientX, e.clientY).closest(".tile[data-from]");
    if (kind === "gap") {
      moveTile(from, pos, { kind: "meld", meld: Number(zone.dataset.meld) }, Number(zone.dataset.at));
    } else if (kind === "meld") {
      // Dropped on a tile: it goes before that tile, else at the meld's end.
      const at = under && under.dataset.from === zone.dataset.meld ? Number(under.dataset.pos) : null;
      moveTile(from, pos, { kind: "meld", meld: Number(zone.dataset.meld) }, at);
    } else if (kind === "rack") {
      // On a rack tile: before it (the rack rearranged by hand), else at the rack's end.
      const at = under && under.dataset.from === "rack" ? Number(under.dataset.pos) : null;
      if (from === "rack" && (at === pos || (at === null && pos === st.draft.rack.length - 1))) return;
      moveTile(from, pos, { kind: "rack" }, at);
    } else {
      moveTile(from, pos, { kind }, null);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && held) { held = null; drawRummikub(); }
  });
  document.addEventListener("pointercancel", endDrag);

  RC.drawRummikub = drawRummikub;
  RC.rummikubMelds = (melds) => meldsEl(melds, false);
})();
