// Tiles and cards as the chat's pictures draw them: a tile's number in its colour with the colour's
// letter in a corner (colour is never the only sign), a card's rank and suit symbol in red or black,
// jokers marked, a joker's stand-in noted, a wild card edged in gold. Each piece is an image to a
// screen reader, named in words ("red 10", "10♥"); a piece the player acts on becomes a button.
"use strict";
(() => {
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  // `piece` is {code, kind: "tile"|"card", note, wild} from the payload (or a bare tile code).
  function face(piece) {
    const p = typeof piece === "string" ? { code: piece, kind: "tile" } : piece;
    const e = document.createElement("span");
    const code = p.code;
    let name;
    if (p.kind === "card") {
      const joker = code === "JK";
      const suit = code.slice(-1);
      e.className = `card ${joker ? "joker" : suit === "H" || suit === "D" ? "red" : "black"}`;
      e.append(RC.el("b", "rank", joker ? "JK" : code.slice(0, -1)), RC.el("i", "suit", joker ? "★" : SUITS[suit]));
      name = joker ? RC.w("web.joker") : code.slice(0, -1) + SUITS[suit];
    } else {
      const joker = code === "j";
      e.className = `tile ${joker ? "j" : code[0]}`;
      e.append(RC.el("b", "rank", joker ? "☺" : code.slice(1)));
      if (!joker) e.append(RC.el("small", "mark", code[0]));
      name = joker ? RC.w("web.joker") : RC.w(`web.tile_${code[0]}`, { n: code.slice(1) });
    }
    if (p.note) {
      e.append(RC.el("small", "note", p.note));
      name += ` = ${p.note}`;
    }
    if (p.wild) e.classList.add("wild");
    for (const part of e.children) part.setAttribute("aria-hidden", "true");
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", name);
    e.dataset.code = code;
    e.title = name;
    return e;
  }

  // A piece the player picks or moves: a button in the tab order, Enter or Space acting as a tap.
  function operable(e, act, pressed) {
    e.setAttribute("role", "button");
    e.tabIndex = 0;
    if (pressed !== undefined) e.setAttribute("aria-pressed", String(pressed));
    e.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); act(ev); }
    });
    return e;
  }

  RC.face = face;
  RC.operable = operable;
})();
