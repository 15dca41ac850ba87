// What changed since a seat last looked: the views it was shown are compared (cards come into
// zones, counters change, grid cells fill, pawns move), the changed things are outlined on the
// table (with a short pulse, none when the reader prefers reduced motion), and the new log lines
// are summarised above the decision and announced to screen readers. "Last looked" is the last
// view shown while the page was in sight: a page in a background tab keeps its old view as the
// base, so coming back shows everything that happened meanwhile. Only whole views are compared,
// so a view rebuilt from patches works the same.
"use strict";

let looked = {};  // seat name -> {view: the view last shown in sight, before: the one shown before it}

function sinceLooked(t) {
  // the changes to outline for this view, or null on a seat's first view
  const seen = looked[t.seat_name];
  if (!seen) {
    if (!document.hidden) looked[t.seat_name] = {view: t, before: null};
    return null;
  }
  if (seen.view.version === t.version) return seen.before ? changesSince(seen.before, t) : null;
  if (!document.hidden) looked[t.seat_name] = {view: t, before: seen.view};
  return changesSince(seen.view, t);
}

function changesSince(before, now) {
  const out = {cards: new Set(), zones: new Set(), counters: new Set(), groups: new Set(), cells: new Set(), spaces: new Set(),
    lines: newLines(before.log || [], now.log || [])};
  const held = {};
  for (const z of before.zones || []) held[z.key] = z;
  for (const z of now.zones || []) {
    const was = held[z.key];
    if (z.cards) {
      const had = new Set(was && was.cards ? was.cards.map((c) => c.id) : []);
      for (const c of z.cards) if (!had.has(c.id)) out.cards.add(z.key + "|" + c.id);
    } else if (!was || was.count !== z.count) out.zones.add(z.key);
  }
  const values = {};
  for (const c of before.counters || []) values[c.key] = c.value;
  for (const c of now.counters || []) {
    if (values[c.key] === c.value) continue;
    out.counters.add(c.key);
    out.groups.add(`${c.name}@${c.owner}`);  // a counter kept per many things is one chip of its name
  }
  const grids = {};
  for (const g of before.grids || []) grids[g.key] = g.cells;
  for (const g of now.grids || []) g.cells.forEach((v, i) => {
    if ((grids[g.key] || [])[i] !== v) out.cells.add(g.key + "@" + i);
  });
  const who = {};
  for (const b of before.boards || []) for (const s of b.spaces) who[b.name + "/" + s.name] = s.who.join(",");
  for (const b of now.boards || []) for (const s of b.spaces) {
    if ((who[b.name + "/" + s.name] || "") !== s.who.join(",")) out.spaces.add(s.name);
  }
  return out;
}

function newLines(before, now) {
  // the log keeps its latest lines only: find where the old log's last line sits in the new one
  // (and the two lines before it, so a line said twice is not taken for the other)
  if (!before.length) return now.slice();
  const tail = before.slice(-3);
  for (let i = now.length - 1; i >= tail.length - 1; i--) {
    if (tail.every((line, k) => now[i - (tail.length - 1) + k] === line)) return now.slice(i + 1);
  }
  return now.slice();
}

function markChanges(root, ch) {
  if (!ch) return 0;
  const mark = (node) => { node.classList.add("changed"); n++; };
  let n = 0;
  for (const key of ch.cards) {
    const [zone, id] = key.split("|");
    root.querySelectorAll(`[data-zone="${CSS.escape(zone)}"] [data-cards~="${CSS.escape(id)}"]`).forEach(mark);
  }
  for (const key of ch.zones) root.querySelectorAll(`[data-zone="${CSS.escape(key)}"]`).forEach(mark);
  for (const key of ch.counters) root.querySelectorAll(`[data-counter="${CSS.escape(key)}"]`).forEach(mark);
  for (const key of ch.groups) root.querySelectorAll(`[data-group="${CSS.escape(key)}"]`).forEach(mark);
  for (const key of ch.cells) {
    const at = key.lastIndexOf("@");
    root.querySelectorAll(`[data-grid="${CSS.escape(key.slice(0, at))}"] [data-index="${key.slice(at + 1)}"]`).forEach(mark);
  }
  for (const s of ch.spaces) root.querySelectorAll(`[data-space="${CSS.escape(s)}"]`).forEach(mark);
  return n;
}

function changeSummary(ch, marked, since) {
  // above the decision: what changed since this seat's last decision, as the server folds it in
  // the game's words (the rules' sentences, then each thing changed: pages.since_words); a
  // spectator, or a seat before its first decision, reads the choices made since it last looked
  if (since) {
    if (!since.length) return null;
    return el("div", {class: "since", id: "since"},
      el("strong", {}, "Since your last decision: "), since.join(" · "),
      marked ? el("span", {class: "since-marked"}, ` — ${marked} ${marked === 1 ? "thing" : "things"} outlined on the table`) : "");
  }
  if (!ch || !ch.lines.length) return null;
  const choices = ch.lines.filter((l) => !l.startsWith("  ")).map((l) => l.trim());
  const shown = choices.slice(-4);
  return el("div", {class: "since", id: "since"},
    el("strong", {}, "Since you last looked: "),
    shown.length ? shown.join(" · ") : ch.lines.map((l) => l.trim()).slice(-2).join(" · "),
    choices.length > shown.length ? ` (and ${choices.length - shown.length} more in the log)` : "",
    marked ? el("span", {class: "since-marked"}, ` — ${marked} ${marked === 1 ? "thing" : "things"} outlined on the table`) : "");
}

function announce(ch) {
  // the live region says each move as it comes (not the whole log on a page's first view)
  const box = document.getElementById("announce");
  if (!box || !ch || !ch.lines.length) return;
  box.textContent = ch.lines.filter((l) => !l.startsWith("  ")).map((l) => l.trim()).join(". ")
    || ch.lines.map((l) => l.trim()).join(". ");
}
