// A table the ruleset lays out (its `layout` block; dsl/compile_page.py makes pic.layout):
// your area first, then the shared areas in the declared order, then the other players' areas
// showing what `others:` names. Each area is rows of things side by side; a zone kept per an enum
// is one row of small slots; `columns per E` draws one column per value of E. Whatever the layout
// does not name folds into a "More" box, so nothing on the table is ever out of reach.
// Nothing here knows any game, and the drawing is a function of the whole view (draw.js helpers).
"use strict";

function drawLaidOut(root, pic, hooks) {
  const L = pic.layout, used = new Set();
  const seats = [];
  for (let p = 0; p < (pic.players || (pic.seats || []).length); p++) seats.push(p);
  const me = pic.seat === null || pic.seat === undefined ? null : pic.seat;
  const parts = [];
  if (me !== null) parts.push(playerArea(pic, me, L.player, null, hooks, used, true));
  for (const area of L.areas) {
    const rows = area.rows.map((r) => drawRow(pic, r, null, hooks, used)).filter((x) => x);
    if (rows.length) parts.push(el("section", {class: "area", "data-owner": "table"}, el("h2", {}, area.title), rows));
  }
  const more = leftovers(pic, null, hooks, used);
  if (more) parts.push(el("section", {class: "area more-area", "data-owner": "table"}, more));
  for (const p of seats.filter((s) => s !== me)) parts.push(playerArea(pic, p, L.player, L.others, hooks, used, false));
  root.append(...parts.filter((x) => x));
}

function playerArea(pic, owner, rows, others, hooks, used, you) {
  // another player's area shows the rows' things that `others:` names (all of them without it)
  const seen = others ? new Set(others.map((i) => i.name)) : null;
  const keep = (row) => seen ? Object.assign({}, row, {items: row.items.filter((i) => seen.has(i.name))}) : row;
  const drawn = (rows || []).map((r) => drawRow(pic, keep(r), owner, hooks, used)).filter((x) => x);
  const sofar = pic.standing && String(owner) in pic.standing
    ? el("span", {class: "counter score-so-far", title: "if the game ended now, counted from what you can see"},
      el("span", {class: "counter-name"}, "score so far"), el("span", {class: "counter-value"}, String(pic.standing[owner])))
    : null;
  return el("section", {class: "area" + (you ? " yours" : ""), "data-owner": playerName(owner)},
    el("h2", {}, playerName(owner) + (you ? " (you)" : ""), sofar ? " " : null, sofar),
    drawn, leftovers(pic, owner, hooks, used));
}

function drawRow(pic, row, owner, hooks, used) {
  if (row.columns) return drawColumns(pic, row, owner, hooks, used);
  const items = row.items.map((it) => drawItem(pic, it, owner, hooks, used)).filter((x) => x);
  return items.length ? el("div", {class: "page-row"}, items) : null;
}

function mine(list, name, owner) { return list.filter((x) => x.name === name && x.owner === owner); }

function drawItem(pic, it, owner, hooks, used) {
  if (it.what === "board") {
    if (owner !== null) return null;
    const bs = pic.boards.filter((b) => b.name === it.name);
    bs.forEach((b) => used.add("board:" + b.name));
    return bs.length ? el("div", {class: "boards"}, bs.map((b) => drawBoard(b, hooks))) : null;
  }
  const list = mine(pic[it.what + "s"], it.name, owner);
  list.forEach((x) => used.add(x.key));
  if (!list.length) return null;
  if (it.what === "grid") return el("div", {class: "boards"}, list.map((g) => drawGrid(g, hooks)));
  if (it.what === "counter") {
    if (it.track && list.length === 1) return drawTrack(list[0], it);
    return drawCounters(list);
  }
  if (list.every((z) => !Object.keys(z.at).length)) return el("div", {class: "zones"}, list.map((z) => drawZone(z, hooks)));
  return el("div", {class: "market", "data-zone": it.name},
    el("div", {class: "zone-name"}, it.title),
    el("div", {class: "slots"}, list.map((z) => drawSlot(z, z.said || Object.values(z.at).join(" "), hooks))));
}

function drawSlot(zone, caption, hooks) {
  // one instance of a zone kept per an enum: what it is kept per above, then its cards (or backs)
  const body = zone.backs ? el("div", {class: "back-count"}, `${zone.count} face down`)
    : drawCards(zone.cards, hooks);
  return el("div", {class: "slot", "data-zone": zone.key, title: zone.label}, el("div", {class: "slot-name"}, caption), body);
}

function drawTrack(c, it) {
  const [lo, hi] = it.track, n = parseInt(c.value, 10);
  const share = isNaN(n) ? 0 : Math.max(0, Math.min(1, (n - lo) / (hi - lo)));
  return el("div", {class: "track", "data-counter": c.key, role: "img", "aria-label": `${c.short}: ${c.value} of ${hi}`},
    el("span", {class: "counter-name"}, c.short),
    el("span", {class: "track-bar"}, el("span", {class: "track-fill", style: `width:${(share * 100).toFixed(1)}%`})),
    el("span", {class: "counter-value"}, `${c.value} / ${hi}`));
}

function drawColumns(pic, row, owner, hooks, used) {
  const at = (x) => x.at && x.at[row.columns];
  const cols = [];
  for (const [n, v] of row.values.entries()) {
    const cells = [];
    let full = false;
    for (const it of row.items) {
      const list = (it.what === "board" ? [] : mine(pic[it.what + "s"], it.name, owner)).filter((x) => at(x) === v);
      list.forEach((x) => used.add(x.key));
      if (!list.length) continue;
      if (it.what === "zone") {
        full = true;
        cells.push(...list.map((z) => z.backs ? el("div", {class: "back-count"}, `${z.short}: ${z.count} face down`)
          : el("div", {class: "zone-cards"}, drawCards(z.cards, hooks))));
      } else if (it.what === "counter") {
        cells.push(it.track ? drawTrack(list[0], it) : drawCounters(list.map((c) => Object.assign({}, c, {part: "", short: it.title}))));
      } else cells.push(...list.map((g) => drawGrid(g, hooks)));
    }
    if (!full && !row.items.every((i) => i.what !== "zone")) continue;  // an empty place: no column
    if (cells.length) cols.push(el("div", {class: "column", "data-column": v}, el("div", {class: "column-name"},
      row.title.split("{" + row.columns + "}").join(row.labels ? row.labels[n] : v)), cells));
  }
  return cols.length ? el("div", {class: "columns"}, cols) : null;
}

function leftovers(pic, owner, hooks, used) {
  // what the layout does not name, drawn the generic way inside a closed box
  const left = (list) => list.filter((x) => x.owner === owner && !used.has(x.key));
  const zones = left(pic.zones), counters = left(pic.counters), grids = left(pic.grids);
  const boards = owner === null ? pic.boards.filter((b) => !used.has("board:" + b.name)) : [];
  const n = zones.length + counters.length + grids.length + boards.length;
  if (!n) return null;
  const what = owner === null ? "More on the table" : "More";
  const box = el("details", {class: "more"}, el("summary", {}, `${what} (${n})`),
    drawCounters(counters),
    boards.length || grids.length ? el("div", {class: "boards"}, boards.map((b) => drawBoard(b, hooks)), grids.map((g) => drawGrid(g, hooks))) : null,
    drawZones(zones, hooks));
  if (box.querySelector(".choosable")) box.open = true;  // something to click for the decision lies there
  return box;
}
