// The table picture, drawn from the JSON of interpreter/table/model.py: shared things first,
// then each player's area (their counters, grids and zones). Nothing here knows any game:
// names come from the ruleset, cards show their fields, grids their layout and contents.
"use strict";

const PALETTE = ["#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5",
  "#ffffb3", "#bc80bd", "#ccebc5", "#ffed6f", "#d9d9d9"];
const LAYOUT_COLOURS = ["#e9dcc0", "#d6ead0", "#d8e4f0", "#f0d8e0", "#e4e4e4", "#f3ecd0"];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

let DECLARED = {};  // value -> colour, from the layout's `colours` lines (the palette otherwise)

function useColours(pic) {
  DECLARED = {};
  for (const map of Object.values((pic.layout && pic.layout.colours) || {})) Object.assign(DECLARED, map);
}

// Something that can be clicked for the decision is reachable and worked by keyboard too:
// a tab stop, a button to assistive technology, Enter or Space does what a click does.
function operable(node, label) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    ev.stopPropagation();
    node.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  });
  return node;
}

function colourOf(values, v) {
  if (Object.prototype.hasOwnProperty.call(DECLARED, v)) return DECLARED[v];
  const i = values.indexOf(v);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
}

// a seat as the page says it: the player's name once given (the page's `names`), else P1, P2, ...
let NAMES = [];
function playerName(p) { return NAMES[p] || "P" + (p + 1); }

let SYMBOLS = []; // every value a grid cell may hold, so a value has one colour on grids and cards

function drawShape(cells, size) {
  const rows = Math.max(...cells.map((x) => x[0])) + 1, cols = Math.max(...cells.map((x) => x[1])) + 1;
  const box = el("div", {class: "shape", style: `grid-template-columns: repeat(${cols}, ${size}px)`});
  const at = {};
  for (const [r, c, v] of cells) at[`${r},${c}`] = v;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const v = at[`${r},${c}`];
    box.append(el("div", {class: "shape-cell" + (v === undefined ? " empty" : ""), title: v || "",
      style: `width:${size}px;height:${size}px` + (v === undefined ? "" : `;background:${colourOf(SYMBOLS, v)}`)},
    v === undefined ? "" : v));
  }
  return box;
}

// ------------------------------------------------------------------ cards and zones
function drawCard(card, hooks, same) {
  // `same`: further cards with this one's face (identical nameless pieces), drawn once with a count
  const ids = [card.id, ...(same || []).map((c) => c.id)];
  const pickId = ids.find((id) => hooks.cards && hooks.cards[id]);
  const pick = pickId && hooks.cards[pickId];
  // a colour by an enum value (the layout's `face ... colour FIELD`) is said in words too
  const said = (card.title + " " + card.fields.join(" ")).toLowerCase().split(/[^\w']+/);
  const mark = card.mark && !said.includes(card.mark.toLowerCase()) ? el("span", {class: "card-mark"}, card.mark) : null;
  const node = el("div", {
    class: "card" + (pick ? " choosable" : ""), title: ids.length > 1 ? ids.join(", ") : card.text, "data-card": pickId || card.id,
    "data-cards": ids.join(" "),  // every card stacked here (what changed may be any of them)
    onclick: pick ? () => hooks.choose(pick) : null,
    style: card.colour ? `border-left: 7px solid ${card.colour}` : null,
  },
  el("div", {class: "card-title"}, ids.length > 1 ? `${ids.length} × ${card.title === card.id ? "" : card.title}` : card.title, mark),
  (card.shapes || []).map((s) => drawShape(s.cells, 34)),
  card.fields.length ? el("ul", {class: "card-fields"}, card.fields.map((f) => el("li", {}, f))) : null);
  return pick ? operable(node, `choose ${card.text || card.title}`) : node;
}

function drawCards(cards, hooks) {
  // cards with the same face (same title unless it is just the id, same fields) stack with a count
  const face = (c) => JSON.stringify([c.kind, c.title === c.id ? "" : c.title, c.fields, c.shapes || null]);
  const out = [];
  for (let i = 0; i < cards.length;) {
    let j = i + 1;
    while (j < cards.length && face(cards[j]) === face(cards[i])) j++;
    out.push(drawCard(cards[i], hooks, cards.slice(i + 1, j)));
    i = j;
  }
  return out;
}

function drawZone(zone, hooks) {
  const head = el("div", {class: "zone-head"},
    el("span", {class: "zone-name", title: zone.label}, zone.short),
    el("span", {class: "zone-count", title: `${zone.kind}, ${zone.visibility}`}, `(${zone.count})`));
  let body;
  if (zone.backs) {
    const shown = {};
    for (const b of zone.backs) if (b) shown[b] = (shown[b] || 0) + 1;
    const parts = Object.entries(shown).map(([b, n]) => `${n} × ${b}`);
    return el("div", {class: "zone hidden-zone", "data-zone": zone.key, title: `${zone.kind}, ${zone.visibility}`},
      el("span", {class: "zone-name", title: zone.label}, zone.short), " ",
      el("span", {class: "back-count"}, `${zone.count} face down`),
      parts.length ? el("span", {class: "backs"}, " · backs: " + parts.join(", ")) : null);
  } else {
    body = el("div", {class: "zone-cards"}, drawCards(zone.cards, hooks));
  }
  return el("div", {class: "zone", "data-zone": zone.key}, head, body);
}

function drawZones(zones, hooks) {
  const hidden = zones.filter((z) => z.backs), open = zones.filter((z) => !z.backs);
  return el("div", {class: "zones"},
    hidden.length ? el("div", {class: "hidden-zones"}, hidden.map((z) => drawZone(z, hooks))) : null,
    open.map((z) => drawZone(z, hooks)));
}

// ------------------------------------------------------------------ counters
function drawCounters(list, first) {
  // A counter kept per something (per colour, per token) reads as one chip, the way people say it:
  // "gems: red 1, blue 2" (zeros left out), "used: A, C" (a flag lists where it is true, and
  // is left out while false everywhere). `first`: chips shown before them (the score so far).
  first = first || [];
  if (!list.length && !first.length) return null;
  const byName = new Map();
  for (const c of list) {
    if (!byName.has(c.name)) byName.set(c.name, []);
    byName.get(c.name).push(c);
  }
  const chip = (key, name, value) => el("span", {class: "counter", "data-counter": key},
    el("span", {class: "counter-name"}, name), el("span", {class: "counter-value"}, value));
  const out = [...first];
  for (const [name, cs] of byName) {
    if (cs.every((c) => c.part === "")) { out.push(...cs.map((c) => chip(c.key, c.short, c.value))); continue; }
    const flags = cs.every((c) => c.value === "true" || c.value === "false");
    const shown = cs.filter((c) => !["0", "false", "none", ""].includes(c.value))
      .map((c) => flags ? c.part : `${c.part} ${c.value}`);
    if (flags && !shown.length) continue;  // flags that are all false say nothing (like a false flag)
    const group = chip(name, cs[0].head, shown.length ? shown.join(", ") : "none");
    group.setAttribute("data-group", `${name}@${cs[0].owner}`);  // what changed in it outlines it (changes.js)
    out.push(group);
  }
  return el("div", {class: "counters"}, out);
}

// ------------------------------------------------------------------ grids
function drawGrid(grid, hooks) {
  const layoutNames = Object.keys(grid.layouts);
  const layoutValues = layoutNames.length ? [...new Set(grid.layouts[layoutNames[0]])] : [];
  const pieceAt = {};
  for (const p of grid.pieces) for (const i of p[4]) pieceAt[i] = p[0];
  const placing = hooks.placement && hooks.placement.grid === grid.key;
  const table = el("div", {class: "grid", "data-grid": grid.key, role: "group", "aria-label": grid.label,
    style: `--cols: ${grid.cols}; grid-template-columns: repeat(${grid.cols}, var(--cell))`});
  const cells = [];
  for (let i = 0; i < grid.rows * grid.cols; i++) {
    const r = Math.floor(i / grid.cols), c = i % grid.cols;
    const v = grid.cells[i];
    const layout = layoutNames.map((n) => grid.layouts[n][i]);
    const ground = layoutValues.length ? LAYOUT_COLOURS[layoutValues.indexOf(layout[0]) % LAYOUT_COLOURS.length] : "#f7f7f7";
    const cellPick = hooks.cells && hooks.cells[grid.key + "@" + i];
    const says = `row ${r + 1}, column ${c + 1}` + layoutNames.map((n, k) => `, ${n} ${layout[k]}`).join("")
        + (v !== null ? `: ${v}` : "") + (pieceAt[i] ? ` (${pieceAt[i]})` : "");
    const cell = el("div", {
      class: "cell" + (v !== null ? " full" : "") + (cellPick ? " choosable" : ""),
      "data-row": r, "data-col": c, "data-index": i, title: says,
      // one tab stop per grid; the arrow keys move between its cells (roving focus, gridKeys); a cell
      // to pick is a button named by what it shows, then where it is (a hidden part)
      role: cellPick || placing ? "button" : "img", "aria-label": cellPick || placing ? null : says, tabindex: "-1",
      style: `background:${ground}`,
      onclick: cellPick ? () => hooks.choose(cellPick) : null,
    },
    layoutNames.length ? el("span", {class: "cell-layout"}, layout.join(" ")) : null,
    v !== null ? el("span", {class: "cell-content", style: `background:${colourOf(SYMBOLS.includes(v) ? SYMBOLS : grid.contents, v)}`}, v) : null,
    cellPick || placing ? el("span", {class: "sr-only"}, ` ${says}`) : null);
    // a thicker edge between different pieces, so each placed piece reads as one
    const right = (c + 1 < grid.cols) ? pieceAt[i + 1] : undefined, below = pieceAt[i + grid.cols];
    if (pieceAt[i] && right !== pieceAt[i]) cell.classList.add("edge-right");
    if (pieceAt[i] && below !== pieceAt[i]) cell.classList.add("edge-bottom");
    cells.push(cell);
    table.append(cell);
  }
  gridKeys(table, cells, grid.cols);
  const legend = layoutValues.length ? el("div", {class: "legend"},
    layoutValues.map((v, k) => el("span", {class: "swatch", style: `background:${LAYOUT_COLOURS[k % LAYOUT_COLOURS.length]}`},
      `${layoutNames[0]} ${v}`))) : null;
  const box = el("div", {class: "grid-box"}, el("div", {class: "grid-name", title: grid.label}, grid.short), table, legend);
  if (hooks.placement && hooks.placement.grid === grid.key) hooks.placement.attach(grid, cells, box);
  return box;
}

function gridKeys(table, cells, cols) {
  // the grid is one tab stop (a cell that can be picked, else the first); arrows move, Enter or
  // Space clicks, and a cell taking the focus previews as a pointer over it would
  const first = cells.find((c) => c.classList.contains("choosable")) || cells[0];
  if (first) first.setAttribute("tabindex", "0");
  cells.forEach((cell, i) => {
    cell.addEventListener("focus", () => cell.dispatchEvent(new MouseEvent("mouseenter")));
    cell.addEventListener("keydown", (ev) => {
      const step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols}[ev.key];
      if (step !== undefined) {
        const next = cells[i + step];
        if (!next || (Math.abs(step) === 1 && Math.floor((i + step) / cols) !== Math.floor(i / cols))) return;
        ev.preventDefault();
        cells.forEach((x) => x.setAttribute("tabindex", "-1"));
        next.setAttribute("tabindex", "0");
        next.focus();
      } else if (ev.key === "Enter" || ev.key === " ") {
        if (cell.classList.contains("pinned")) return;  // Enter on the piece pinned here: the page confirms it
        ev.preventDefault();
        ev.stopPropagation();
        cell.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      }
    });
  });
}

// ------------------------------------------------------------------ path boards
function wedges(x, y, r, fills) {
  // equal slices of a circle, the first from the top, clockwise; none for one colour or none
  if (fills.length < 2) return [];
  const point = (i) => {
    const t = 2 * Math.PI * i / fills.length - Math.PI / 2;
    return `${x + r * Math.cos(t)} ${y + r * Math.sin(t)}`;
  };
  return fills.map((f, i) => svgEl("path", {class: "wedge", fill: f,
    d: `M ${x} ${y} L ${point(i)} A ${r} ${r} 0 0 1 ${point(i + 1)} Z`}));
}

function drawBoard(board, hooks) {
  const W = 760, H = Math.max(260, Math.min(560, 60 * Math.sqrt(board.spaces.length) * 2)), pad = 34;
  const at = {};
  for (const s of board.spaces) at[s.name] = [pad + s.x * (W - 2 * pad), pad + s.y * (H - 2 * pad)];
  const areas = [...new Set(board.spaces.flatMap((s) => s.areas))];
  // what lies in an area (the zones kept per area), so nobody has to look it up below
  const held = board.held || {};
  const areaSays = (a) => held[a] ? `${a}: ${held[a]}` : "area " + a;
  // areas that hold the same thing share a colour, so a player sees what lies there, not the areas' names
  const looks = (a) => held[a] || a;
  const kinds = [...new Set(areas.map(looks))].sort();
  const paint = (a) => colourOf(kinds, looks(a));
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, class: "board", "data-board": board.name});
  svg.append(svgEl("defs", {}, svgEl("marker", {id: "arrow-" + board.name, viewBox: "0 0 10 10", refX: "22", refY: "5",
    markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse"}, svgEl("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#555"}))));
  for (const [a, b] of board.arrows) {
    svg.append(svgEl("line", {x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1], stroke: "#777",
      "stroke-width": 1.5, "marker-end": `url(#arrow-${board.name})`}));
  }
  for (const s of board.spaces) {
    const [x, y] = at[s.name];
    const pick = hooks.spaces && hooks.spaces[s.name];
    const g = svgEl("g", {class: "space" + (pick ? " choosable" : "") + (s.who.length ? " occupied" : ""),
      "data-space": s.name});
    if (pick) {
      g.addEventListener("click", () => hooks.choose(pick));
      operable(g, `choose ${[s.label, ...s.tags].join(", ")}`);
    }
    const title = svgEl("title", {}, [s.label, ...s.tags, ...s.areas.map(areaSays)].join(" · "));
    // the space as the log names it (its label, shortened to what the circle can hold)
    const name = svgEl("text", {x: x, y: y + 4, "text-anchor": "middle", class: "space-name"}, s.short);
    if (s.short.length > 4) name.setAttribute("textLength", 28), name.setAttribute("lengthAdjust", "spacingAndGlyphs");
    // a space touching several areas is cut into one slice per colour, so every area it reaches shows
    const paints = [...new Set(s.areas.map(paint))];
    g.append(title, ...wedges(x, y, 16, paints),
      svgEl("circle", {cx: x, cy: y, r: 16, fill: paints.length === 1 ? paints[0] : paints.length ? "none" : "#f7f7f7"}), name);
    if (s.tags.length) g.append(svgEl("text", {x: x, y: y + 29, "text-anchor": "middle", class: "space-tags"}, s.tags.join(" ")));
    if (s.who.length) g.append(svgEl("text", {x: x, y: y - 21, "text-anchor": "middle", class: "space-who"}, s.who.join(", ")));
    svg.append(g);
  }
  const legend = areas.length ? el("div", {class: "legend"}, kinds.map((k) => {
    const where = areas.filter((a) => looks(a) === k).sort();
    const says = held[where[0]] ? `${k}: ${where.join(", ")}` : "area " + k;
    return el("span", {class: "swatch", style: `background:${colourOf(kinds, k)}`}, says);
  })) : null;
  return el("div", {class: "board-box"}, el("div", {class: "grid-name"}, "board " + board.name), svg, legend);
}

// ------------------------------------------------------------------ the whole table
function drawTable(root, pic, hooks) {
  hooks = hooks || {};
  root.replaceChildren();
  SYMBOLS = pic.symbols || [];
  useColours(pic);
  if (pic.layout) return drawLaidOut(root, pic, hooks);  // the ruleset says how its table is arranged
  // your own area first (what you act on), then the shared table, then the other players
  const seats = [];
  for (let p = 0; p < (pic.players || (pic.seats || []).length); p++) seats.push(p);
  const owners = pic.seat === null || pic.seat === undefined ? [null, ...seats]
    : [pic.seat, null, ...seats.filter((p) => p !== pic.seat)];
  for (const owner of owners) {
    const mine = (list) => list.filter((x) => x.owner === owner);
    const zones = mine(pic.zones), counters = mine(pic.counters), grids = mine(pic.grids);
    const boards = owner === null ? pic.boards : [];
    if (!zones.length && !counters.length && !grids.length && !boards.length) continue;
    const you = owner !== null && owner === pic.seat;
    const title = owner === null ? "On the table" : playerName(owner) + (you ? " (you)" : "");
    // the score rules run on what this page may see: "if the game ended now"
    const sofar = owner !== null && pic.standing && String(owner) in pic.standing
      ? [el("span", {class: "counter score-so-far", title: "if the game ended now, counted from what you can see"},
          el("span", {class: "counter-name"}, "score so far"), el("span", {class: "counter-value"}, String(pic.standing[owner])))]
      : [];
    root.append(el("section", {class: "area" + (you ? " yours" : ""), "data-owner": owner === null ? "table" : playerName(owner)},
      el("h2", {}, title),
      drawCounters(counters, sofar),
      el("div", {class: "boards"}, boards.map((b) => drawBoard(b, hooks)), grids.map((g) => drawGrid(g, hooks))),
      drawZones(zones, hooks)));
  }
}

function drawScores(scores) {
  if (!scores) return null;
  const head = el("tr", {}, el("th", {}, "rule"),
    scores.players.map((p) => el("th", {class: p.place === 1 ? "first" : null}, p.place === 1 ? `${p.name} ★` : p.name)));
  const rows = scores.rules.map((r) => el("tr", {}, el("td", {}, r), scores.players.map((p) => el("td", {class: "num"}, p.breakdown[r]))));
  const total = el("tr", {class: "total"}, el("td", {}, "total"), scores.players.map((p) => el("td", {class: "num"}, p.total)));
  const place = el("tr", {class: "place"}, el("td", {}, "place"), scores.players.map((p) => el("td", {class: "num"}, p.place)));
  return el("div", {class: "scores"}, el("h2", {}, "Final scores"),
    scores.outcome ? el("p", {class: "outcome", id: "outcome"}, scores.outcome) : null,
    el("table", {}, head, rows, total, place));
}

function drawLog(box, lines) {
  box.replaceChildren(...lines.map((l) => el("div", {class: l.startsWith("  ") ? "log-event" : "log-choice"}, l.trim())));
  box.scrollTop = box.scrollHeight;
}
