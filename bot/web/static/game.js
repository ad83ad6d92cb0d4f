// A game's page: follows the game live (server-sent events) and steps through its replay
// (buttons, the arrow keys, a round to jump to). No framework: the server sends the HTML's
// pieces ready-made; this only swaps them in.
"use strict";
(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const api = root.dataset.api;
  let data = JSON.parse(document.getElementById("data").textContent);
  let live = data.at === data.steps;
  let asking = 0;

  const $ = (id) => document.getElementById(id);

  function when(el) {
    const t = new Date(el.getAttribute("datetime"));
    if (el.dataset.style === "R") {
      const minutes = Math.round((t - Date.now()) / 60000);
      const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
      const abs = Math.abs(minutes);
      el.textContent = abs < 60 ? rtf.format(minutes, "minute")
        : abs < 2880 ? rtf.format(Math.round(minutes / 60), "hour")
        : rtf.format(Math.round(minutes / 1440), "day");
    } else {
      el.textContent = t.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    }
    el.title = t.toString();
  }

  function render() {
    $("status").innerHTML = data.status;
    $("image").src = data.image;
    $("image").alt = "The table after step " + data.at;
    $("step").textContent = "Step " + data.at + " of " + data.steps + (live ? " (now)" : "");
    $("prev").disabled = $("first").disabled = data.at === 0;
    $("next").disabled = $("live").disabled = data.at === data.steps;
    const select = $("round");
    select.innerHTML = data.rounds
      .map(([r, at]) => '<option value="' + at + '">' + (r ? "Round " + r : "Setup") + "</option>")
      .join("");
    const current = data.rounds.filter(([, at]) => at <= data.at).pop();
    if (current) select.value = String(current[1]);
    $("moves").innerHTML = data.moves
      .slice()
      .reverse()
      .map((m) => '<li data-at="' + m.at + '">' + m.html + "</li>")
      .join("");
    const mine = $("mine-image");
    if (mine && data.mine) mine.src = data.mine.image;
    document.querySelectorAll("#revealed img").forEach((img, i) => {
      if (data.revealed) img.src = data.revealed.seats[i].image;
    });
    document.querySelectorAll("time[data-style]").forEach(when);
    if (data.at < data.steps) new Image().src = api + "/step/" + (data.at + 1) + ".png";
  }

  // Where the page is going: keys pressed faster than the pages come add up.
  let want = data.at;

  async function show(at) {
    want = at === null ? data.steps : at;
    const ask = ++asking;
    const reply = await fetch(api + "/data.json" + (at === null ? "" : "?at=" + at));
    if (ask !== asking) return;
    if (!reply.ok) {
      // Say why the page stands still (too many requests, the server away), then let it retry.
      $("step").textContent = reply.status === 429 ? "Too fast: wait a moment" : "Not reachable now";
      want = data.at;
      return;
    }
    data = await reply.json();
    live = at === null || data.at === data.steps;
    render();
  }

  // A held key asks for the step it ends on, not for each one it passes.
  let pending = 0;
  function step(delta) {
    want = Math.max(0, Math.min(data.steps, want + delta));
    $("step").textContent = "Step " + want + " of " + data.steps + "…";
    clearTimeout(pending);
    pending = setTimeout(() => show(want), 120);
  }
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("live").addEventListener("click", () => show(null));
  $("round").addEventListener("change", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    // Left and right step the replay even from the list of rounds, which keeps the focus once
    // a round is chosen; up, down, Home and End there browse the list.
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.target instanceof HTMLSelectElement) return;
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(null);
    else return;
    e.preventDefault();
  });

  const events = new EventSource(api + "/events");
  events.addEventListener("moved", () => show(live ? null : data.at));
  render();
  setInterval(() => document.querySelectorAll("time[data-style='R']").forEach(when), 30000);
})();
