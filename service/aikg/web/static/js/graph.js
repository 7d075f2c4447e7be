// The graph view: the whole graph or one entity's neighbourhood, drawn with Cytoscape.js and fCoSE,
// coloured by type family, with deals and results as nodes or folded into edges.
//
// Every view is capped by the server (the closest and best-connected nodes; /api/graph and
// /api/entities/<id>/neighbors say what was left out), so a hub such as NVIDIA stays readable.
// Clicking a node adds its own neighbours to the drawing; double-clicking (or "Open its page") opens
// its page.
import { api, colorOf, dot, el, entityHref, familyLabel, familyOf, FAMILIES, param, slugOf, typeLabels } from "./common.js";
import { attachSearch } from "./search.js";

cytoscape.use(cytoscapeFcose);

const container = document.getElementById("cy");
const stats = document.getElementById("graph-stats");
const focusInput = document.getElementById("focus");
const depthSelect = document.getElementById("depth");
const foldBox = document.getElementById("fold");
const labelsBox = document.getElementById("labels");
const selected = document.getElementById("selected");
const state = {
  focus: slugOf(param("focus", "")) || "",
  depth: param("depth", "2"),
  fold: param("fold", "") === "1" || param("fold", "") === "true",
  hidden: new Set((param("hide", "") || "").split(",").filter(Boolean)),
  view: null, // {truncated, total, shown} of the last drawing
  expanded: new Set(),
};
const only = param("families");
if (only) for (const f of FAMILIES) if (!only.split(",").includes(f.key)) state.hidden.add(f.key);

const HIDDEN_TYPES = new Set(["aikg:ValueQualification", "https://w3id.org/aikg/ontology#ValueQualification"]);
// Qualifications (≈, ≤ …) of a figure are shown on entity pages; as nodes they would only add clutter.

const SHAPES = { deal: "diamond", benchmark: "round-rectangle", facility: "hexagon", hardware: "round-tag",
  source: "rectangle", event: "round-triangle", person: "ellipse" };

const VIEW_NODES = 250; // a neighbourhood
const WHOLE_NODES = 600; // the whole graph
const EXPAND_NODES = 40; // neighbours added by one click

/** Turn Cytoscape.js elements into the ones the view styles: entities only, each with its family. */
export function prepare(body, focusSlug) {
  const { nodes, edges } = body.elements;
  const keep = new Map();
  for (const n of nodes) {
    const d = n.data;
    const slug = slugOf(d.id);
    const types = d.types.split(" ");
    if (!slug || types.some((t) => HIDDEN_TYPES.has(t))) continue;
    const family = familyOf(types);
    keep.set(d.id, {
      group: "nodes",
      data: { id: d.id, slug, label: d.label || slug, family, color: colorOf(family), types: d.types,
        shape: SHAPES[family] || "ellipse", focus: slug === focusSlug ? 1 : 0 },
    });
  }
  const out = [...keep.values()];
  for (const e of edges) {
    const d = e.data;
    if (!keep.has(d.source) || !keep.has(d.target)) continue;
    out.push({ group: "edges", data: { id: `${d.id}`, source: d.source, target: d.target, label: d.label } });
  }
  return out;
}

const STYLE = [
  { selector: "node", style: {
    "background-color": "data(color)", shape: "data(shape)", label: "data(label)",
    width: "mapData(degree, 1, 25, 16, 46)", height: "mapData(degree, 1, 25, 16, 46)",
    "font-size": "mapData(degree, 1, 20, 10, 20)", color: "#1d2430", "text-valign": "bottom", "text-margin-y": 4,
    "text-outline-color": "#fff", "text-outline-width": 2, "min-zoomed-font-size": 8,
    "border-width": 1, "border-color": "#fff" } },
  { selector: "node.quiet", style: { label: "" } },
  { selector: "node[focus = 1]", style: { "border-width": 4, "border-color": "#17202e", "font-weight": "bold", "font-size": 13 } },
  { selector: "node.expanded", style: { "border-width": 3, "border-color": "#2e6fd8", "border-style": "double" } },
  { selector: "node:selected", style: { "overlay-opacity": 0.18, "overlay-color": "#2e6fd8", label: "data(label)", "z-index": 30 } },
  { selector: "node:active, node.hover", style: { "overlay-opacity": 0.12, label: "data(label)", "z-index": 20 } },
  { selector: "edge", style: {
    width: 1.2, "line-color": "#c3cad4", "curve-style": "haystack", "haystack-radius": 0, opacity: 0.8,
    "font-size": 9, color: "#5d6878", "text-rotation": "autorotate", "text-background-color": "#fff",
    "text-background-opacity": 0.85, "text-background-padding": 1 } },
  { selector: "edge.hover", style: { label: "data(label)", "line-color": "#2e6fd8", width: 2.4, "z-index": 10,
    "curve-style": "bezier", "target-arrow-shape": "triangle", "target-arrow-color": "#2e6fd8", opacity: 1 } },
  { selector: ".filtered", style: { display: "none" } },
];

const cy = cytoscape({ container, style: STYLE, minZoom: 0.05, maxZoom: 4, hideEdgesOnViewport: true,
  textureOnViewport: true, pixelRatio: 1 });
window.aikgGraph = cy;

const tooltip = el("div", { class: "tooltip", hidden: true });
container.append(tooltip);

cy.on("tap", "node", (ev) => { select(ev.target); expand(ev.target); });
cy.on("dbltap", "node", (ev) => {
  const href = entityHref(ev.target.data("slug"));
  if (href) location.href = href;
});
cy.on("tap", (ev) => { if (ev.target === cy) select(null); });
cy.on("mouseover", "node", (ev) => {
  const n = ev.target;
  n.addClass("hover");
  n.connectedEdges().addClass("hover");
  container.style.cursor = "pointer";
  const p = n.renderedPosition();
  const more = state.expanded.has(n.id()) ? "double-click to open" : "click to add its neighbours · double-click to open";
  tooltip.textContent = `${n.data("label")} · ${familyLabel(n.data("family"))} — ${more}`;
  tooltip.style.left = `${Math.min(p.x + 12, container.clientWidth - 260)}px`;
  tooltip.style.top = `${Math.max(p.y - 30, 4)}px`;
  tooltip.hidden = false;
});
cy.on("mouseout", "node", (ev) => {
  ev.target.removeClass("hover");
  ev.target.connectedEdges().removeClass("hover");
  container.style.cursor = "";
  tooltip.hidden = true;
});
cy.on("mouseover", "edge", (ev) => ev.target.addClass("hover"));
cy.on("mouseout", "edge", (ev) => ev.target.removeClass("hover"));

/** The side panel's "selected node": its name, kind, neighbours, a link to its page. */
function select(n) {
  if (!n) { selected.hidden = true; return; }
  cy.nodes().unselect();
  n.select();
  const slug = n.data("slug");
  selected.hidden = false;
  selected.dataset.slug = slug;
  selected.replaceChildren(
    el("h3", {}, dot(n.data("family")), n.data("label")),
    el("p", { class: "muted" }, typeLabels(n.data("types").split(" ")).join(", ") || familyLabel(n.data("family"))),
    el("p", { class: "selected-state" }, state.expanded.has(n.id()) ? `${n.degree()} links drawn` : "Adding its neighbours…"),
    el("div", { class: "toolbar" },
      el("a", { class: "btn primary", href: entityHref(slug), id: "open-selected" }, "Open its page →"),
      el("a", { class: "btn", href: `/graph?focus=${encodeURIComponent(slug)}&depth=1${state.fold ? "&fold=1" : ""}` }, "Centre on it")));
}

function placeAround(center, added) {
  const c = center.position();
  const r = 60 + 8 * Math.sqrt(added.length);
  added.forEach((n, i) => {
    const a = (2 * Math.PI * i) / added.length;
    n.position({ x: c.x + r * Math.cos(a), y: c.y + r * Math.sin(a) });
  });
}

/** Add a node's own neighbours (those not drawn yet, the closest and best connected first). */
async function expand(n) {
  const id = n.id();
  if (state.expanded.has(id)) return;
  state.expanded.add(id);
  n.addClass("expanded");
  container.dataset.expanding = id;
  let body;
  try {
    body = await api(`/api/entities/${encodeURIComponent(n.data("slug"))}/neighbors?depth=1&limit=${EXPAND_NODES + cy.nodes().length}${state.fold ? "&fold=true" : ""}`);
  } catch (err) {
    stats.textContent = `Could not add the neighbours of ${n.data("label")}: ${err.message}`;
    delete container.dataset.expanding;
    return;
  }
  const els = prepare(body, state.focus);
  const fresh = els.filter((e) => e.group === "nodes" && cy.getElementById(e.data.id).empty()).slice(0, EXPAND_NODES);
  const freshIds = new Set(fresh.map((e) => e.data.id));
  const edges = els.filter((e) => e.group === "edges" && cy.getElementById(e.data.id).empty()
    && (freshIds.has(e.data.source) || !cy.getElementById(e.data.source).empty())
    && (freshIds.has(e.data.target) || !cy.getElementById(e.data.target).empty()));
  const added = cy.add([...fresh, ...edges]);
  placeAround(n, added.nodes());
  cy.nodes().forEach((x) => x.data("degree", x.degree()));
  applyFilter();
  applyLabels();
  if (added.nodes().length) cy.animate({ fit: { eles: n.closedNeighborhood(), padding: 40 } }, { duration: 250 });
  const note = selected.querySelector(".selected-state");
  if (note && selected.dataset.slug === n.data("slug")) {
    note.textContent = added.nodes().length ? `${added.nodes().length} neighbours added` : "All its neighbours are drawn";
  }
  container.dataset.added = String(added.nodes().length);
  delete container.dataset.expanding;
}

function viewQuery() {
  const q = new URLSearchParams();
  if (state.focus) q.set("depth", state.depth);
  if (state.fold) q.set("fold", "true");
  q.set("limit", String(state.focus ? VIEW_NODES : WHOLE_NODES));
  return q;
}

/** The nodes drawn and not hidden: what "Download this view" sends (POST: hundreds outgrow a URL). */
function shownNodes() {
  return cy.nodes().not(".filtered").map((n) => n.data("slug"));
}

const downloads = document.getElementById("downloads");
downloads.addEventListener("submit", () => {
  downloads.elements.nodes.value = shownNodes().join(" ");
  downloads.elements.fold.value = state.fold ? "true" : "false";
});

function syncUrl() {
  const q = new URLSearchParams();
  if (state.focus) { q.set("focus", state.focus); q.set("depth", state.depth); }
  if (state.fold) q.set("fold", "1");
  if (state.hidden.size) q.set("hide", [...state.hidden].join(","));
  history.replaceState(null, "", `${location.pathname}${q.toString() ? "?" + q : ""}`);
}

function applyFilter() {
  cy.batch(() => {
    cy.nodes().forEach((n) => n.toggleClass("filtered", state.hidden.has(n.data("family"))));
  });
  updateStats();
}

function applyLabels() {
  const all = labelsBox.checked || cy.nodes().length <= 60; // small drawings have room for every label
  cy.batch(() => cy.nodes().forEach((n) => n.toggleClass("quiet", !all && n.degree() < 3 && !n.data("focus"))));
}

function updateStats() {
  const shown = cy.nodes().not(".filtered");
  const nodes = shown.length;
  const edges = cy.edges().filter((e) => !e.source().hasClass("filtered") && !e.target().hasClass("filtered")).length;
  container.dataset.nodes = String(nodes);
  container.dataset.edges = String(edges);
  const where = state.focus ? `around ${focusInput.value || state.focus}, ${state.depth} hop(s)` : "whole graph";
  const v = state.view;
  const cut = v && v.truncated
    ? ` — the ${v.shown.toLocaleString("en-US")} ${state.focus ? "closest and best-connected" : "best-connected"} of ${v.total.toLocaleString("en-US")}; click a node to add its neighbours`
    : "";
  stats.textContent = `${nodes} nodes · ${edges} edges — ${where}${cut}`;
  document.getElementById("downloads-what").textContent = `The ${nodes} nodes drawn and the ${edges} edges between them`
    + (state.hidden.size ? " (hidden types left out)." : ".");
  container.dataset.truncated = String(Boolean(v && v.truncated));
  if (v) container.dataset.total = String(v.total);
}

function renderFilters() {
  const counts = {};
  cy.nodes().forEach((n) => { counts[n.data("family")] = (counts[n.data("family")] || 0) + 1; });
  const box = document.getElementById("type-filters");
  box.replaceChildren(...FAMILIES.filter((f) => counts[f.key]).map((f) => {
    const cb = el("input", { type: "checkbox", "data-family": f.key });
    cb.checked = !state.hidden.has(f.key);
    cb.addEventListener("change", () => {
      if (cb.checked) state.hidden.delete(f.key); else state.hidden.add(f.key);
      applyFilter();
      syncUrl();
    });
    return el("label", {}, cb, dot(f.key), f.label, el("span", { class: "count" }, String(counts[f.key])));
  }));
}

async function draw() {
  container.dataset.ready = "false";
  stats.textContent = "Loading…";
  select(null);
  syncUrl();
  let body;
  try {
    const q = viewQuery().toString();
    body = await api(state.focus ? `/api/entities/${encodeURIComponent(state.focus)}/neighbors?${q}` : `/api/graph?${q}`);
  } catch (err) {
    stats.textContent = `Could not load the graph: ${err.message}`;
    return;
  }
  cy.elements().remove();
  if (state.focus && body.label) focusInput.value = body.label;
  state.expanded = new Set();
  state.view = { truncated: body.truncated, total: body.total, shown: body.shown };
  const els = prepare(body, state.focus);
  const spread = 40 * Math.sqrt(els.length + 1);
  for (const e of els) if (e.group === "nodes") e.position = { x: Math.random() * spread, y: Math.random() * spread };
  cy.add(els);
  cy.nodes().forEach((n) => n.data("degree", n.degree()));
  if (state.focus) {
    const f = cy.nodes("[focus = 1]");
    if (f.length) { state.expanded.add(f.id()); f.addClass("expanded"); }
  }
  renderFilters();
  applyFilter();
  applyLabels();
  const n = cy.nodes().length;
  const layout = cy.layout({
    name: n > 1 ? "fcose" : "grid", quality: n > 300 ? "draft" : "default", animate: false, randomize: true,
    nodeSeparation: 120, idealEdgeLength: () => 110, nodeRepulsion: () => 22000, edgeElasticity: () => 0.3,
    gravity: 0.2, gravityRange: 3.8, numIter: n > 300 ? 1200 : 2500, packComponents: true, padding: 30,
    nodeDimensionsIncludeLabels: n < 80,
  });
  layout.one("layoutstop", () => {
    const focus = cy.nodes("[focus = 1]");
    cy.fit(undefined, 30);
    if (focus.length && n > 60) cy.center(focus);
    updateStats();
    container.dataset.ready = "true";
  });
  layout.run();
}

attachSearch(document.querySelector("[data-focus-box]"), {
  onPick: (hit) => { state.focus = hit.slug; draw(); },
});
document.getElementById("apply").addEventListener("click", () => {
  if (!focusInput.value.trim()) state.focus = "";
  state.depth = depthSelect.value;
  state.fold = foldBox.checked;
  draw();
});
document.getElementById("whole").addEventListener("click", () => { state.focus = ""; focusInput.value = ""; draw(); });
document.getElementById("fit").addEventListener("click", () => cy.fit(cy.nodes().not(".filtered"), 30));
depthSelect.addEventListener("change", () => { state.depth = depthSelect.value; if (state.focus) draw(); });
foldBox.addEventListener("change", () => { state.fold = foldBox.checked; draw(); });
labelsBox.addEventListener("change", applyLabels);

depthSelect.value = state.depth;
foldBox.checked = state.fold;
if (state.focus) focusInput.value = state.focus;
draw();
