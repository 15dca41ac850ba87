// One seat's page at a table: live over a WebSocket, hot-seat switching between the seats this
// browser holds, the decision as a prompt with buttons, clicking cards, cells, spaces, and
// placing a piece on a grid (hover previews it, R rotates, F flips, illegal places refuse).
"use strict";

const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const heldKey = "meeple-seats-" + tableId;
let held = JSON.parse(localStorage.getItem(heldKey) || "{}"); // seat name -> token
let token = params.get("token") || Object.values(held)[0] || "";
let socket = null, current = null, orientation = 0, flash = null;
let asked = null; // the step of the latest decision of yours whose arrival brought your area out from under it

function remember(name, tok) {
  held[name] = tok;
  localStorage.setItem(heldKey, JSON.stringify(held));
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return showError("not connected; reload the page");
  socket.send(JSON.stringify(message));
}

function choose(optionId) { send({type: "choose", option: optionId, step: current.decision.step}); }

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error") { showError(msg.message); return; }
    if (msg.type === "table") {
      if (current && current.version > msg.table.version && current.seat === msg.table.seat) return;
      if (current && current.version !== msg.table.version) showError("");
      current = msg.table;
      remember(current.seat_name, token);
      render();
    }
  };
  socket.onclose = () => { document.getElementById("status").textContent = "disconnected: reconnecting…"; setTimeout(connect, 1500); };
}

function switchTo(name) {
  token = held[name];
  history.replaceState(null, "", `/table/${tableId}?token=${encodeURIComponent(token)}`);
  current = null;
  showError("");
  connect();
}

// ------------------------------------------------------------------ placing a piece on a grid
function placementHooks(placement) {
  const orients = placement.orientations;
  if (orientation >= orients.length) orientation = 0;
  const places = {};
  for (const [o, r, c, id] of placement.places) places[`${o},${r},${c}`] = id;
  return {
    grid: placement.grid,
    attach(grid, cells, box) {
      box.classList.add("placing");
      const shape = () => orients[orientation];
      // the hovered cell is the shape's first cell (top row, leftmost), so the piece sits under the pointer
      const origin = (r, c) => { const first = shape().cells[0]; return [r - first[0], c - first[1]]; };
      const clear = () => cells.forEach((x) => {
        x.classList.remove("preview", "ok", "bad");
        x.querySelectorAll(".preview-mark").forEach((m) => m.remove());
      });
      const show = (r, c) => {
        clear();
        const [r0, c0] = origin(r, c);
        const ok = places[`${shape().o},${r0},${c0}`] !== undefined;
        for (const [dr, dc, v] of shape().cells) {
          const rr = r0 + dr, cc = c0 + dc;
          if (rr < 0 || rr >= grid.rows || cc < 0 || cc >= grid.cols) continue;
          const cell = cells[rr * grid.cols + cc];
          cell.classList.add("preview", ok ? "ok" : "bad");
          cell.append(el("span", {class: "preview-mark", style: `background:${colourOf(SYMBOLS, v)}`}, v));
        }
      };
      let last = null;
      cells.forEach((cell) => {
        const r = +cell.dataset.row, c = +cell.dataset.col;
        cell.addEventListener("mouseenter", () => { last = [r, c]; show(r, c); });
        cell.addEventListener("click", () => {
          const [r0, c0] = origin(r, c);
          const id = places[`${shape().o},${r0},${c0}`];
          if (id === undefined) showError(`${placement.piece} cannot go there ${orients[orientation].name} (red: it would not fit or the rules forbid it); try another cell, or R to rotate`);
          else choose(id);
        });
      });
      box.addEventListener("mouseleave", () => { last = null; clear(); });
      window.refreshPreview = () => { if (last) show(last[0], last[1]); };
    },
    rotate() { turn(orients, false); },
    flip() { turn(orients, true); },
  };
}

function turn(orients, flip) {
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
  render();
  if (window.refreshPreview) window.refreshPreview();
}

document.addEventListener("keydown", (ev) => {
  if (!current || !current.decision || !current.decision.placement || ev.target.tagName === "SELECT") return;
  if (ev.key === "r" || ev.key === "R") turn(current.decision.placement.orientations, false);
  if (ev.key === "f" || ev.key === "F") turn(current.decision.placement.orientations, true);
});

// ------------------------------------------------------------------ the page
function render() {
  const t = current;
  document.title = `${t.title} · ${t.seat_name}`;
  document.getElementById("title").textContent = t.title;
  document.getElementById("status").textContent =
    `${t.seat_name} · step ${t.step} · phase ${t.phase} · first player ${t.first}` + (t.over ? " · the game is over" : "");
  const tabs = document.getElementById("seats");
  tabs.replaceChildren(...Object.keys(held).sort().map((n) =>
    el("button", {class: "seat-tab" + (n === t.seat_name ? " active" : ""), onclick: () => switchTo(n)}, n)));
  SYMBOLS = t.symbols || [];  // before the panel draws shapes, so they take the table's colours
  const hooks = {choose, cards: {}, cells: {}, spaces: {}};
  const panel = document.getElementById("decision");
  panel.replaceChildren();
  const d = t.decision;
  if (d && d.mine) {
    for (const o of d.options) {
      if (o.card) hooks.cards[o.card] = o.id;
      if (o.cell) hooks.cells[o.cell[0] + "@" + o.cell[1]] = o.id;
      for (const [key, i] of o.cells || []) {  // a cell in several options' groups picks none of them
        const at = key + "@" + i;
        hooks.cells[at] = at in hooks.cells && hooks.cells[at] !== o.id ? null : o.id;
      }
      if (o.space) hooks.spaces[o.space] = o.id;
    }
    panel.append(el("div", {class: "prompt"}, d.prompt || "Your choice"));
    if (d.placement) {
      hooks.placement = placementHooks(d.placement);
      const o = d.placement.orientations[orientation];
      panel.append(el("div", {class: "placing-help"},
        el("div", {}, `Place ${d.placement.piece}: point at the grid, click to place. `,
          el("kbd", {}, "R"), " rotates, ", el("kbd", {}, "F"), " flips."),
        el("div", {class: "shape-row"}, drawShape(o.cells, 40), el("span", {class: "orientation"}, o.name),
          el("button", {onclick: () => hooks.placement.rotate(), id: "rotate"}, "Rotate (R)"),
          el("button", {onclick: () => hooks.placement.flip(), id: "flip"}, "Flip (F)"))));
      panel.append(el("details", {}, el("summary", {}, `or pick one of the ${d.options.length} places from a list`),
        el("div", {class: "options"}, d.options.map((o) => el("button", {class: "option", "data-option": o.id, title: o.label, onclick: () => choose(o.id)}, o.short || o.label)))));
    } else {
      // a piece's button draws its shape small beside a short label (the label keeps the shape in words)
      const buttons = d.options.map((o) => el("button", {class: "option" + (o.shape ? " piece" : ""), "data-option": o.id,
        title: o.label, onclick: () => choose(o.id)}, o.shape ? [o.short, drawShape(o.shape, 14)] : o.label));
      panel.append(el("div", {class: "options"}, buttons));
      if (Object.keys(hooks.cards).length + Object.keys(hooks.cells).length + Object.keys(hooks.spaces).length)
        panel.append(el("div", {class: "hint"}, "or click a highlighted card, cell or space"));
    }
    if ((d.requests || []).length)  // asked for, not among the options: the rules allow it now
      panel.append(el("div", {class: "requests"}, d.requests.map((o) =>
        el("button", {class: "request", "data-option": o.id, onclick: () => choose(o.id)}, o.label))));
  } else if (d) {
    const mine = held[d.actor_name];
    // a bot seat moves on its own: say so (and show it working), so nobody waits for a person
    const agent = (t.seats[d.actor] || {}).agent;
    const bot = agent && agent !== "person";
    // a bot whose move failed (a rule error) says so, instead of thinking for ever
    const stuck = bot && t.bot_error;
    panel.append(el("div", {class: "waiting" + (bot && !stuck ? " thinking" : ""), id: "waiting"},
      stuck ? `${d.actor_name} (${agent} bot) cannot move: ${t.bot_error}`
        : bot ? `${d.actor_name} (${agent} bot) is thinking…` : `Waiting for ${d.actor_name}…`,
      mine && d.actor_name !== t.seat_name ? el("button", {onclick: () => switchTo(d.actor_name), id: "switch"}, `Switch to ${d.actor_name}`) : null));
  } else {
    // the outcome where the eye already is (the scores' breakdown follows below)
    panel.append(el("div", {class: "waiting over", id: "over"},
      "The game is over" + (t.scores && t.scores.outcome ? `: ${t.scores.outcome}.` : ".")));
  }
  if (t.can_undo) panel.append(el("button", {class: "undo", id: "undo", onclick: () => send({type: "undo"})}, "Undo my placement"));
  const scores = drawScores(t.scores);
  document.getElementById("scores").replaceChildren(...(scores ? [scores] : []));
  drawTable(document.getElementById("table"), t, hooks);
  drawLog(document.getElementById("log"), t.log);
  clearOfDecision(panel, d);
  document.getElementById("seat-list").textContent = t.seats.map((s) => `${s.name}: ${s.agent}`).join(" · ");
}

// The decision panel stays in sight over the table (sticky), so it must not hide what you act on:
// scrolling (and keyboard focus) stops below it, and when a decision of yours arrives while the top
// of your own area is under the panel, the page scrolls just enough to show it.
function clearOfDecision(panel, d) {
  const below = panel.getBoundingClientRect().bottom + 8;
  document.documentElement.style.scrollPaddingTop = `${panel.offsetHeight + 8}px`;
  if (!d || !d.mine || asked === d.step) return;
  asked = d.step;
  const yours = document.querySelector("section.area.yours");
  if (!yours) return;
  const area = yours.getBoundingClientRect();
  if (area.top < below && area.bottom > 0) window.scrollBy(0, area.top - below);
}

if (!token) showError("this page needs a seat link (…?token=…) from the lobby");
else connect();
