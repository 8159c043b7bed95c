// The card and tile-rummy games: the table as pieces (melds, the market in order, the pile top, the
// stock), the hand to tap, and the legal moves for the picks as buttons. A pile or market position
// that one of the seat's own buttons takes from is tappable too; no rule of any game lives here.
"use strict";
(() => {
  const { $, st, w, el, button } = RC;

  function tappable(node, take, what) {
    if (!take) return;
    node.classList.add("takes");
    node.dataset.take = `${take.index}:${take.option === null ? "" : take.option}`;
    node.title = w(what);
    const go = () => RC.press({ ...take, with_items: !!take.with_items });
    node.addEventListener("click", (e) => { e.stopPropagation(); go(); });
    RC.operable(node, go);
    node.dataset.focus = `take:${node.dataset.take}`;
    // A button's name: what the tap does, then what it takes ("Tap to take from here: 7♥").
    const piece = node.matches("[aria-label]") ? node : node.querySelector("[aria-label]");
    const what_ = piece ? piece.getAttribute("aria-label") : node.textContent;
    node.setAttribute("aria-label", `${w(what)}: ${what_}`);
    if (piece && piece !== node) piece.setAttribute("aria-hidden", "true");
  }

  function zone(z) {
    const box = el("div", `zone ${z.kind}`);
    box.dataset.zone = z.kind;
    box.append(el("span", "label", z.label));
    if (z.kind === "stock") {
      const back = el("span", "back", String(z.size));
      back.title = w("web.left", { n: z.size });
      back.setAttribute("role", "img");
      back.setAttribute("aria-label", back.title);
      box.append(back);
      tappable(back, z.take, "web.draw_here");
    } else {
      const row = el("span", "pieces");
      z.pieces.forEach((p, i) => {
        const f = RC.face(p);
        if (z.kind === "market") {
          const slot = el("span", "slot");
          slot.dataset.pos = i + 1;
          slot.append(el("small", "pos", `#${i + 1}`), f);
          if (p.burned) slot.classList.add("burned");
          tappable(slot, p.take, "web.take_here");
          row.append(slot);
        } else {
          tappable(f, p.take, "web.take_here");
          row.append(f);
        }
      });
      if (z.kind !== "market" && z.size > z.pieces.length) row.append(el("small", "size", `(${z.size})`));
      box.append(row);
    }
    return box;
  }

  function meld(m) {
    const box = el("div", `tablemeld ${m.tone}`);
    box.dataset.ref = m.ref;
    const head = el("div", "caption");
    head.append(el("b", "", m.ref), document.createTextNode(" " + m.caption.join(" · ")));
    const row = el("div", "pieces");
    row.append(...m.pieces.map(RC.face));
    box.append(head, row);
    return box;
  }

  // The table as pieces: the piles, then the melds (by team where the game has teams).
  function boardNodes(b) {
    const zones = el("div", "zones");
    zones.append(...b.zones.map(zone));
    if (!b.melds) return [zones];
    const melds = el("div", "tablemelds");
    let group = null;
    for (const m of b.melds) {
      if (m.group !== group && m.group) melds.append(el("h2", "group", m.group));
      group = m.group;
      melds.append(meld(m));
    }
    if (!b.melds.length) melds.append(el("p", "tip", w("web.no_melds")));
    return [zones, el("h2", "", w("web.melds")), melds];
  }

  function drawBoard() {
    const b = st.data.board;
    $("board").replaceChildren(...(b ? boardNodes(b) : []));
  }

  const drawCards = () => RC.keepFocus(drawAll, "item:0");

  function drawAll() {
    drawBoard();
    const hand = st.data.hand;
    if (!hand) return;
    // Staged items wait in their melds (the buttons below), not on the hand to pick.
    $("hand").replaceChildren(...hand.items.filter((item) => !item.staged).map((item) => {
      const f = RC.face(item.piece);
      f.dataset.index = item.index;
      f.dataset.item = item.label;
      if (item.selected) f.classList.add("selected");
      const pick = () => {
        if (!hand.my_turn) return;
        const i = st.picks.indexOf(item.index);
        if (i >= 0) st.picks.splice(i, 1); else st.picks.push(item.index);
        RC.refresh();
      };
      f.addEventListener("click", pick);
      if (hand.my_turn) {
        RC.operable(f, pick, !!item.selected);
        f.dataset.focus = `item:${item.index}`;
      }
      return f;
    }));
    const moves = hand.actions.map((a) => button(a.label, () => RC.press(a), "action"));
    if (hand.my_turn && !st.picks.length && !st.staged.length) moves.push(el("p", "tip", w("web.pick_hint")));
    // Picks that make no move: the engine's reason, in one line (the buttons are only legal moves).
    if (hand.my_turn && hand.why_not) {
      const line = el("p", "why-not", hand.why_not);
      line.id = "why-not";
      line.setAttribute("role", "status");
      moves.push(line);
    }
    // Suggested moves: one tap each. Staging (issue 25): the picks become a meld of a compound move,
    // a staged meld goes back to the hand, all of them at once; the move button sends them all.
    const suggested = (hand.suggestions || []).map((g) => button(g.label, () => RC.send({ suggestion: g.index }), "suggestion"));
    const staging = [];
    if (hand.can_stage) {
      staging.push(button(hand.stage_label, () => { st.staged.push(st.picks.slice()); st.picks = []; RC.refresh(); }, "stage"));
    }
    for (const m of hand.staged || []) {
      staging.push(button(m.label, () => { st.staged.splice(m.number - 1, 1); RC.refresh(); }, "unstage"));
    }
    if ((hand.staged || []).length) {
      staging.push(button(hand.clear_label, () => { st.staged = []; st.picks = []; RC.refresh(); }, "clear"));
    }
    $("actions").replaceChildren(...suggested, ...staging, ...moves);
    const lines = hand.staging || [];
    $("hints").textContent = hand.body + (lines.length ? "\n\n" + lines.join("\n") : "");
  }

  RC.drawCards = drawCards;
  RC.boardNodes = boardNodes;
})();
