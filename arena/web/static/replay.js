// The replay viewer of a match page: draws the board from its layout as SVG and steps
// through the frames of /api/matches/{id}/frames (play, pause, step, a timeline slider, jump
// to a turn, speed), the event log in sync. What it draws of each step comes from the frame
// alone, the same way for every game (see arena/web/frames.py): each territory's owner,
// count, units and badges (frame.regions), the arrows with their labels (frame.arrows), the
// side panel (frame.panel), and who each side is and its colour (the first frame's legend).
// The page opens at ?step=N and keeps the URL on the step shown (while paused), so a
// position can be linked. Every territory element carries data-territory, data-owner and
// data-armies (and data-units="SIDE:n,n,...;..." for the units present, data-badges),
// every arrow data-from and data-to, and #step shows the current step, so a browser test
// can compare the map with the engine.
"use strict";
(function () {
  const viewer = document.getElementById("viewer");
  if (!viewer) return;
  const SVG = "http://www.w3.org/2000/svg";
  const layout = JSON.parse(document.getElementById("layout").textContent);
  const matchId = viewer.dataset.match;
  const total = Number(viewer.dataset.frames);
  const $ = (id) => document.getElementById(id);
  const map = $("map"), log = $("log"), stepShown = $("step"), slider = $("slider");
  const frames = [];
  const nodes = [];
  const sides = {};  // side → {name, colour}, from the first frame's legend
  let attackLayer = null;
  const entries = [];
  let step = 0;
  let timer = null;

  function colour(side) {
    const name = "--" + (sides[side] ? sides[side].colour : "unclaimed");
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#ccc";
  }

  function who(side) {
    return sides[side] ? sides[side].name : "side " + side;
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function drawBoard() {
    if (!layout) { map.hidden = true; return; }
    map.setAttribute("viewBox", "0 0 " + layout.width + " " + layout.height);
    const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, el("defs", {}, map));
    el("path", { d: "M 0 0 L 10 5 L 0 10 z" }, marker);
    const at = {};
    for (const t of layout.territories) at[t.id] = t;
    const lines = el("g", { class: "links" }, map);
    for (const [a, b] of layout.links || []) {
      if ((layout.wrap || []).some(([x, y]) => x === a && y === b)) continue;
      el("line", { class: "link", x1: at[a].x, y1: at[a].y, x2: at[b].x, y2: at[b].y }, lines);
    }
    for (const [a, b] of layout.wrap || []) {  // drawn off the map's edges (across the Pacific)
      const [left, right] = at[a].x < at[b].x ? [at[a], at[b]] : [at[b], at[a]];
      el("line", { class: "link wrap", x1: left.x, y1: left.y, x2: 0, y2: left.y }, lines);
      el("line", { class: "link wrap", x1: right.x, y1: right.y, x2: layout.width, y2: right.y }, lines);
    }
    for (const [a, b] of layout.sea || []) {
      el("line", { class: "sea", x1: at[a].x, y1: at[a].y, x2: at[b].x, y2: at[b].y }, lines);
    }
    const continentOf = {};
    (layout.continents || []).forEach((c, k) => c.territories.forEach((t) => { continentOf[t] = k; }));
    for (const t of layout.territories) {
      const g = el("g", { class: "territory", "data-territory": t.id, "data-owner": "", "data-armies": "0" }, map);
      const continent = t.id in continentOf ? layout.continents[continentOf[t.id]].name : null;
      if (continent) g.setAttribute("data-continent", continent);
      el("title", {}, g).textContent = t.name + (t.city ? " · " + t.city : "") + (continent ? " · " + continent : "");
      const r = t.city ? 15 : 12;
      const disc = el("circle", { cx: t.x, cy: t.y, r: r, class: "disc" + (t.city ? " city" : "") + (t.id in continentOf ? " continent-" + continentOf[t.id] : "") }, g);
      const ring = el("circle", { cx: t.x, cy: t.y, r: r + 4, class: "attacker", visibility: "hidden" }, g);
      const count = el("text", { x: t.x, y: t.y + 4, class: "count" }, g);
      el("text", { x: t.x, y: t.y + r + 11, class: "name" }, g).textContent = t.name;
      const units = el("text", { x: t.x, y: t.y + r + 21, class: "units" }, g);
      const badges = el("g", { class: "badges" }, g);
      nodes[t.id] = { g, disc, ring, count, units, badges, r, t };
    }
    attackLayer = el("g", { class: "attacks" }, map);  // last: drawn over the territories
  }

  function pieces(a, b) {
    // the line from territory a to b: straight, or off the map's edges for a wrapping link
    const wraps = (layout.wrap || []).some(([x, y]) => (x === a.id && y === b.id) || (x === b.id && y === a.id));
    if (!wraps) return [[a.x, a.y, b.x, b.y]];
    const edge = (t) => (t.x < layout.width / 2 ? 0 : layout.width);
    return [[a.x, a.y, edge(a), a.y], [edge(b), b.y, b.x, b.y]];
  }

  function shorten(x1, y1, x2, y2, by) {
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length <= by) return [x2, y2];
    return [x2 - ((x2 - x1) * by) / length, y2 - ((y2 - y1) * by) / length];
  }

  function showArrows(arrows) {
    if (!attackLayer) return;
    attackLayer.textContent = "";
    (arrows || []).forEach((a, k) => {
      const from = nodes[a.from], to = nodes[a.to];
      if (!from || !to) return;
      const g = el("g", { class: "attack-mark", "data-from": a.from, "data-to": a.to }, attackLayer);
      const parts = pieces(from.t, to.t);
      parts.forEach(([x1, y1, x2, y2], k) => {
        const [ex, ey] = k === parts.length - 1 ? shorten(x1, y1, x2, y2, 16) : [x2, y2];
        const line = el("line", { class: "attack", x1: x1, y1: y1, x2: ex, y2: ey }, g);
        if (k !== parts.length - 1) line.style.markerEnd = "none";
        line.style.stroke = colour(a.side);
      });
      const [x1, y1, x2, y2] = parts[0];
      // one label per arrow, stacked: a record may attack several times along the same line
      const label = el("text", { class: "attack-dice", x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 8 - 15 * k }, g);
      label.textContent = a.label;
      el("title", {}, g).textContent = a.title;
    });
  }

  function unitsText(counts) {
    return Object.entries(counts).filter(([, n]) => n > 0).map(([label, n]) => n + label).join(" ");
  }

  function badgePlace(n, corner) {
    // where a badge's symbol starts: just outside the disc's top left, or on its top right
    const { t, r } = n;
    return corner === "top-left" ? { x: t.x - r - 2, y: t.y - r + 2 } : { x: t.x + r - 5, y: t.y - r + 4 };
  }

  function showRegions(regions) {
    regions.owner.forEach((owner, i) => {
      const n = nodes[i]; if (!n) return;
      const count = regions.count[i];
      const present = regions.units ? regions.units[i] : [];
      const ring = regions.ring ? regions.ring[i] : null;
      const badges = regions.badges ? regions.badges[i] : [];
      n.g.setAttribute("data-owner", owner);
      n.g.setAttribute("data-armies", count);
      n.disc.style.fill = colour(owner);
      n.count.textContent = count || "";
      if (regions.units) n.g.setAttribute("data-units", present.map((u) => u.side + ":" + Object.values(u.counts).join(",")).join(";"));
      n.units.textContent = present.map((u) => (u.side === owner ? "" : "⚔") + unitsText(u.counts)).join(" | ");
      n.ring.setAttribute("visibility", ring === null ? "hidden" : "visible");
      if (ring !== null) n.ring.style.stroke = colour(ring);
      if (regions.badges) n.g.setAttribute("data-badges", badges.map((b) => b.style).join(" "));
      n.badges.textContent = "";
      for (const b of badges) el("text", { ...badgePlace(n, b.corner), class: "badge " + b.style }, n.badges).textContent = b.text;
    });
  }

  function showPanel(panel) {
    const box = $("armies");
    box.textContent = "";
    if (!panel.columns.length) return;
    const table = document.createElement("table");
    const row = (cells, head) => {
      const tr = table.insertRow();
      for (const c of cells) { const td = document.createElement(head ? "th" : "td"); td.textContent = c; tr.appendChild(td); }
      return tr;
    };
    row(["", ...panel.columns], true);
    for (const r of panel.rows) row(["■", who(r.side), ...r.cells]).cells[0].style.color = colour(r.side);
    box.appendChild(table);
  }

  function buildLog() {
    for (const f of frames) {
      const li = document.createElement("li");
      li.dataset.step = f.step;
      const head = document.createElement("div");
      head.className = "head";
      const seats = f.seats.map(who).join(", ");
      head.textContent = "#" + f.step + " " + (f.type === "start" ? "start" : f.type + (f.kind ? " · " + f.kind : "") + (seats ? " · " + seats : ""));
      li.appendChild(head);
      for (const line of f.lines) { const p = document.createElement("div"); p.textContent = line; li.appendChild(p); }
      li.addEventListener("click", () => { pause(); go(f.step); });
      log.appendChild(li);
      entries.push(li);
    }
  }

  function showRevealed(frame) {
    const box = $("revealed");
    box.hidden = !frame.revealed;
    if (!frame.revealed) return;
    box.textContent = "";
    const h = document.createElement("h3");
    h.textContent = "Hands and missions (" + (frame.revealed[0] ? frame.revealed[0].label : "revealed after the match") + ")";
    box.appendChild(h);
    const ul = document.createElement("ul");
    for (const r of frame.revealed) {
      const li = document.createElement("li");
      li.textContent = who(r.seat) + ": hand " + (r.hand.length ? r.hand.join(", ") : "empty") + (r.mission ? " · mission: " + r.mission : "");
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }

  function go(to) {
    if (!frames.length) return;
    step = Math.max(0, Math.min(frames.length - 1, to));
    const frame = frames[step];
    showRegions(frame.regions);
    showArrows(frame.arrows);
    showPanel(frame.panel);
    showRevealed(frame);
    stepShown.textContent = step;
    slider.value = step;
    if (timer === null) remember();
    const p = frame.progress || {};
    $("progress").textContent = Object.entries(p).map(([k, v]) => k + " " + v).join(" · ");
    let current = null;
    entries.forEach((li, k) => {
      li.hidden = k > step;
      li.classList.toggle("current", k === step);
      if (k === step) current = li;
    });
    if (current) {  // keep the current step in view (the log is the offset parent)
      const bottom = current.offsetTop + current.offsetHeight - log.clientHeight;
      if (log.scrollTop < bottom) log.scrollTop = bottom;
      if (log.scrollTop > current.offsetTop) log.scrollTop = current.offsetTop;
    }
  }

  function remember() {
    // the URL names the step shown, so it can be linked (not while playing: one per step)
    const url = new URL(window.location.href);
    if (url.searchParams.get("step") === String(step)) return;
    if (!url.searchParams.has("step") && step === 0) return;  // the page as opened
    url.searchParams.set("step", step);
    history.replaceState(null, "", url);
  }

  function linkedStep() {
    const asked = Number(new URLSearchParams(window.location.search).get("step"));
    return Number.isInteger(asked) && asked > 0 ? asked : 0;
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    const wasPlaying = timer !== null;
    timer = null;
    $("play").textContent = "▶ play";
    if (wasPlaying) remember();
  }

  function play() {
    if (step >= frames.length - 1) go(0);
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => {
      if (step >= frames.length - 1) { pause(); return; }
      go(step + 1);
    }, Number($("speed").value));
  }

  function jump() {
    const want = Number($("turn").value);
    const key = "turns";
    const found = frames.findIndex((f) => (f.progress || {})[key] >= want);
    pause();
    go(found < 0 ? frames.length - 1 : found);
  }

  function wire() {
    $("play").addEventListener("click", () => (timer === null ? play() : pause()));
    $("back").addEventListener("click", () => { pause(); go(step - 1); });
    $("forward").addEventListener("click", () => { pause(); go(step + 1); });
    $("first").addEventListener("click", () => { pause(); go(0); });
    $("last").addEventListener("click", () => { pause(); go(frames.length - 1); });
    $("jump").addEventListener("click", jump);
    slider.addEventListener("input", () => { pause(); go(Number(slider.value)); });
    $("turn").addEventListener("keydown", (e) => { if (e.key === "Enter") jump(); });
    $("speed").addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (e.key === "ArrowRight") { pause(); go(step + 1); }
      if (e.key === "ArrowLeft") { pause(); go(step - 1); }
    });
  }

  async function load() {
    let start = 0;
    while (start < total) {
      const answer = await fetch("/api/matches/" + encodeURIComponent(matchId) + "/frames?start=" + start + "&count=500");
      const page = await answer.json();
      if (!answer.ok) throw new Error(page.error || answer.statusText);
      if (!page.frames.length) break;
      for (const f of page.frames) frames.push(f);
      start += page.frames.length;
    }
  }

  wire();
  load().then(() => {
    for (const s of (frames[0] && frames[0].legend) || []) sides[s.side] = s;
    drawBoard();  // only now: every territory drawn carries its owner and armies
    buildLog();
    viewer.dataset.loaded = "true";
    go(linkedStep());
  }).catch((err) => {
    const box = $("viewer-error");
    box.hidden = false;
    box.textContent = "The replay could not be loaded: " + err.message;
  });
})();
