// One seat's page at a table: live over a WebSocket, hot-seat switching between the seats this
// browser holds (behind a "pass the device" screen), the decision as a prompt with buttons,
// clicking cards, cells and spaces, placing a piece on a grid (place.js), and the connection's
// state said in a banner that stays in sight.
"use strict";

const tableId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const heldKey = "meeple-seats-" + tableId;
let held = JSON.parse(localStorage.getItem(heldKey) || "{}"); // seat name -> token
let token = params.get("token") || Object.values(held)[0] || "";
let socket = null, current = null, hooks = {};
let online = false, retry = 1000;  // online: the socket is open and has sent the table at least once
let announced = {};  // the changes last said in the live region (a redraw of the same view says nothing)
let asked = null; // the step of the latest decision of yours whose arrival brought your area out from under it
const GONE = [4403, 4404];  // close codes after which asking again cannot help (app.py)

function remember(name, tok) {
  held[name] = tok;
  localStorage.setItem(heldKey, JSON.stringify(held));
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

// The connection's state: a banner fixed at the bottom of the window (it cannot scroll away),
// and the decision panel greyed while the table cannot hear this page.
function showConnection(message, refused) {
  const banner = document.getElementById("connection");
  banner.textContent = message;
  banner.hidden = !message;
  banner.classList.toggle("refused", !!refused);
  document.getElementById("decision").classList.toggle("offline", !online);
  document.getElementById("decision").setAttribute("aria-disabled", online ? "false" : "true");
}

function send(message) {
  // a choice made while the connection is down is refused where the eye is, never dropped silently:
  // sent later it could land on a table that has moved on
  if (!online || !socket || socket.readyState !== WebSocket.OPEN)
    return showConnection("Not sent: the connection to the table is lost. Reconnecting… choose again when this banner goes.", true);
  socket.send(JSON.stringify(message));
}

function choose(optionId) { send({type: "choose", option: optionId, step: current.decision.step}); }

// a seat's key (P1, the tabs' and the browser's) as the page says it: the player's name once given
function said(key) {
  const s = current && current.seats.find((x) => x.name === key);
  return s ? s.said : key;
}

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const here = new WebSocket(`${scheme}://${location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  let refusal = null;
  socket = here;
  let received = null, seq = 0;  // the last picture as the server sent it, and its patches since (patch.js)
  here.onmessage = (ev) => {
    let msg = JSON.parse(ev.data);
    if (msg.type === "error") { refusal = msg.message; showError(msg.message); return; }
    if (msg.type === "patch") {
      // a patch missed (never, on one socket; a bug otherwise): reconnect, which sends the whole picture
      if (!received || msg.seq !== seq + 1) { here.close(); return; }
      seq = msg.seq;
      received = applyPatch(received, msg.ops);
      msg = {type: "table", table: structuredClone(received)};
    } else if (msg.type === "table") {
      received = structuredClone(msg.table);
      seq = msg.seq || 0;
    }
    if (msg.type === "table") {
      if (!online) { online = true; retry = 1000; showConnection(""); }
      if (current && current.version > msg.table.version && current.seat === msg.table.seat) return;
      if (current && current.version !== msg.table.version) showError("");
      current = msg.table;
      remember(current.seat_name, token);
      render();
    }
  };
  here.onclose = (ev) => {
    online = false;
    if (GONE.includes(ev.code)) return gone(refusal || "This link does not open this table.");
    showConnection("Connection lost: reconnecting… Your choices cannot be sent until it is back.");
    retry = Math.min(retry * 1.5, 8000);
    setTimeout(connect, retry);
  };
}

function gone(message) {
  // the link cannot work (no such table, a wrong token): say so instead of asking again for ever
  showConnection("");
  showError("");
  document.getElementById("page").replaceChildren(el("div", {class: "refused", id: "refused"},
    el("h1", {}, "This link does not open a table"), el("p", {}, message),
    el("p", {}, el("a", {href: "/"}, "Start a table"), " or ask for your seat's link again.")));
}

// Hot-seat: the next person must see neither the seat being left nor their own before they sit
// down, so the page is emptied and the socket closed until they say they are ready.
function passTo(name) {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  online = false;
  for (const id of ["decision", "scores", "table", "log", "seat-list", "status", "seats"])
    document.getElementById(id).replaceChildren();
  showError("");
  showConnection("");
  const who = said(name);
  current = null;
  document.title = `Pass to ${who}`;
  document.getElementById("pass-to").textContent = `Pass the device to ${who}`;
  const ready = document.getElementById("pass-ready");
  ready.textContent = `I am ${who}: show my seat`;
  ready.onclick = () => { document.getElementById("pass").hidden = true; switchTo(name); };
  document.getElementById("page").hidden = true;
  document.getElementById("pass").hidden = false;
  ready.focus();
}

function switchTo(name) {
  token = held[name];
  history.replaceState(null, "", `/table/${tableId}?token=${encodeURIComponent(token)}`);
  current = null;
  showError("");
  document.getElementById("page").hidden = false;
  connect();
}

document.addEventListener("keydown", (ev) => {
  const d = current && current.decision;
  if (!d || !d.placement || !hooks.placement || ["SELECT", "INPUT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (ev.key === "r" || ev.key === "R") hooks.placement.rotate();
  if (ev.key === "f" || ev.key === "F") hooks.placement.flip();
  if (ev.key === "Enter" && pinnedHere(d.step) && ev.target.tagName !== "BUTTON") { ev.preventDefault(); hooks.placement.confirm(); }
  if (ev.key === "Escape" && pinnedHere(d.step)) hooks.placement.cancel();
});

// ------------------------------------------------------------------ the page
function favicon(yours) {
  // the tab's icon: a bright dot with a ring while a decision of yours waits, a grey dot otherwise
  const dot = yours ? "<circle cx='8' cy='8' r='7' fill='%23e07a00'/><circle cx='8' cy='8' r='3' fill='white'/>"
    : "<circle cx='8' cy='8' r='6' fill='%2399a'/>";
  document.getElementById("favicon").href = `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>${dot}</svg>`;
}

function focusKey() {
  // what has the keyboard's focus, said so that the same thing can take it back once redrawn
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  if (a.id) return "#" + CSS.escape(a.id);
  const grid = a.closest("[data-grid]");
  if (grid && a.dataset.index !== undefined) return `[data-grid="${CSS.escape(grid.dataset.grid)}"] [data-index="${a.dataset.index}"]`;
  for (const k of ["card", "space", "option"]) if (a.dataset && a.dataset[k]) return `[data-${k}="${CSS.escape(a.dataset[k])}"]`;
  return null;
}

function refocus(key) {
  const node = key && document.querySelector(key);
  if (!node) return;
  const grid = node.closest("[data-grid]");
  if (grid && node.dataset.index !== undefined) {  // the grid's one tab stop moves to it
    grid.querySelectorAll("[data-index]").forEach((c) => c.setAttribute("tabindex", "-1"));
    node.setAttribute("tabindex", "0");
  }
  node.focus({preventScroll: true});
}

function render() {
  const t = current;
  const d = t.decision;
  const keep = focusKey();
  const ch = sinceLooked(t);
  // the tab says when it is your turn, so a player in another tab or window sees it
  NAMES = t.names || [];
  document.title = (d && d.mine ? "● Your turn — " : "") + `${t.title} · ${said(t.seat_name)}`;
  favicon(d && d.mine);
  document.getElementById("title").textContent = t.title;
  drawStatus(t);
  const tabs = document.getElementById("seats");
  tabs.replaceChildren(...Object.keys(held).sort().map((n) =>
    el("button", {class: "seat-tab" + (n === t.seat_name ? " active" : ""), "aria-pressed": n === t.seat_name ? "true" : "false",
      onclick: () => { if (n !== t.seat_name) passTo(n); }}, said(n))));
  SYMBOLS = t.symbols || [];  // before the panel draws shapes, so they take the table's colours
  useColours(t);
  hooks = {choose, cards: {}, cells: {}, spaces: {}};
  const panel = document.getElementById("decision");
  panel.replaceChildren();
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
      hooks.placement = placementHooks(d.placement, d.step, choose, showError, render);
      panel.append(...placementPanel(d, hooks.placement, choose));
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
    const who = said(d.actor_name);
    panel.append(el("div", {class: "waiting" + (bot && !stuck ? " thinking" : ""), id: "waiting"},
      t.conceded ? "You conceded: a bot plays your seat to the end. " : null,
      stuck ? `${who} (${agent} bot) cannot move: ${t.bot_error}`
        : bot ? `${who} (${agent} bot) is thinking…` : `Waiting for ${who}…`,
      mine && d.actor_name !== t.seat_name ? el("button", {onclick: () => passTo(d.actor_name), id: "switch"}, `Switch to ${who}`) : null));
  } else {
    // the outcome where the eye already is (the scores' breakdown follows below)
    panel.append(el("div", {class: "waiting over", id: "over"},
      "The game is over" + (t.scores && t.scores.outcome ? `: ${t.scores.outcome}.` : ".")));
  }
  panel.append(...rematchOffer(t));
  if (t.can_undo) panel.append(el("button", {class: "undo", id: "undo", onclick: () => send({type: "undo"})}, "Undo my placement"));
  const scores = drawScores(t.scores);
  document.getElementById("scores").replaceChildren(...(scores ? [scores] : []));
  drawTable(document.getElementById("table"), t, hooks);
  const summary = changeSummary(ch, markChanges(document.getElementById("table"), ch), t.since);
  if (summary) panel.prepend(summary);
  if (ch && ch !== announced.ch && t.version !== announced.version) { announce(ch); announced = {ch, version: t.version}; }
  drawLog(document.getElementById("log"), t.log);
  clearOfDecision(panel, d);
  refocus(keep);
  drawPlayers(t);
}

// The players: each seat's name and who plays it; your own row names you (a form while you have no
// name) and offers to concede, in two steps so that a slip of the finger does not end your game.
function drawPlayers(t) {
  const rows = t.seats.map((s, p) => el("li", {class: "player" + (p === t.seat ? " me" : ""), "data-seat": s.name},
    el("strong", {}, s.said), s.said !== s.name ? ` (${s.name})` : null, ": ",
    s.conceded ? `conceded, a bot (${s.agent}) plays on` : s.agent === "person" ? "a person" : `bot ${s.agent}`));
  const box = [el("h2", {}, "Players"), el("ul", {class: "players"}, rows)];
  if (t.seat !== null && !t.named) {
    const input = el("input", {id: "my-name", maxlength: 24, placeholder: said(t.seat_name), "aria-label": "your name", autocomplete: "nickname"});
    box.push(el("form", {id: "name-form", class: "name-form", onsubmit: (ev) => { ev.preventDefault(); send({type: "name", name: input.value}); }},
      el("label", {for: "my-name"}, "Your name "), input, el("button", {type: "submit", id: "save-name"}, "Save")));
  }
  if (t.can_concede) {
    const ask = el("button", {id: "concede", class: "concede"}, "Concede…");
    const sure = el("span", {id: "concede-sure", hidden: true}, "A bot plays your seat to the end and you place last. ",
      el("button", {id: "concede-yes", class: "concede", onclick: () => send({type: "concede"})}, "Yes, concede"), " ",
      el("button", {id: "concede-no", onclick: () => { sure.hidden = true; ask.hidden = false; }}, "No, play on"));
    ask.onclick = () => { ask.hidden = true; sure.hidden = false; document.getElementById("concede-yes").focus(); };
    box.push(el("div", {class: "concede-box"}, ask, sure));
  }
  box.push(el("p", {class: "hint"}, el("a", {id: "replay-link", target: "_blank",
    href: `/replay?table=${encodeURIComponent(tableId)}&token=${encodeURIComponent(token)}`}, "Step through this game so far")));
  document.getElementById("seat-list").replaceChildren(...box);
}

// Once the game is over (or a seat conceded): a rematch with the same seats and names and the next
// seed; once anyone asks, every seat's page links to its own seat at the new table.
function rematchOffer(t) {
  if (t.rematch) return [el("p", {class: "rematch"}, el("a", {href: t.rematch, id: "rematch-link", class: "big-link",
    onclick: (ev) => { ev.preventDefault(); goToRematch(t); }}, "Go to the rematch →"))];
  if (t.can_rematch) return [el("button", {id: "rematch", class: "rematch", onclick: () => send({type: "rematch"})},
    "Rematch: same seats and names, next seed")];
  return [];
}

async function goToRematch(t) {
  // hot-seat: every seat this browser holds is taken to the new table, each with its own new link
  const next = new URL(t.rematch, location.href);
  const id = next.pathname.split("/").pop(), seats = {};
  for (const [name, tok] of Object.entries(held)) {
    const reply = await fetch(`/api/tables/${tableId}?token=${encodeURIComponent(tok)}`).then((r) => r.ok ? r.json() : null).catch(() => null);
    if (reply && reply.rematch && reply.seat !== null) seats[name] = new URL(reply.rematch, location.href).searchParams.get("token");
  }
  if (Object.keys(seats).length) localStorage.setItem("meeple-seats-" + id, JSON.stringify(seats));
  location.href = next.href;
}

// The header in a player's words: who you are, whose turn it is, who started (labelled so that it
// is not read as whose turn), and a seed chosen when the table was made (so nobody is surprised
// that its chooser could foresee the draws). Steps and phase names are the engine's: not here.
function drawStatus(t) {
  const d = t.decision;
  const turn = !d ? "the game is over" : d.mine ? "your turn" : `${said(d.actor_name)}'s turn`;
  const part = t.part ? t.part[0].toUpperCase() + t.part.slice(1) : "";
  document.getElementById("status").replaceChildren(...[
    part ? [el("span", {id: "part"}, part), " · "] : [],
    el("span", {id: "you"}, t.seat === null ? "watching" : `you are ${said(t.seat_name)}`),
    // a seat without a name: the form is under Players (below the table on a phone), one tap away
    t.seat !== null && !t.named ? [" (", el("a", {href: "#my-name", id: "name-me"}, "give your name"), ")"] : [], " · ",
    el("strong", {id: "turn", class: d && d.mine ? "yours" : null}, turn), " · ",
    el("span", {id: "first", title: "the player the rules name first (they began the turn order), not whose turn it is"},
      `start player: ${t.first}`),
    t.seed !== null && t.seed !== undefined ? [" · ", el("span", {id: "seed", class: "seed",
      title: "The seed was set when the table was made: whoever knows it can foresee every shuffle and draw."},
    `seed ${t.seed}, set in the lobby: its draws can be foreseen`)] : []].flat());
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

// coming back to the page (another tab, the phone woken): what changed meanwhile is shown
document.addEventListener("visibilitychange", () => { if (!document.hidden && current) render(); });

if (!token) showError("this page needs a seat link (…?token=…) from the lobby");
else connect();
