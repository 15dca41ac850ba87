// Placing a piece on a grid, for any game whose decision carries a `placement` (the piece, its
// orientations, every legal place). A pointer over the grid previews the piece where it would go:
// green where it fits, red where it does not. A click (or a tap: a phone has no hover) pins the
// piece there and the decision panel asks to confirm, so a slip of the finger places nothing.
// R rotates and F flips (a pinned piece turns where it is), Enter confirms, Escape lets go.
"use strict";

let orientation = 0;  // which of the placement's orientations is in hand
let pinned = null;    // {step, row, col}: the cell a piece is pinned at, for the decision of that step

function pinnedHere(step) { return pinned && pinned.step === step ? pinned : null; }

function placementHooks(placement, step, choose, showError, redraw) {
  const orients = placement.orientations;
  if (orientation >= orients.length) orientation = 0;
  const places = {};
  for (const [o, r, c, id] of placement.places) places[`${o},${r},${c}`] = id;
  const shape = () => orients[orientation];
  // the cell pointed at holds the shape's first cell (top row, leftmost): the piece sits under the finger
  const origin = (r, c) => { const first = shape().cells[0]; return [r - first[0], c - first[1]]; };
  const optionAt = (r, c) => { const [r0, c0] = origin(r, c); return places[`${shape().o},${r0},${c0}`]; };
  const hooks = {
    grid: placement.grid,
    // the option a confirm would send: the pinned place in the orientation in hand (undefined: it does not fit)
    pinnedOption() { const p = pinnedHere(step); return p ? optionAt(p.row, p.col) : undefined; },
    confirm() {
      const id = hooks.pinnedOption();
      if (id === undefined) return showError(`${placement.piece} does not fit where it is pinned ${shape().name}; rotate it or tap another cell`);
      pinned = null;
      choose(id);
    },
    cancel() { pinned = null; redraw(); },
    attach(grid, cells, box) {
      box.classList.add("placing");
      const clear = () => cells.forEach((x) => {
        x.classList.remove("preview", "ok", "bad", "pinned");
        x.querySelectorAll(".preview-mark").forEach((m) => m.remove());
      });
      const show = (r, c, pin) => {
        clear();
        const [r0, c0] = origin(r, c);
        const ok = optionAt(r, c) !== undefined;
        for (const [dr, dc, v] of shape().cells) {
          const rr = r0 + dr, cc = c0 + dc;
          if (rr < 0 || rr >= grid.rows || cc < 0 || cc >= grid.cols) continue;
          const cell = cells[rr * grid.cols + cc];
          cell.classList.add("preview", ok ? "ok" : "bad");
          if (pin) cell.classList.add("pinned");
          cell.append(el("span", {class: "preview-mark", style: `background:${colourOf(SYMBOLS, v)}`}, v));
        }
      };
      const rest = () => { const p = pinnedHere(step); if (p) show(p.row, p.col, true); else clear(); };
      cells.forEach((cell) => {
        const r = +cell.dataset.row, c = +cell.dataset.col;
        // while a piece is pinned, pointing elsewhere does not move it: only a click does
        cell.addEventListener("mouseenter", () => { if (!pinnedHere(step)) show(r, c, false); });
        cell.addEventListener("click", () => {
          if (optionAt(r, c) === undefined) {
            show(r, c, false);
            return showError(`${placement.piece} cannot go there ${shape().name} (red: it would not fit or the rules forbid it); try another cell, or R to rotate`);
          }
          pinned = {step, row: r, col: c};
          showError("");
          redraw();
        });
      });
      box.addEventListener("mouseleave", rest);
      rest();
    },
    rotate() { turn(orients, false, showError, redraw); },
    flip() { turn(orients, true, showError, redraw); },
  };
  return hooks;
}

function turn(orients, flip, showError, redraw) {
  // rotate: the next orientation on the same side; flip: the first one on the other side
  const side = (k) => orients[k].o >= 4;
  const here = side(orientation);
  if (flip) {
    const other = orients.findIndex((o, k) => side(k) !== here);
    if (other < 0) return showError("flipping this piece gives no new way to place it");
    orientation = other;
  } else {
    const same = orients.map((o, k) => k).filter((k) => side(k) === here);
    orientation = same[(same.indexOf(orientation) + 1) % same.length];
  }
  redraw();
}

// The panel's part of a placement: the piece drawn in hand, rotate and flip, and once a piece is
// pinned the confirm step (its button says whether the piece fits there as it is turned now).
function placementPanel(d, hooks, choose) {
  const o = d.placement.orientations[orientation];
  const where = pinnedHere(d.step);
  const fits = where && hooks.pinnedOption() !== undefined;
  return [
    el("div", {class: "placing-help"},
      el("div", {}, `Place ${d.placement.piece}: tap or click a cell of the grid to put it there, then confirm. `,
        el("kbd", {}, "R"), " rotates, ", el("kbd", {}, "F"), " flips."),
      el("div", {class: "shape-row"}, drawShape(o.cells, 34), el("span", {class: "orientation"}, o.name),
        el("button", {onclick: () => hooks.rotate(), id: "rotate"}, "Rotate (R)"),
        el("button", {onclick: () => hooks.flip(), id: "flip"}, "Flip (F)")),
      where ? el("div", {class: "confirm-row", id: "confirm-row"},
        el("span", {}, fits ? `Here, at row ${where.row + 1}, column ${where.col + 1}?` : "It does not fit there turned this way."),
        el("button", {class: "confirm", id: "confirm", disabled: !fits, onclick: () => hooks.confirm()}, "Place it here (Enter)"),
        el("button", {id: "cancel-place", onclick: () => hooks.cancel()}, "Cancel (Esc)")) : null),
    el("details", {}, el("summary", {}, `or pick one of the ${d.options.length} places from a list`),
      el("div", {class: "options"}, d.options.map((x) => el("button", {class: "option", "data-option": x.id, title: x.label,
        onclick: () => choose(x.id)}, x.short || x.label)))),
  ];
}
