// Tiles and cards as the chat's pictures draw them: a tile's number in its colour, a card's rank and
// suit symbol in red or black, jokers marked, a joker's stand-in noted, a wild card edged in gold.
"use strict";
(() => {
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const COLOURS = { r: "red", b: "blue", k: "black", y: "orange" };

  // `piece` is {code, kind: "tile"|"card", note, wild} from the payload (or a bare tile code).
  function face(piece) {
    const p = typeof piece === "string" ? { code: piece, kind: "tile" } : piece;
    const e = document.createElement("span");
    const code = p.code;
    if (p.kind === "card") {
      const joker = code === "JK";
      const suit = code.slice(-1);
      e.className = `card ${joker ? "joker" : suit === "H" || suit === "D" ? "red" : "black"}`;
      e.append(RC.el("b", "rank", joker ? "JK" : code.slice(0, -1)), RC.el("i", "suit", joker ? "★" : SUITS[suit]));
      e.setAttribute("aria-label", joker ? "joker" : code);
    } else {
      const joker = code === "j";
      e.className = `tile ${joker ? "j" : code[0]}`;
      e.append(RC.el("b", "rank", joker ? "☺" : code.slice(1)));
      e.setAttribute("aria-label", joker ? "joker" : `${COLOURS[code[0]]} ${code.slice(1)}`);
    }
    if (p.note) e.append(RC.el("small", "note", p.note));
    if (p.wild) e.classList.add("wild");
    e.dataset.code = code;
    e.title = p.note ? `${code} = ${p.note}` : code;
    return e;
  }

  RC.face = face;
})();
