// The play page: shows what the server says and sends orders.  No rule of the game is
// decided here: which orders exist, where a unit may go, the odds, refusals - all come
// from the engine through the server.  This file only draws, pans, zooms and asks.
"use strict";

const TOKEN = document.querySelector('meta[name="pbem-token"]').content;
const $ = (id) => document.getElementById(id);

const view = {
  window: "",        // the hexes the map shows, as the server named them
  box: null,         // the SVG viewBox now [x, y, w, h]
  full: null,        // the whole picture [0, 0, w, h]
  at: null,          // a file number when looking at history, null for now
  version: "",
  hex: null,         // the hex whose details are shown
  digest: "",        // the digest of the map picture shown (the server skips an unchanged one)
  seq: 1,
  myMove: false,
  side: "",
  orders: [],        // the legal orders on offer (from the engine), with their hexes
  marks: {},         // hex -> [x, y] where the map draws it
  scale: 0,
  attack: null,      // an attack order waiting for confirmation
  listed: [],        // every order of the last list asked for, and the hexes it lit
  allMarks: {},
  group: null,       // the group of orders chosen: {name, orders}; it stays chosen after an order
  asked: null,       // the last list asked for: {filter, title}
  busy: 0,           // requests of the player under way
  epoch: 0,          // counts cleared selections: a list that arrives after one is stale
  ahead: [],         // the coming steps orders may be given ahead for, with what is kept
  free: { placings: [] }, // my units waiting to be placed, in the engine's groups
  placing: null,     // the waiting unit chosen: {key, label, counts, rooms: hex -> room}
  moving: false,     // the decision now takes move orders: my counters may be dragged
  stack: null,       // the hex whose stack the viewer shows, and whether a click pinned it
};

async function ask(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v !== null && v !== undefined && v !== "") q.append(k, v);
  }
  const r = await fetch(`${path}?${q}`, { headers: { "X-Pbem-Token": TOKEN } });
  return answer(r);
}

async function post(path, body = {}) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "X-Pbem-Token": TOKEN, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return answer(r);
}

async function answer(r) {
  const doc = await r.json();
  if (!r.ok) throw new Error(doc.error || `error ${r.status}`);
  return doc;
}

function say(text, kind = "ok") {
  const m = $("message");
  m.textContent = text;
  m.className = text ? kind : "";
}

// While the player's own request runs, the poll below does not reload the page under it:
// the change it would see is that request's own.
async function guarded(fn) {
  view.busy += 1;
  document.body.dataset.busy = String(view.busy);
  try {
    await fn();
  } catch (e) {
    say(e.message, "error");
  } finally {
    view.busy -= 1;
    document.body.dataset.busy = String(view.busy); // "0": all drawn (tests wait for it)
  }
}

// --- the game now -----------------------------------------------------------------

let overviewAsked = 0;

async function loadOverview() {
  // The poll's refresh and an order's may overlap: the answer of the later request wins,
  // or an older answer arriving last would show orders given since as never given.
  const asked = ++overviewAsked;
  const o = await ask("/api/overview");
  if (asked !== overviewAsked) return;
  $("title").textContent = `game ${o.game} — ${o.side}${o.against}`;
  $("when").textContent = `${o.date}, ${o.phase}`;
  $("awaited").textContent = `awaited: ${o.awaited}`;
  $("prompt").textContent = o.my_move ? `Your move: ${o.prompt}` : o.status;
  view.myMove = o.my_move;
  view.side = o.side;
  view.seq = o.seq;
  drawHistory();
  const pending = $("pending");
  pending.replaceChildren(...o.pending.map((t, i) => pendingLine(t, i, o.my_move)));
  if (!o.pending.length) pending.replaceChildren(li(o.my_move ? "no orders yet" : "nothing pending"));
  const weather = o.weather.join("; ") + (o.grounded.length ? `; aircraft grounded: ${o.grounded.join(", ")}` : "");
  const countries = o.countries.map((c) => `${c.name}: ${c.money} money, ${c.status}; to place: ${c.to_place}`);
  $("countries").replaceChildren(...[`weather: ${weather}`, ...countries].map((t) => para(t)));
  const sel = $("country");
  if (sel.options.length <= 1) {
    for (const c of o.countries) sel.append(new Option(c.name, c.name));
  }
  for (const id of ["undo", "pass", "send", "give", "fill", "find"]) $(id).disabled = !o.my_move && id !== "send";
  $("since").replaceChildren(...(o.since.length ? ["Since your last decision:", ...o.since] : []).map((t) => para(t)));
  $("reactwords").textContent = o.reactions.words;
  if (document.activeElement !== $("intercept")) $("intercept").value = o.reactions.intercept;
  if (document.activeElement !== $("land")) $("land").value = o.reactions.land;
  const retreat = o.reactions.retreat || "ask";
  if (document.activeElement !== $("only")) $("only").value = o.reactions.only.map((u) => `#${u}`).join(", ");
  if (document.activeElement !== $("retreat")) $("retreat").value = retreat;
  // the place a retreat goes toward is kept as typed until the orders say another
  if (retreat !== "toward" && document.activeElement !== $("toward")) $("toward").value = "";
  $("toward").hidden = $("retreat").value !== "toward";
}

// The slider runs from the first file to the last one the page knows; at its end, "now".
function drawHistory() {
  const h = $("history");
  h.max = String(view.seq);
  if (view.at === null) h.value = String(view.seq);
  $("historyseq").textContent = view.at === null ? `${view.seq} (now)` : String(view.at);
}

function pendingLine(text, index, mine) {
  const e = document.createElement("li");
  const t = document.createElement("span");
  t.className = "text";
  t.textContent = text;
  e.append(t);
  if (!mine) return e;
  const b = document.createElement("button");
  b.className = "takeback";
  b.textContent = "\u00d7";
  b.title = "take back this order (the engine checks the ones after it again)";
  b.onclick = () => guarded(async () => {
    const r = await post("/api/takeback", { index });
    say(r.message, r.dropped.length ? "warn" : "ok");
    await afterOrder(true);
  });
  e.append(" ", b);
  return e;
}

function li(text) {
  const e = document.createElement("li");
  e.textContent = text;
  return e;
}

function para(text) {
  const e = document.createElement("p");
  e.textContent = text;
  return e;
}

// --- the map ----------------------------------------------------------------------

let mapAsked = 0;

async function loadMap(keepWindow) {
  const params = { at: view.at };
  if (keepWindow && view.window) params.window = view.window;
  else params.region = $("region").value;
  if ($("map").querySelector("svg")) params.have = view.digest;
  const asked = ++mapAsked;
  const m = await ask("/api/map", params);
  if (asked !== mapAsked) return; // a later request (another region, a newer position) wins
  if (m.svg === null) {
    // the picture shown is the one the server would send: keep it, its view and its marks
    $("map").classList.toggle("history", view.at !== null);
    $("map").dataset.seq = String(view.at ?? view.seq);
    drawMarks();
    await loadChanges();
    return;
  }
  view.digest = m.digest;
  const doc = new DOMParser().parseFromString(m.svg, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  const sameWindow = view.window === m.window && view.box;
  view.window = m.window;
  $("map").dataset.window = m.window;
  view.full = [0, 0, parseFloat(svg.getAttribute("width")), parseFloat(svg.getAttribute("height"))];
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const changes = document.createElementNS("http://www.w3.org/2000/svg", "g");
  changes.id = "changesmarks";
  const marks = document.createElementNS("http://www.w3.org/2000/svg", "g");
  marks.id = "marks";
  svg.append(changes, marks);
  $("map").replaceChildren(svg);
  if (!sameWindow) view.box = readableBox(svg);
  $("map").classList.toggle("history", view.at !== null);
  $("map").dataset.seq = String(view.at ?? view.seq); // the file after which the map shows the game
  applyBox();
  drawMarks();
  await loadChanges();
}

// Counters' numbers smaller than this many pixels cannot be read without zooming.
const READABLE_PX = 10;

// Where a new window is first shown: whole when its counters' numbers can be read so (or
// it draws none: a map of the whole world), else at the scale where they can, around the
// thickest cluster of my counters (where my war is), or the middle.
function readableBox(svg) {
  const rect = $("map").getBoundingClientRect();
  const [, , fw, fh] = view.full;
  const number = svg.querySelector("g.unit > text");
  if (!number || !rect.width || !rect.height) return view.full.slice();
  const scale = READABLE_PX / parseFloat(number.getAttribute("font-size"));
  if (Math.min(rect.width / fw, rect.height / fh) >= scale) return view.full.slice();
  const w = rect.width / scale;
  const h = rect.height / scale;
  const mine = [...svg.querySelectorAll(`g.unit[data-side="${view.side}"] > rect`)].map((r) =>
    [parseFloat(r.getAttribute("x")), parseFloat(r.getAttribute("y"))]);
  let centre = [fw / 2, fh / 2];
  let most = 0;
  for (const [x, y] of mine) {
    const near = mine.filter(([a, b]) => Math.abs(a - x) < w / 2 && Math.abs(b - y) < h / 2).length;
    if (near > most) [most, centre] = [near, [x, y]];
  }
  const cx = Math.min(Math.max(centre[0], w / 2), Math.max(fw - w / 2, w / 2));
  const cy = Math.min(Math.max(centre[1], h / 2), Math.max(fh - h / 2, h / 2));
  return [cx - w / 2, cy - h / 2, w, h];
}

function svgEl() {
  return $("map").querySelector("svg");
}

function applyBox() {
  const svg = svgEl();
  if (svg && view.box) svg.setAttribute("viewBox", view.box.map((v) => v.toFixed(1)).join(" "));
}

function toSvg(ev) {
  const svg = svgEl();
  const p = svg.createSVGPoint();
  p.x = ev.clientX;
  p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function zoom(factor, centre) {
  const [x, y, w, h] = view.box;
  const c = centre || { x: x + w / 2, y: y + h / 2 };
  const nw = Math.min(view.full[2] * 2, Math.max(60, w * factor));
  const nh = (h * nw) / w;
  view.box = [c.x - ((c.x - x) * nw) / w, c.y - ((c.y - y) * nh) / h, nw, nh];
  applyBox();
}

function drawMarks(picked) {
  const g = $("marks");
  if (!g) return;
  const ns = "http://www.w3.org/2000/svg";
  const out = [];
  for (const [hex, [x, y]] of Object.entries(view.marks)) {
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", Math.max(4, view.scale * 0.42));
    c.setAttribute("class", hex === picked ? "picked" : "mark");
    c.dataset.hex = hex;
    const room = view.placing && view.placing.rooms[hex];
    if (room) svgChild(c, "title", {}).textContent = roomText(room, view.placing.counts);
    out.push(c);
  }
  g.replaceChildren(...out);
}

// --- what changed since my last move, drawn over the map -----------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";
const SIDE_COLOURS = { axis: "#7a3d0a", allies: "#123f8f" };

function svgChild(parent, name, attrs) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.append(e);
  return e;
}

// The overlay shows the game now: looking back through history, it is hidden.
async function loadChanges() {
  const g = $("changesmarks");
  if (!g) return;
  const box = $("changesbox");
  if (!$("changes").checked || view.at !== null || !view.window) {
    g.replaceChildren();
    box.dataset.shown = "";
    return;
  }
  const window = view.window;
  const c = await ask("/api/changes", { window });
  if (window !== view.window || !$("changes").checked) return; // another map, or switched off, meanwhile
  drawChanges($("changesmarks"), c);
  box.dataset.shown = "yes";
  const since = c.since ? `since your file ${c.since}` : "since the game began";
  box.title = `${since}: ${c.moves.length} unit(s) moved, ${c.attacks.length} attack(s), ` +
    `${c.hands.length} hex(es) changed hands (arrows: moves; red rings: attacks; shaded hexes: taken)`;
}

function drawChanges(g, c) {
  g.replaceChildren();
  const r = Math.max(4, c.scale * 0.45);
  const defs = svgChild(g, "defs", {});
  for (const [side, colour] of Object.entries(SIDE_COLOURS)) {
    const m = svgChild(defs, "marker", {
      id: `arrow-${side}`, viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "4", markerHeight: "4",
      orient: "auto-start-reverse",
    });
    svgChild(m, "path", { d: "M0,0 L10,5 L0,10 z", fill: colour });
  }
  for (const h of c.hands) {
    const at = c.at[h.hex];
    if (!at) continue;
    const e = svgChild(g, "circle", { cx: at[0], cy: at[1], r, class: "taken", fill: SIDE_COLOURS[h.side] || "#555" });
    e.dataset.hex = h.hex;
    svgChild(e, "title", {}).textContent = `${h.hex}: taken by ${h.country}`;
  }
  // Units that went the same way are one arrow, its title naming them.
  const ways = new Map();
  for (const m of c.moves) {
    const key = `${m.from}>${m.to}`;
    if (!ways.has(key)) ways.set(key, []);
    ways.get(key).push(m);
  }
  for (const moves of ways.values()) {
    const { from, to, side } = moves[0];
    const a = c.at[from];
    const b = c.at[to];
    if (!a && !b) continue;
    const colour = SIDE_COLOURS[side] || "#555";
    let e;
    if (a && b) {
      e = svgChild(g, "line", {
        x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "moved", stroke: colour,
        "stroke-width": Math.max(2, c.scale * 0.12), "marker-end": `url(#arrow-${side})`,
      });
    } else {
      // one end lies beyond this map: a ring where the unit left it or came onto it
      const [x, y] = a || b;
      e = svgChild(g, "circle", { cx: x, cy: y, r: r * 0.6, class: "moved", stroke: colour, fill: "none" });
    }
    e.dataset.from = from || "";
    e.dataset.to = to || "";
    e.dataset.units = moves.map((m) => m.unit).join(",");
    svgChild(e, "title", {}).textContent = moves.map((m) => `${m.what}: ${m.from} -> ${m.to}`).join("\n");
  }
  for (const x of c.attacks) {
    const at = c.at[x.hex];
    if (!at) continue;
    const e = svgChild(g, "circle", { cx: at[0], cy: at[1], r: r * 1.1, class: "attacked" });
    e.dataset.hex = x.hex;
    svgChild(e, "title", {}).textContent = x.text;
  }
}

function setupMap() {
  const map = $("map");
  let drag = null;
  map.addEventListener("pointerdown", (ev) => {
    if (!view.box) return;
    const counter = ev.target.closest("g.unit");
    if (counter && counter.dataset.side === view.side && canMove()) {
      // the whole stack of mine in the hex: one of its units is dragged from the viewer
      const mine = [...counter.closest("g.stack").querySelectorAll(`g.unit[data-side="${view.side}"]`)];
      const ids = mine.map((u) => Number(u.dataset.unit));
      startCarry(ev, { what: "units", ids, from: counter.dataset.hex, label: unitsText(ids) });
      return;
    }
    drag = { x: ev.clientX, y: ev.clientY, box: view.box.slice(), moved: false };
  });
  map.addEventListener("pointerover", (ev) => {
    const stack = ev.target.closest("g.stack");
    if (stack && !carry) hoverStack(stack.dataset.hex);
  });
  map.addEventListener("pointerout", (ev) => {
    const stack = ev.target.closest("g.stack");
    if (stack && !(ev.relatedTarget && stack.contains(ev.relatedTarget))) hoverStack(null);
  });
  map.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (!drag.moved) return;
    map.classList.add("dragging");
    const rect = map.getBoundingClientRect();
    const k = Math.max(drag.box[2] / rect.width, drag.box[3] / rect.height);
    view.box = [drag.box[0] - dx * k, drag.box[1] - dy * k, drag.box[2], drag.box[3]];
    applyBox();
  });
  map.addEventListener("pointerup", (ev) => {
    if (carry && carry.started) return; // a counter dropped: the drop orders, not a click
    const wasDrag = drag && drag.moved;
    drag = null;
    map.classList.remove("dragging");
    if (!wasDrag && svgEl()) guarded(() => clicked(ev));
  });
  map.addEventListener("wheel", (ev) => {
    if (!view.box) return;
    ev.preventDefault();
    zoom(ev.deltaY > 0 ? 1.25 : 0.8, toSvg(ev));
  }, { passive: false });
  $("zoomin").onclick = () => zoom(0.8);
  $("zoomout").onclick = () => zoom(1.25);
  $("fit").onclick = () => { view.box = view.full.slice(); applyBox(); };
  $("changes").onchange = () => guarded(loadChanges);
  $("region").onchange = () => guarded(async () => { view.window = ""; clearSelection(); await loadMap(false); });
}

// --- clicking: look, select, order ------------------------------------------------------

async function clicked(ev) {
  const mark = ev.target.closest("circle.mark");
  const counter = ev.target.closest("g.unit");
  let hex = mark ? mark.dataset.hex : counter ? counter.dataset.hex : null;
  if (!hex) {
    const p = toSvg(ev);
    hex = (await ask("/api/at", { window: view.window, x: p.x.toFixed(1), y: p.y.toFixed(1) })).hex;
  }
  if (!hex) return;
  if (view.at === null && view.orders.some((o) => o.hexes.includes(hex))) {
    await chooseAt(hex);
    return;
  }
  await showHex(hex);
  // the stack is shown once the orders are asked for: a unit chosen from the hex's list
  // meanwhile is asked for after them, and so stays chosen
  if (view.at === null && view.myMove) {
    if (counter && counter.dataset.side === view.side) await selectUnit(Number(counter.dataset.unit));
    else await offer({ place: hex }, `orders naming ${hex}`);
  }
  await showStack(hex, true);
}

async function showHex(hex, attackers) {
  const r = await ask("/api/hex", { where: hex, attackers: attackers ? attackers.join(",") : "" });
  view.hex = hex;
  const box = $("hexinfo");
  const head = `${r.hex}${r.city ? ` [${r.city}]` : ""}: ${r.terrain}${r.territory ? `, ${r.territory}` : ""}; weather: ${r.weather}`;
  const lines = [para(head)];
  if (r.controller) lines.push(para(`controlled by ${r.controller} (${r.control_side})`));
  lines.push(para(`installations: ${r.installations.length ? r.installations.join(", ") : "none"}`));
  const units = document.createElement("ul");
  for (const u of r.units) {
    const e = li(`${u.side} ${u.label}${u.notes.length ? ` (${u.notes.join(", ")})` : ""}: ${u.supply}`);
    e.className = "unitline";
    if (u.id !== null && view.myMove && view.at === null) {
      e.classList.add("mine");
      e.title = "select this unit";
      e.onclick = () => guarded(() => selectUnit(u.id));
    }
    units.append(e);
  }
  lines.push(para(r.units.length ? `units (${r.units.length}):` : "units: none"), units);
  if (r.odds) lines.push(oddsBox(r.odds, "if you attacked now with every adjacent unit and every bomber or warship there"));
  box.replaceChildren(...lines);
  return r;
}

function oddsBox(o, title) {
  const d = document.createElement("div");
  d.className = "odds";
  const parts = [para(title + ":")];
  if (o.attackers.length) {
    parts.push(para(`attack ${o.attack} against defence ${o.defence}: odds ${o.ratio}`));
    parts.push(para(`expected: the defender loses at least 1 point with chance ${pct(o.defender_loses)}; ` +
      `every attacker is eliminated with chance ${pct(o.attackers_eliminated)}`));
    parts.push(para(`attackers: ${o.attackers.join(", ")}`));
    if (o.supports.length) parts.push(para(`supported by: ${o.supports.join(", ")}`));
  } else {
    parts.push(para(`none of your units may attack it now (defence ${o.defence})`));
  }
  if (o.notes.length) parts.push(para(`modifiers: ${o.notes.join(", ")}`));
  for (const b of o.barred) parts.push(para(`cannot attack: ${b}`));
  d.append(...parts);
  return d;
}

function pct(x) {
  return `${Math.round(x * 100)}%`;
}

async function offer(filter, title) {
  // a newer list, or a cleared selection, supersedes this one while it is asked for
  const epoch = ++view.epoch;
  const r = await ask("/api/legal", { ...filter, window: view.window });
  if (epoch !== view.epoch) return false;
  view.asked = { filter, title };
  view.listed = r.orders;
  view.orders = r.orders;
  view.allMarks = r.marks;
  view.marks = r.marks;
  view.scale = r.scale;
  view.attack = null;
  view.group = null;
  unchooseWaiting();
  $("amountbox").hidden = true;
  $("odds").replaceChildren();
  $("selection").textContent = r.orders.length
    ? `${title}: ${r.orders.length} legal order(s)${r.left_out ? ` (${r.left_out} more not listed)` : ""}` +
      (Object.keys(r.marks).length ? "; click a lit hex" : "")
    : `${title}: no legal order`;
  drawMarks();
  if (filter.place) {
    // every order here names the hex clicked: offer them one by one
    $("groups").replaceChildren();
    showChoices(r.orders.slice(0, 200));
  } else {
    showGroups();
    $("choices").replaceChildren();
  }
  return true;
}

async function selectUnit(id) {
  await offer({ unit: id }, `unit #${id}`);
}

function showGroups() {
  const groups = new Map();
  for (const o of view.orders) {
    if (!groups.has(o.group)) groups.set(o.group, []);
    groups.get(o.group).push(o);
  }
  const items = [];
  for (const [group, orders] of groups) {
    const b = document.createElement("button");
    b.className = "group";
    b.textContent = orders.length > 1 || orders[0].hexes.length ? `${group} (${orders.length})` : orders[0].text;
    b.title = "its orders: the hexes they name light up";
    b.dataset.group = group;
    b.onclick = () => guarded(async () => {
      if (orders.length === 1 && !orders[0].hexes.length) {
        await pick(orders[0]);
        return;
      }
      for (const x of document.querySelectorAll("button.group")) x.classList.remove("chosen");
      b.classList.add("chosen");
      chooseGroup(group, orders);
    });
    const e = document.createElement("li");
    e.append(b);
    items.push(e);
  }
  $("groups").replaceChildren(...items.slice(0, 400));
}

// A group of orders that differ by an amount (points to place or buy, money to send)
// offers the amounts the engine lists in a field; the lit hexes are those of the amount.
function chooseGroup(name, orders, keepAmount) {
  view.group = { name, orders };
  const amounts = [...new Set(orders.map((o) => o.amount).filter((a) => a !== null))].sort((a, b) => a - b);
  const sel = $("amount");
  const before = keepAmount ? Number(sel.value) : NaN;
  sel.replaceChildren(...amounts.map((a) => new Option(String(a), String(a))));
  if (amounts.length) sel.value = String(amounts.includes(before) ? before : amounts[amounts.length - 1]);
  $("amountbox").hidden = !amounts.length;
  if (!keepAmount) $("count").value = "1";
  showGroupAmount();
}

function showGroupAmount() {
  if (!view.group) return;
  const amount = $("amountbox").hidden ? null : Number($("amount").value);
  const orders = view.group.orders.filter((o) => amount === null || o.amount === amount);
  view.orders = orders;
  view.marks = Object.fromEntries(Object.entries(view.allMarks).filter(([h]) => orders.some((o) => o.hexes.includes(h))));
  drawMarks();
  frameMarks();
  // Only hexes of the map shown can light up: the orders whose hexes all lie beyond it are
  // listed (when few) and counted, or a long group would seem to offer nothing.
  const unseen = orders.filter((o) => o.hexes.length && !o.hexes.some((h) => h in view.allMarks));
  const note = unseen.length
    ? `${unseen.length} order(s) of this group name hexes outside this map: choose another region (or world) to see them lit`
    : "";
  // a long list says no more than the lit hexes do
  showChoices(orders.length <= 12 ? orders : unseen.length <= 12 ? unseen : [], note);
}

// The lit hexes of a chosen group are brought into view: on a map of the whole world
// the places of a deployment or an assault are a few pixels wide.
function frameMarks() {
  const pts = Object.values(view.marks);
  if (!pts.length || !view.box) return;
  const [x, y, w, h] = view.box;
  const inside = pts.every(([px, py]) => px >= x && px <= x + w && py >= y && py <= y + h);
  if (inside && w < view.full[2] * 0.6) return;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const pad = view.scale * 4;
  const least = view.scale * 30;
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const nw = Math.max(least, Math.max(...xs) - Math.min(...xs) + 2 * pad);
  const nh = Math.max((least * h) / w, Math.max(...ys) - Math.min(...ys) + 2 * pad);
  if (inside && nw >= w) return; // already as close as the group allows
  view.box = [cx - nw / 2, cy - nh / 2, nw, nh];
  applyBox();
}

function showChoices(orders, note = "") {
  const items = orders.map((o) => {
    const b = document.createElement("button");
    b.className = "order";
    b.textContent = o.text;
    b.onclick = () => guarded(() => pick(o));
    const e = document.createElement("li");
    e.append(b);
    return e;
  });
  if (note) {
    const e = document.createElement("li");
    e.className = "note";
    e.textContent = note;
    items.unshift(e);
  }
  $("choices").replaceChildren(...items);
}

async function chooseAt(hex) {
  if (view.placing) {
    await offerPlacing(hex);
    return;
  }
  const here = view.orders.filter((o) => o.hexes.includes(hex));
  drawMarks(hex);
  await showHex(hex);
  if (here.length === 1) await pick(here[0]);
  else showChoices(here);
}

async function pick(order) {
  if (order.text.startsWith("attack ")) {
    const r = await ask("/api/odds", { order: order.text });
    view.attack = order.text;
    const confirm = document.createElement("button");
    confirm.id = "confirm";
    confirm.textContent = `Confirm: ${order.text}`;
    confirm.onclick = () => guarded(async () => { await give([order.text]); });
    $("odds").replaceChildren(oddsBox(r.odds, `odds of ${order.text}`), confirm);
    return;
  }
  const count = view.group && view.group.orders.includes(order) ? Math.max(1, Number($("count").value) || 1) : 1;
  await give(Array(count).fill(order.text), undefined, true);
}

async function give(lines, force, keepGroup) {
  const r = await post("/api/orders", { lines, force: force ?? $("force").checked });
  say(r.message);
  await afterOrder(keepGroup);
}

function clearSelection() {
  view.epoch += 1;
  view.orders = [];
  view.listed = [];
  view.marks = {};
  view.allMarks = {};
  view.group = null;
  view.asked = null;
  view.attack = null;
  unchooseWaiting();
  $("amountbox").hidden = true;
  $("choices").replaceChildren();
  $("groups").replaceChildren();
  $("odds").replaceChildren();
  drawMarks();
}

// After an order from a chosen group, the same group stays chosen with what the engine
// offers now, so several units of one kind are placed by clicking hex after hex.
async function afterOrder(keepGroup, next = "Order given. Click a counter or a hex for the next one.") {
  const again = keepGroup && view.group && view.asked ? { ...view.asked, group: view.group.name } : null;
  clearSelection();
  const epoch = view.epoch;
  $("selection").textContent = next;
  await refresh(true);
  // the hex shown is shown again: a unit just placed or moved there is listed
  if (view.hex && view.at === null) await showHex(view.hex);
  // a pinned stack is shown as it stands now; one shown by hovering is gone, as the pointer is
  if (view.stack && view.stack.pinned) await showStack(view.stack.hex, true);
  else if (view.stack) hideStack();
  if (!again || !view.myMove || epoch !== view.epoch) return;
  if (!(await offer(again.filter, again.title))) return;
  const orders = view.listed.filter((o) => o.group === again.group);
  const b = [...document.querySelectorAll("button.group")].find((x) => x.dataset.group === again.group);
  if (!orders.length || !b) return;
  b.classList.add("chosen");
  chooseGroup(again.group, orders, true);
}

// --- units waiting to be placed: where each may go, lit on the map ------------------------

// A waiting unit is known by what its placing orders place (land points by their kind:
// their count changes as they are placed), as the engine names it.
function waitKey(w) {
  return w.key;
}

function unchooseWaiting() {
  view.placing = null;
  for (const x of document.querySelectorAll("button.waiting")) x.classList.remove("chosen");
}

function roomText(room, counts) {
  const city = !room.city ? "" : room.city_distance === 0 ? ` [${room.city}]` : ` (near ${room.city})`;
  return `${room.hex}${city}: ${room.used} of ${room.limit === null ? "no limit" : room.limit} ${counts} there`;
}

async function loadFree() {
  view.free = view.myMove && view.at === null ? await ask("/api/free", { window: view.window }) : { placings: [] };
  const items = view.free.placings.map((p) => {
    const e = li(`${p.waiting.length === 1 ? "this may" : `these ${p.waiting.length} may`} go to ` +
      `${p.hexes.length} hex(es), room counted in ${p.counts}:`);
    const units = document.createElement("ul");
    for (const w of p.waiting) {
      const b = document.createElement("button");
      b.className = "waiting";
      b.dataset.key = waitKey(w);
      b.textContent = w.label;
      b.title = "light the hexes it may go to";
      b.onclick = () => guarded(() => chooseWaiting(waitKey(w)));
      b.onpointerdown = (ev) => startCarry(ev, { what: "waiting", key: waitKey(w), label: w.label });
      const u = document.createElement("li");
      u.append(b);
      units.append(u);
    }
    e.append(units);
    return e;
  });
  $("free").replaceChildren(...items);
  $("freebox").hidden = !items.length;
}

// Lit as a unit's moves are: its hexes become the orders on offer, so a click on one of
// them comes to chooseAt, which offers the placing order there.
async function chooseWaiting(key) {
  clearSelection();
  const epoch = view.epoch;
  const r = await ask("/api/free", { window: view.window });
  if (epoch !== view.epoch) return;
  const p = r.placings.find((x) => x.waiting.some((w) => waitKey(w) === key));
  if (!p) {
    $("selection").textContent = "nothing of that kind waits to be placed now";
    return;
  }
  const w = p.waiting.find((x) => waitKey(x) === key);
  view.placing = { key, label: w.label, counts: p.counts, rooms: Object.fromEntries(p.hexes.map((h) => [h.hex, h])) };
  view.orders = placingOrders(w, p);
  view.listed = view.orders;
  view.allMarks = r.marks;
  view.marks = Object.fromEntries(Object.entries(r.marks).filter(([h]) => h in view.placing.rooms));
  view.scale = r.scale;
  for (const b of document.querySelectorAll("button.waiting")) b.classList.toggle("chosen", b.dataset.key === key);
  const unseen = p.hexes.length - Object.keys(view.marks).length;
  $("selection").textContent = `${w.label}: the ${p.hexes.length} hex(es) it may go to are lit; ` +
    "click one to place it there" +
    (unseen ? ` (${unseen} lie outside this map: choose another region, or world, to see them)` : "");
  drawMarks();
  frameMarks();
}

// The placing order of a waiting unit for each hex of its group, written from the order
// the server sent once: land points with the most the engine accepts in that hex.
function placingOrders(w, p) {
  return p.hexes.map(({ hex }) => ({
    text: w.order.replace("POINTS", w.points ? String(w.points[hex]) : "").replace("HEX", hex),
    group: "",
    hexes: [hex],
    amount: null,
  }));
}

async function offerPlacing(hex) {
  const here = view.orders.find((o) => o.hexes.includes(hex));
  const room = view.placing.rooms[hex];
  drawMarks(hex);
  await showHex(hex);
  $("hexinfo").prepend(para(`room: ${roomText(room, view.placing.counts)}`));
  const line = document.createElement("input");
  line.id = "placeline";
  line.value = here.text;
  line.title = "the placing order; change the points if you wish";
  const add = document.createElement("button");
  add.id = "place";
  add.textContent = "Add to My turn";
  add.onclick = () => guarded(() => place(line.value));
  const e = document.createElement("li");
  e.className = "note";
  e.append(para(`place ${view.placing.label} in ${roomText(room, view.placing.counts)}:`), line, add);
  $("choices").replaceChildren(e);
  // the list of waiting units above may be long: the order offered must be in sight
  e.scrollIntoView({ block: "nearest" });
}

// After a placing order the same units stay chosen while some still wait, so a pool is
// placed by clicking hex after hex.
async function place(line) {
  const key = view.placing.key;
  const r = await post("/api/orders", { lines: [line], force: $("force").checked });
  say(r.message);
  await afterOrder(false, "Order added.");
  if (view.free.placings.some((p) => p.waiting.some((w) => waitKey(w) === key))) await chooseWaiting(key);
}

// --- my turn: undo, pass, send, suggestion ---------------------------------------------

function setupTurn() {
  $("undo").onclick = () => guarded(async () => { say((await post("/api/undo")).message); await afterOrder(); });
  $("pass").onclick = () => guarded(() => give(["pass"]));
  $("send").onclick = () => guarded(async () => {
    say((await post("/api/send", { force: $("force").checked })).message);
    await afterOrder(false, "Sent. The page follows the game: the opponent's answer shows here when it arrives.");
  });
  $("retreat").onchange = () => { $("toward").hidden = $("retreat").value !== "toward"; };
  $("react").onclick = () => guarded(async () => {
    const mode = $("retreat").value;
    say((await post("/api/react", {
      intercept: $("intercept").value, land: $("land").value, only: $("only").value,
      retreat: mode === "toward" ? `toward:${$("toward").value.trim()}` : mode,
    })).message);
    await afterOrder(false, "Reaction orders set: your program answers those decisions as the files arrive.");
  });
  $("fill").onclick = () => guarded(async () => {
    say("asking the computer player…");
    $("orderstext").value = (await ask("/api/suggestion")).text;
    say("the computer player's proposal is in the box: edit it, then give it");
  });
  $("give").onclick = () => guarded(async () => {
    await give($("orderstext").value.split("\n"));
    $("orderstext").value = "";
  });
  $("find").onclick = () => guarded(async () => {
    const filter = { country: $("country").value, kind: $("kind").value.trim() };
    // every order of a movement phase is hundreds of thousands: ask for a part of them
    if (!filter.country && !filter.kind) say("choose a country or a kind of order first", "error");
    else await offer(filter, "orders found");
  });
  $("amount").onchange = () => showGroupAmount();
  $("history").oninput = () => { $("historyseq").textContent = $("history").value; };
  $("history").onchange = () => guarded(async () => {
    // The file chosen is kept before anything is awaited, and whether it is the last one
    // ("now") is decided on the game as the server has it: while a refresh is under way
    // (just after a send) the page's own last file is an old one, and taking the file
    // chosen for "now" would let that refresh draw the game now over it.
    const n = Number($("history").value);
    view.at = n;
    clearSelection();
    await loadOverview();
    if (n >= view.seq) view.at = null;
    drawHistory();
    await loadMap(true);
    await showReport(n);
  });
  $("now").onclick = () => guarded(async () => { view.at = null; await refresh(true); });
}

// --- orders given ahead: the coming simultaneous steps of the month ----------------------

// The step whose orders the box holds: a refresh does not overwrite what is being edited.
let aheadShown = "";

async function loadAhead() {
  const r = await ask("/api/ahead");
  const steps = r.steps;
  $("aheadsteps").replaceChildren(...steps.map((s) => {
    const e = li(`${s.when} ${s.name}: ` + (s.kept
      ? `${s.kept.length} order(s) kept, sealed by your program when it comes (${FALLBACK_WORDS[s.fallback]})`
      : "nothing kept: you decide it when it comes"));
    e.dataset.step = s.step;
    return e;
  }));
  if (!steps.length) {
    $("aheadsteps").replaceChildren(li(
      "No step to give orders ahead for now: while a simultaneous step of the month (war declarations, " +
      "deployment, income, builds) is yours, the ones after it are listed here."));
  }
  const kept = steps.filter((s) => s.kept).length;
  $("aheadcount").textContent = steps.length ? `(${steps.length} coming step(s), ${kept} kept)` : "";
  const sel = $("aheadstep");
  const before = sel.value;
  sel.replaceChildren(...steps.map((s) => new Option(`${s.when} ${s.name}`, s.step)));
  $("aheadeditor").hidden = !steps.length;
  view.ahead = steps;
  if (steps.some((s) => s.step === before)) sel.value = before;
  if (sel.value !== aheadShown) showAhead();
  $("aheadnotes").replaceChildren(...r.notes.map((n) => li(`${n.month}: ${n.text}`)));
}

const FALLBACK_WORDS = {
  ask: "an order that no longer fits: you are asked",
  bot: "an order that no longer fits: the computer replaces it",
  none: "an order that no longer fits: left out",
};

// The kept orders of the chosen step go into the box to be read or edited.
function showAhead() {
  const s = view.ahead.find((x) => x.step === $("aheadstep").value);
  aheadShown = s ? s.step : "";
  $("aheadtext").value = s && s.kept ? s.kept.join("\n") + "\n" : "";
  $("aheadfallback").value = s && s.fallback ? s.fallback : "ask";
}

// --- help: the rules by topic (the step awaited first) and every kind of order ------------

// Text with `code` spans, shown as text: the reference is never read as markup.
function withCode(e, text) {
  text.split("`").forEach((part, i) => {
    if (i % 2) {
      const c = document.createElement("code");
      c.textContent = part;
      e.append(c);
    } else {
      e.append(part);
    }
  });
  return e;
}

function ruleBlocks(topic) {
  return topic.blocks.map((b) => {
    if (b.kind === "p") return withCode(document.createElement("p"), b.text);
    if (b.kind === "ul" || b.kind === "ol") {
      const list = document.createElement(b.kind);
      list.append(...b.items.map((item) => withCode(document.createElement("li"), item)));
      return list;
    }
    const table = document.createElement("table");
    table.append(...b.rows.map((row, i) => {
      const tr = document.createElement("tr");
      tr.append(...row.map((cell) => {
        const td = document.createElement(i ? "td" : "th");
        td.textContent = cell;
        return td;
      }));
      return tr;
    }));
    return table;
  });
}

function showRules(rules) {
  const now = rules.topics.find((t) => t.slug === rules.now);
  const head = document.createElement("h3");
  head.textContent = `The rules of this step: ${now.title}`;
  $("rulesnow").replaceChildren(head, ...ruleBlocks(now));
  $("rules").replaceChildren(...rules.topics.filter((t) => t !== now).map((t) => {
    const d = document.createElement("details");
    d.className = "topic";
    d.dataset.topic = t.slug;
    const s = document.createElement("summary");
    s.textContent = t.title;
    d.append(s, ...ruleBlocks(t));
    return d;
  }));
}

async function loadHelp() {
  const r = await ask("/api/help");
  showRules(r.rules);
  const kinds = [...r.kinds.filter((k) => k.now), ...r.kinds.filter((k) => !k.now)];
  $("help").replaceChildren(...kinds.map((k) => {
    const d = document.createElement("details");
    d.className = k.now ? "kind now" : "kind";
    const s = document.createElement("summary");
    const c = document.createElement("code");
    c.textContent = k.usage;
    s.append(c, ` ${k.help}`);
    const args = document.createElement("ul");
    args.replaceChildren(...k.arguments.map(([name, meaning]) => li(`${name} ${meaning}`)));
    d.append(s, args, para(`e.g. ${k.example}`));
    return d;
  }));
}

function setupAhead() {
  $("aheadstep").onchange = () => showAhead();
  $("aheadfill").onclick = () => guarded(async () => {
    say("asking the computer player…");
    const r = await ask("/api/ahead/suggestion", { step: $("aheadstep").value });
    $("aheadtext").value = r.text;
    say(`${r.about} is in the box: edit it, then keep it`);
  });
  $("aheadkeep").onclick = () => guarded(() => keepAhead($("aheadtext").value.split("\n")));
  $("aheadtakeback").onclick = () => guarded(() => keepAhead([]));
}

async function keepAhead(lines) {
  const step = $("aheadstep").value;
  const r = await post("/api/ahead", { step, lines, fallback: $("aheadfallback").value });
  say(r.message);
  aheadShown = "";
  await loadAhead();
}

// Reports are asked by a refresh and by the history slider, whose answers may cross: only the
// last one asked is drawn (else a refresh after a send could put back "now" over the file chosen).
let reportAsked = 0;

async function showReport(seq) {
  const asked = ++reportAsked;
  const reports = (await ask("/api/reports")).reports;
  if (asked !== reportAsked) return;
  let shown;
  if (seq !== undefined) {
    shown = reports.filter((r) => r.seq === seq);
  } else {
    // what happened since my last file: the opponent's turn
    const mine = reports.filter((r) => r.side === view.side).map((r) => r.seq);
    const last = mine.length ? Math.max(...mine) : 0;
    shown = reports.filter((r) => r.seq > last);
    if (!shown.length) shown = reports.slice(-1);
  }
  $("report").textContent = shown.map((r) => r.text).join("\n");
}

// --- keeping up with the game ------------------------------------------------------------

// --- what the engine offers now: the kinds of order, and purchases with their prices ------

async function loadOffers() {
  const r = view.myMove && view.at === null ? await ask("/api/offers") : { kinds: [] };
  view.moving = r.kinds.some((k) => k.kind === "move");
  const items = r.kinds.map((k) => {
    const b = document.createElement("button");
    b.className = "kind";
    b.dataset.kind = k.kind;
    b.title = k.help;
    b.textContent = k.count === null ? k.kind : `${k.kind} (${k.count})`;
    b.disabled = k.count === 0;
    b.onclick = () => guarded(async () => {
      if (k.kind === "move") {
        say("click one of your counters: the hexes it may reach light up");
        return;
      }
      await offer({ kind: k.kind }, `${k.kind} orders`);
    });
    return b;
  });
  $("offers").replaceChildren(...(items.length ? [document.createTextNode("The engine offers: "), ...items] : []));
  const buying = r.kinds.some((k) => k.kind === "buy" || k.kind === "buy_unit");
  $("buying").hidden = !buying;
  if (buying) await loadPurchases();
}

async function loadPurchases() {
  const r = await ask("/api/purchases");
  const money = Object.entries(r.money).map(([c, m]) => `${c}: $${m}B left`).join("; ");
  const rows = r.items.map((item) => {
    const e = document.createElement("li");
    e.className = "purchase";
    const amounts = Object.keys(item.orders).map(Number).sort((a, b) => a - b);
    const price = (item.price === null ? "" : ` — $${item.price}B${item.kind === "buy" ? " a point" : ""}`) +
      (item.unit ? ` (${item.unit})` : "");
    const buy = document.createElement("button");
    buy.className = "buy";
    buy.dataset.group = item.group;
    if (amounts.length > 1 || item.kind === "buy") {
      const sel = document.createElement("select");
      sel.className = "points";
      sel.append(...amounts.map((a) => new Option(String(a), String(a))));
      buy.textContent = "Buy";
      buy.onclick = () => guarded(() => give([item.orders[sel.value]]));
      e.append(`${item.group}${price}: points `, sel, " ", buy);
    } else {
      buy.textContent = item.orders[amounts[0]];
      buy.onclick = () => guarded(() => give([item.orders[amounts[0]]]));
      e.append(buy, price);
    }
    return e;
  });
  const list = document.createElement("ul");
  list.append(...rows);
  $("purchases").replaceChildren(para(`money: ${money}`), rows.length ? list : para("nothing to buy now"));
}

async function refresh(keepWindow) {
  view.version = (await ask("/api/version")).version;
  await loadOverview();
  await loadOffers();
  await loadAhead();
  await loadMap(keepWindow);
  await loadFree();
  await showReport(view.at === null ? undefined : view.at);
  if ($("helpbox").open) await loadHelp();
}

async function poll() {
  if (view.busy) return;
  try {
    const v = (await ask("/api/version")).version;
    $("live").classList.remove("stale");
    if (v !== view.version) {
      view.version = v;
      if (view.at === null) {
        await guarded(async () => {
          clearSelection();
          await refresh(true);
          $("live").textContent = `live: updated at ${new Date().toLocaleTimeString()}`;
        });
      }
    }
  } catch (e) {
    $("live").classList.add("stale");
  }
}

window.addEventListener("DOMContentLoaded", () => {
  setupMap();
  setupCarry();
  setupTurn();
  setupAhead();
  $("helpbox").addEventListener("toggle", () => {
    // opened at the foot of the side panel, it would stay below the fold: bring it up
    if ($("helpbox").open) guarded(async () => {
      await loadHelp();
      $("helpbox").scrollIntoView({ block: "start" });
    });
  });
  // the reaction orders' fields lie below the fold of a laptop's side panel: bring them up
  $("reactbox").addEventListener("toggle", () => {
    if ($("reactbox").open) $("reactbox").scrollIntoView({ block: "start" });
  });
  guarded(async () => {
    await refresh(false);
    setInterval(poll, 2000);
  });
});

// --- the stack viewer: every unit of a hex, as the engine reads its counter ------------------

let hoverTimer = 0;

// Hovering a stack shows it after a moment (a pointer crossing the map shows nothing);
// a click pins it until another click or its close button.
function hoverStack(hex) {
  clearTimeout(hoverTimer);
  if (view.stack && view.stack.pinned) return;
  if (!hex) {
    hoverTimer = setTimeout(() => { if (!(view.stack && view.stack.pinned)) hideStack(); }, 400);
    return;
  }
  hoverTimer = setTimeout(() => guardedQuiet(() => showStack(hex, false)), 250);
}

// A look, not an order: its failure (a hex of a map just replaced) says nothing.
async function guardedQuiet(fn) {
  try { await fn(); } catch (e) { /* the next hover asks again */ }
}

function hideStack() {
  view.stack = null;
  $("stack").hidden = true;
}

async function showStack(hex, pinned) {
  if (pinned) clearTimeout(hoverTimer);
  const r = await ask("/api/stack", { where: hex });
  // a look by hovering never replaces a stack a click keeps shown
  if (!pinned && view.stack && view.stack.pinned) return;
  if (!r.units.length) {
    if (pinned) hideStack();
    return;
  }
  view.stack = { hex: r.hex, pinned };
  const box = $("stack");
  const head = document.createElement("div");
  head.className = "stackhead";
  const mine = r.units.filter((u) => u.mine && !u.notes.some((n) => n.startsWith("embarked")));
  const title = document.createElement("span");
  title.textContent = `${r.hex}: ${r.units.length} unit(s)`;
  head.append(title);
  if (mine.length > 1 && canMove()) {
    const all = document.createElement("button");
    all.className = "carryall";
    all.textContent = `drag all ${mine.length} of mine`;
    all.title = "drag onto a hex: each of them gets its move order there";
    all.onpointerdown = (ev) => startCarry(ev, { what: "units", ids: mine.map((u) => u.id), from: r.hex,
      label: unitsText(mine.map((u) => u.id)) });
    head.append(all);
  }
  const close = document.createElement("button");
  close.className = "close";
  close.textContent = "\u00d7";
  close.title = "close";
  close.onclick = hideStack;
  head.append(close);
  const list = document.createElement("ul");
  for (const u of r.units) list.append(stackLine(u));
  box.replaceChildren(head, list);
  box.classList.toggle("pinned", pinned);
  box.hidden = false;
}

function stackLine(u) {
  const e = document.createElement("li");
  e.className = "su";
  e.dataset.unit = String(u.id);
  const chip = document.createElement("span");
  chip.className = "chip";
  chip.textContent = u.counter;
  const rect = svgEl() && svgEl().querySelector(`g.unit[data-unit="${u.id}"] > rect`);
  const fill = rect ? rect.getAttribute("fill") : SIDE_COLOURS[u.side] || "#888";
  chip.style.background = fill;
  chip.style.color = inkOn(fill);
  const words = document.createElement("div");
  const name = document.createElement("b");
  name.textContent = `${u.country} ${u.kind}`;
  const lines = [`#${u.id}: ${u.numbers}`, u.supply];
  const extra = [...u.notes, ...u.done];
  if (u.cargo.length) extra.push(`carries ${u.cargo.join(", ")}`);
  words.append(name, ...lines.map((t) => para(t)), ...(extra.length ? [para(extra.join("; "))] : []));
  if (u.supply === "out of supply") words.children[2].className = "out";
  e.append(chip, words);
  if (u.mine && canMove()) {
    e.classList.add("mine");
    e.title = "drag onto a hex to move it there";
    e.onpointerdown = (ev) => startCarry(ev, { what: "units", ids: [u.id], from: view.stack && view.stack.hex,
      label: `#${u.id} ${u.country} ${u.kind} ${u.counter}` });
  }
  return e;
}

// Black or white, whichever reads on the counter's colour.
function inkOn(colour) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
  if (!m) return "#000";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

// --- dragging: my counters onto a hex move them; a waiting unit onto a lit hex places it ----

const CARRY_PX = 6;
let carry = null; // {what: "units" | "waiting", ids, key, label, from, x, y, started, ghost}

function canMove() {
  return view.moving && view.myMove && view.at === null;
}

function unitsText(ids) {
  return ids.length === 1 ? `unit #${ids[0]}` : `${ids.length} units (${ids.map((i) => `#${i}`).join(" ")})`;
}

function startCarry(ev, what) {
  if (ev.button !== 0) return;
  carry = { ...what, x: ev.clientX, y: ev.clientY, started: false, ghost: null };
}

function setupCarry() {
  document.addEventListener("pointermove", (ev) => {
    if (!carry) return;
    if (!carry.started) {
      if (Math.abs(ev.clientX - carry.x) + Math.abs(ev.clientY - carry.y) < CARRY_PX) return;
      carry.started = true;
      clearTimeout(hoverTimer);
      const g = document.createElement("div");
      g.id = "ghost";
      g.textContent = carry.what === "waiting" ? `place ${carry.label}` : `move ${carry.label}`;
      document.body.append(g);
      carry.ghost = g;
      document.body.classList.add("carrying");
      // the hexes a waiting unit may go to light up while it is carried
      if (carry.what === "waiting") guarded(() => chooseWaiting(carry.key));
    }
    carry.ghost.style.left = `${ev.clientX + 12}px`;
    carry.ghost.style.top = `${ev.clientY + 12}px`;
  });
  document.addEventListener("pointerup", (ev) => {
    const c = carry;
    carry = null;
    if (!c || !c.started) return; // a click: the element's own handler does the rest
    c.ghost.remove();
    // the viewer lets the pointer through while carrying: a hex under it may take the drop
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    document.body.classList.remove("carrying");
    if (!under || !$("map").contains(under)) {
      say("dropped outside the map: nothing ordered", "warn");
      return;
    }
    guarded(() => dropped(c, ev, under));
  });
}

async function dropped(c, ev, under) {
  const mark = under.closest("circle.mark");
  const counter = under.closest("g.unit");
  let hex = mark ? mark.dataset.hex : counter ? counter.dataset.hex : null;
  if (!hex) {
    const p = toSvg(ev);
    hex = (await ask("/api/at", { window: view.window, x: p.x.toFixed(1), y: p.y.toFixed(1) })).hex;
  }
  if (!hex) {
    say("dropped where the map draws no hex: nothing ordered", "warn");
    return;
  }
  if (c.what === "waiting") {
    if (!view.placing || view.placing.key !== c.key) await chooseWaiting(c.key);
    if (!view.placing || !(hex in view.placing.rooms)) {
      say(`${c.label} cannot be placed in ${hex}: only the lit hexes take it`, "error");
      return;
    }
    await offerPlacing(hex);
    return;
  }
  if (hex === c.from) {
    say(`${c.label} dropped where it stands: nothing ordered`, "warn");
    return;
  }
  offerMoves(await ask("/api/drop", { unit: c.ids.join(","), to: hex, window: view.window }), c.label);
}

// The orders a drop makes, shown for confirmation: one click adds them all.
function offerMoves(r, what) {
  clearSelection();
  view.marks = r.at;
  view.scale = r.scale;
  drawMarks(r.hex);
  $("selection").textContent = `${what} dropped on ${r.hex}`;
  if (!r.orders.length) {
    say(r.refused.length === 1 ? r.refused[0] : `none can go to ${r.hex}: ${r.refused.join("; ")}`, "error");
    return;
  }
  const e = document.createElement("li");
  e.className = "note";
  const add = document.createElement("button");
  add.id = "dropadd";
  add.textContent = r.orders.length === 1 ? "Add to My turn" : `Add these ${r.orders.length} orders to My turn`;
  add.onclick = () => guarded(() => give(r.orders));
  const lines = document.createElement("ul");
  lines.id = "droporders";
  lines.append(...r.orders.map((t) => li(t)));
  e.append(para(`the engine's order(s) to ${r.hex}:`), lines);
  if (r.refused.length) e.append(para(`cannot go: ${r.refused.join("; ")}`));
  e.append(add);
  $("choices").replaceChildren(e);
  e.scrollIntoView({ block: "nearest" });
  say(r.refused.length ? `${r.refused.length} of them cannot go there: see Orders` : "", r.refused.length ? "warn" : "ok");
}
