// The replay viewer: step through a recorded game, as one seat or the public saw it.
"use strict";

const query = new URLSearchParams(location.search);
let replayId = query.get("id"), steps = 0;
let asked = 0;  // the latest step asked for: a reply to an older one is dropped

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

async function show(step) {
  const seat = document.getElementById("seat").value;
  // The slider moves at once, so that clicks faster than the server count from the step
  // asked for, not from the last one shown (three quick "next" clicks are three steps).
  document.getElementById("step").value = step;
  const mine = ++asked;
  const reply = await fetch(`/api/replays/${replayId}?step=${step}&seat=${seat}`);
  const page = await reply.json();
  if (mine !== asked) return;
  if (!reply.ok) return showError(page.error);
  showError("");
  document.getElementById("title").textContent = page.title;
  document.getElementById("status").textContent =
    `step ${page.step} of ${page.steps} · as ${page.seat_name} sees it · phase ${page.phase} · seed ${page.seed}`;
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
document.getElementById("last").onclick = () => show(steps);
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

list().then((replays) => {
  const r = replays.find((x) => x.id === replayId) || (replays.length === 1 && !replayId ? replays[0] : null);
  if (r) open(r.id, r.steps, r.players);
});
