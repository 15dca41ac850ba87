// The replay viewer: step through a recorded game, as one seat or the public saw it; or a table at
// this server, live or finished (?table=ID&token=T), only as that link's seat saw it.
"use strict";

const query = new URLSearchParams(location.search);
const tableId = query.get("table"), tableToken = query.get("token") || "";
let replayId = query.get("id"), steps = 0;

function stepUrl(step, seat) {
  return tableId ? `/api/tables/${encodeURIComponent(tableId)}/replay?token=${encodeURIComponent(tableToken)}&step=${step}`
    : `/api/replays/${replayId}?step=${step}&seat=${seat}`;
}
let asked = 0;  // the latest step asked for: a reply to an older one is dropped

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

async function show(step, toEnd) {
  const seat = document.getElementById("seat").value;
  // The slider moves at once, so that clicks faster than the server count from the step
  // asked for, not from the last one shown (three quick "next" clicks are three steps).
  document.getElementById("step").value = step;
  const mine = ++asked;
  const reply = await fetch(stepUrl(step, seat));
  const page = await reply.json();
  if (mine !== asked) return;
  if (!reply.ok) return showError(page.error);
  if (toEnd && page.steps > page.step) return show(page.steps, true);  // a live table went on meanwhile
  showError("");
  NAMES = page.names || [];
  steps = page.steps;  // a live table's game goes on: its length as it is now
  document.getElementById("step").max = steps;
  document.getElementById("title").textContent = page.title;
  // in a player's words: how far into the game, whose view, the part of the game, a seed if known
  const who = page.seat === null ? "the public" : playerName(page.seat);
  document.getElementById("status").textContent = [
    page.step ? `after decision ${page.step} of ${page.steps}` : `before the first of ${page.steps} decisions`,
    `as ${who} saw it`, page.part ? page.part[0].toUpperCase() + page.part.slice(1) : null,
    page.seed !== null && page.seed !== undefined ? `seed ${page.seed}` : null].filter(Boolean).join(" · ");
  document.getElementById("step").value = page.step;
  document.getElementById("taken").textContent = page.taken || "after setup";
  drawTable(document.getElementById("table"), page, {});
  drawLog(document.getElementById("log"), page.log);
  const scores = drawScores(page.scores);
  document.getElementById("scores").replaceChildren(...(scores ? [scores] : []));
}

function open(id, count, players) {
  replayId = id; steps = count;
  history.replaceState(null, "", "/replay?id=" + id);
  document.getElementById("controls").hidden = false;
  const range = document.getElementById("step");
  range.max = steps;
  const seat = document.getElementById("seat");
  seat.replaceChildren(el("option", {value: "public"}, "the public"),
    ...Array.from({length: players}, (_, p) => el("option", {value: p + 1}, playerName(p))));
  show(0);
}

const at = () => +document.getElementById("step").value;
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(Math.max(0, at() - 1));
document.getElementById("next").onclick = () => show(Math.min(steps, at() + 1));
document.getElementById("last").onclick = () => show(steps, true);
document.getElementById("step").oninput = () => show(at());
document.getElementById("seat").onchange = () => show(at());
document.addEventListener("keydown", (ev) => {
  if (!replayId || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
  if (ev.key === "ArrowRight") show(Math.min(steps, at() + 1));
  if (ev.key === "ArrowLeft") show(Math.max(0, at() - 1));
});

document.getElementById("upload").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  const reply = await fetch("/api/replays", {method: "POST", body: await file.text()});
  const data = await reply.json();
  if (!reply.ok) return showError(data.error);
  await list();
  open(data.id, data.steps, data.players);
});

async function list() {
  const data = await fetch("/api/replays").then((r) => r.json());
  document.getElementById("replay-list").replaceChildren(...data.replays.map((r) =>
    el("button", {class: "option", "data-replay": r.id, onclick: () => open(r.id, r.steps, r.players)},
      `${r.title}: ${r.steps} steps`)));
  return data.replays;
}

async function openTable() {
  // a table's own game: only the link's seat's view, so the seat picker shows just that one
  const reply = await fetch(stepUrl(0));
  const page = await reply.json();
  if (!reply.ok) return showError(page.error);
  document.getElementById("pick").hidden = true;
  document.getElementById("controls").hidden = false;
  NAMES = page.names || [];
  document.getElementById("seat").replaceChildren(el("option", {value: "own"},
    page.seat === null ? "the public" : playerName(page.seat)));
  document.getElementById("seat").disabled = true;
  replayId = "table";
  document.getElementById("back-to-table").href = `/table/${encodeURIComponent(tableId)}?token=${encodeURIComponent(tableToken)}`;
  document.getElementById("back-to-table").hidden = false;
  show(page.steps, true);  // where the game is now; step back from there
}

if (tableId) openTable();
else list().then((replays) => {
  const r = replays.find((x) => x.id === replayId) || (replays.length === 1 && !replayId ? replays[0] : null);
  if (r) open(r.id, r.steps, r.players);
});
