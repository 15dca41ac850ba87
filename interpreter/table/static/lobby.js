// The lobby: pick a game, players, options, variants, who sits where and their names; create the
// table and get one private link per person's seat plus a spectator link. The creator's token is
// kept in this browser, so the tables made here can show their links again.
"use strict";

let games = [], bots = [];
const CREATED = "meeple-created";  // table id -> the creator's token, in this browser only
const created = () => JSON.parse(localStorage.getItem(CREATED) || "{}");
function keepCreated(id, tok) { localStorage.setItem(CREATED, JSON.stringify(Object.assign(created(), {[id]: tok}))); }

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

function selected() { return games.find((g) => g.name === document.getElementById("game").value); }

function drawSeats() {
  const n = +document.getElementById("players").value;
  const box = document.getElementById("seat-choices");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const named = [...box.querySelectorAll("input.seat-name")].map((s) => s.value);
  box.replaceChildren(el("legend", {}, "Seats"));
  for (let p = 0; p < n; p++) {
    const choice = before[p] || (p === 0 ? "person" : "random");
    const seat = el("select", {name: "seat", id: "seat-" + (p + 1), "aria-label": `who plays ${playerName(p)}`},
      ["person", ...bots].map((b) => el("option", {value: b, selected: b === choice}, b === "person" ? "a person" : "bot: " + b)));
    // a name is optional: the person may give it when they open their link
    const name = el("input", {class: "seat-name", id: "name-" + (p + 1), maxlength: 24, value: named[p] || "",
      placeholder: "name (optional)", "aria-label": `${playerName(p)}'s name`, hidden: choice !== "person"});
    seat.addEventListener("change", () => { name.hidden = seat.value !== "person"; });
    box.append(el("div", {class: "seat-row"}, el("span", {class: "seat-key"}, playerName(p)), seat, name));
  }
}

function drawGame() {
  const g = selected();
  const players = document.getElementById("players");
  players.min = g.min_players; players.max = g.max_players;
  players.value = Math.min(g.max_players, Math.max(g.min_players, +players.value || 2));
  const opts = document.getElementById("options");
  opts.replaceChildren(el("legend", {}, "Options"), ...g.options.map((o) =>
    el("label", {title: o.doc}, o.name + " ", el("select", {"data-option": o.name}, o.values.map((v) => el("option", {value: v}, v))),
      el("span", {class: "hint"}, " " + o.doc))));
  if (!g.options.length) opts.append(el("span", {class: "hint"}, "none"));
  const vars = document.getElementById("variants");
  vars.replaceChildren(el("legend", {}, "Variants"), ...g.variants.map((v) =>
    el("label", {}, el("input", {type: "checkbox", "data-variant": v.name}), " " + v.title)));
  if (!g.variants.length) vars.append(el("span", {class: "hint"}, "none"));
  drawSeats();
}

// A seat's link is sent to its person: one button copies it whole. The clipboard API needs a secure
// page (https or localhost); elsewhere the link is put in a selected field to copy by hand.
function copyButton(link, what) {
  const url = new URL(link, location.href).href;
  const button = el("button", {type: "button", class: "copy", "data-link": url, "aria-label": `Copy link: ${what}`}, "Copy link");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = "Copied ✓";
    } catch (err) {
      const field = el("input", {class: "link-text", readonly: true, value: url, "aria-label": what});
      button.replaceWith(field);
      field.select();
      showError("Could not reach the clipboard here: the link is selected, copy it with Ctrl+C (or long-press on a phone).");
    }
  });
  return button;
}

function seatSaid(agent, name, i) {
  // a seat in the list of tables: its player's name when given ("Ann"), else "P1 a person" or "P2 bot greedy"
  if (agent === "person") return name || `${playerName(i)} a person`;
  return `${name || playerName(i)} bot ${agent}`;
}

function titleOf(name) {
  const g = games.find((x) => x.name === name);
  return g ? g.title : name;
}

async function drawTables() {
  const reply = await fetch("/api/tables").then((r) => r.json());
  const list = document.getElementById("table-list");
  const mine = created();
  for (const t of reply.tables.slice().reverse())  // a rematch of a table made here was made by its creator too
    if (t.next && mine[t.id] && !mine[t.next]) { keepCreated(t.next, mine[t.id]); mine[t.next] = mine[t.id]; }
  list.replaceChildren(...reply.tables.map((t) => el("li", {class: "open-table", "data-table": t.id},
    el("a", {href: t.watch, target: "_blank"}, `${titleOf(t.game)}, ${t.players} players`), " ",
    el("span", {class: "hint"}, t.seats.map((s, i) => seatSaid(s, (t.names || [])[i], i)).join(", ")
      + ` - ${t.decisions} decision${t.decisions === 1 ? "" : "s"}` + (t.over ? " - finished" : "")),
    mine[t.id] ? [" ", el("button", {type: "button", class: "again", "data-again": t.id, onclick: () => linksAgain(t.id, mine[t.id])},
      "Your links")] : null)));
  if (!reply.tables.length) list.append(el("li", {class: "hint"}, "none yet"));
}

// The links of a table made in this browser, asked again with its creator's token
async function linksAgain(id, tok) {
  const reply = await fetch(`/api/tables/${id}/links?token=${encodeURIComponent(tok)}`);
  const data = await reply.json();
  if (!reply.ok) return showError(data.error);
  showError("");
  showLinks(data, null);
}

function showLinks(data, seed) {
  const list = document.getElementById("link-list");
  list.replaceChildren(...data.seats.map((s) => {
    const who = s.said !== s.name ? `${s.said} (${s.name})` : s.name;
    return el("li", {}, s.link
      ? [el("a", {href: s.link, target: "_blank", class: "seat-link"}, `${who}'s seat`), copyButton(s.link, `${who}'s link`)]
      : `${who}: bot ${s.agent}`);
  }),
  el("li", {}, el("a", {href: data.spectator, target: "_blank", id: "spectator-link"}, "spectator (sees only what is public)"),
    copyButton(data.spectator, "the spectator link")));
  if (data.creator) {  // for the creator's other browsers: this page with the table's links again
    const mine = `/?table=${encodeURIComponent(data.id)}&creator=${encodeURIComponent(data.creator)}`;
    list.append(el("li", {class: "hint", id: "creator-link"}, "Your own link to these links, from any browser (keep it to yourself) ",
      copyButton(mine, "your link to these links")));
  }
  if (seed !== null && seed !== "")  // nobody should be surprised that whoever chose the seed could foresee the draws
    list.append(el("li", {class: "hint", id: "seed-said"}, `Seed ${seed} is set: every seat's page shows it.`));
  document.getElementById("links-of").textContent = data.id;
  const people = data.seats.filter((s) => s.link);
  const hot = document.getElementById("hot-seat");
  hot.hidden = people.length === 0;
  hot.onclick = () => {
    const held = {};
    for (const s of people) held[s.name] = new URL(s.link, location.href).searchParams.get("token");
    localStorage.setItem("meeple-seats-" + data.id, JSON.stringify(held));
    location.href = people[0].link;
  };
  document.getElementById("links").hidden = false;
}

async function start() {
  const reply = await fetch("/api/games").then((r) => r.json());
  games = reply.games.filter((g) => !g.error);
  bots = reply.bots;
  const pick = document.getElementById("game");
  pick.replaceChildren(...games.map((g) => el("option", {value: g.name}, `${g.title} (${g.min_players}-${g.max_players} players)`)));
  pick.addEventListener("change", drawGame);
  document.getElementById("players").addEventListener("change", drawSeats);
  drawGame();
  const asked = new URLSearchParams(location.search);
  if (asked.get("table") && asked.get("creator")) {  // the creator's own link: this browser keeps the token too
    keepCreated(asked.get("table"), asked.get("creator"));
    history.replaceState(null, "", "/");
    await linksAgain(asked.get("table"), asked.get("creator"));
  }
  drawTables();
}

document.getElementById("new-table").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const options = {};
  document.querySelectorAll("[data-option]").forEach((s) => { options[s.dataset.option] = s.value; });
  const body = {
    game: document.getElementById("game").value,
    players: +document.getElementById("players").value,
    options,
    variants: [...document.querySelectorAll("[data-variant]")].filter((c) => c.checked).map((c) => c.dataset.variant),
    seats: [...document.querySelectorAll("#seat-choices select")].map((s) => s.value),
    names: [...document.querySelectorAll("#seat-choices input.seat-name")].map((s) => s.hidden ? "" : s.value.trim()),
  };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = +seed;
  const reply = await fetch("/api/tables", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const data = await reply.json();
  if (!reply.ok) return showError(data.error);
  showError("");
  keepCreated(data.id, data.creator);
  showLinks(data, seed);
  drawTables();
});

start();
