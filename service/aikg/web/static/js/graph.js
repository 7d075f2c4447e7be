// The graph view: the whole graph or one entity's neighbourhood, drawn with Cytoscape.js and fCoSE,
// coloured by type family, with deals and results as nodes or folded into edges.
import { api, colorOf, dot, el, entityHref, familyLabel, familyOf, FAMILIES, param, slugOf } from "./common.js";
import { attachSearch } from "./search.js";

cytoscape.use(cytoscapeFcose);

const container = document.getElementById("cy");
const stats = document.getElementById("graph-stats");
const focusInput = document.getElementById("focus");
const depthSelect = document.getElementById("depth");
const foldBox = document.getElementById("fold");
const labelsBox = document.getElementById("labels");
const state = {
  focus: slugOf(param("focus", "")) || "",
  depth: param("depth", "2"),
  fold: param("fold", "") === "1" || param("fold", "") === "true",
  hidden: new Set((param("hide", "") || "").split(",").filter(Boolean)),
};
const only = param("families");
if (only) for (const f of FAMILIES) if (!only.split(",").includes(f.key)) state.hidden.add(f.key);

const HIDDEN_TYPES = new Set(["aikg:ValueQualification", "https://w3id.org/aikg/ontology#ValueQualification"]);
// Qualifications (≈, ≤ …) of a figure are shown on entity pages; as nodes they would only add clutter.

const SHAPES = { deal: "diamond", benchmark: "round-rectangle", facility: "hexagon", hardware: "round-tag",
  source: "rectangle", event: "round-triangle", person: "ellipse" };

/** Turn the Cytoscape.js export into the elements the view styles: entities only, each with its family. */
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
      data: { id: d.id, slug, label: d.label || slug, family, color: colorOf(family),
        shape: SHAPES[family] || "ellipse", focus: slug === focusSlug ? 1 : 0 },
    });
  }
  const out = [...keep.values()];
  let i = 0;
  for (const e of edges) {
    const d = e.data;
    if (!keep.has(d.source) || !keep.has(d.target)) continue;
    out.push({ group: "edges", data: { id: `e${i++}`, source: d.source, target: d.target, label: d.label } });
  }
  return out;
}

const STYLE = [
  { selector: "node", style: {
    "background-color": "data(color)", shape: "data(shape)", label: "data(label)",
    width: "mapData(degree, 1, 25, 16, 46)", height: "mapData(degree, 1, 25, 16, 46)",
    "font-size": "mapData(degree, 1, 20, 10, 20)", color: "#1d2430", "text-valign": "bottom", "text-margin-y": 4,
    "text-outline-color": "#fff", "text-outline-width": 2, "min-zoomed-font-size": 7,
    "border-width": 1, "border-color": "#fff" } },
  { selector: "node.quiet", style: { label: "" } },
  { selector: "node[focus = 1]", style: { "border-width": 4, "border-color": "#17202e", "font-weight": "bold", "font-size": 13 } },
  { selector: "node:active, node.hover", style: { "overlay-opacity": 0.12, label: "data(label)", "z-index": 20 } },
  { selector: "edge", style: {
    width: 1.4, "line-color": "#c3cad4", "curve-style": "bezier", "target-arrow-shape": "triangle",
    "target-arrow-color": "#c3cad4", "arrow-scale": 0.8, "font-size": 9, color: "#5d6878",
    "text-rotation": "autorotate", "text-background-color": "#fff", "text-background-opacity": 0.85,
    "text-background-padding": 1 } },
  { selector: "edge.hover", style: { label: "data(label)", "line-color": "#2e6fd8", "target-arrow-color": "#2e6fd8", width: 2.4, "z-index": 10 } },
  { selector: ".filtered", style: { display: "none" } },
];

const cy = cytoscape({ container, style: STYLE, minZoom: 0.05, maxZoom: 4 });
window.aikgGraph = cy;

const tooltip = el("div", { class: "tooltip", hidden: true });
container.append(tooltip);

cy.on("tap", "node", (ev) => {
  const href = entityHref(ev.target.data("slug"));
  if (href) location.href = href;
});
cy.on("mouseover", "node", (ev) => {
  const n = ev.target;
  n.addClass("hover");
  n.connectedEdges().addClass("hover");
  container.style.cursor = "pointer";
  const p = n.renderedPosition();
  tooltip.textContent = `${n.data("label")} · ${familyLabel(n.data("family"))} — click to open`;
  tooltip.style.left = `${p.x + 12}px`;
  tooltip.style.top = `${p.y - 30}px`;
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

function exportQuery() {
  const q = new URLSearchParams();
  if (state.focus) { q.set("focus", state.focus); q.set("depth", state.depth); }
  if (state.fold) q.set("fold", "true");
  return q;
}

function syncUrl() {
  const q = new URLSearchParams();
  if (state.focus) { q.set("focus", state.focus); q.set("depth", state.depth); }
  if (state.fold) q.set("fold", "1");
  if (state.hidden.size) q.set("hide", [...state.hidden].join(","));
  history.replaceState(null, "", `${location.pathname}${q.toString() ? "?" + q : ""}`);
  for (const a of document.querySelectorAll("#downloads a")) {
    const s = exportQuery().toString();
    a.href = `/export/${a.dataset.format}${s ? "?" + s : ""}`;
  }
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
  const cut = state.cut ? ` (the ${MAX_WHOLE_GRAPH} best-connected nodes; pick an entity to see its neighbourhood)` : "";
  stats.textContent = `${nodes} nodes · ${edges} edges — ${where}${cut}`;
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

const MAX_WHOLE_GRAPH = 600;
// A force layout stays readable (and quick) up to a few hundred nodes; with imported datasets the whole
// graph has thousands, so the whole-graph view keeps the best-connected ones and says so.

function bestConnected(els, max) {
  const nodes = els.filter((e) => e.group === "nodes");
  if (nodes.length <= max) return els;
  const degree = {};
  for (const e of els) {
    if (e.group !== "edges") continue;
    degree[e.data.source] = (degree[e.data.source] || 0) + 1;
    degree[e.data.target] = (degree[e.data.target] || 0) + 1;
  }
  const keep = new Set(nodes.map((n) => n.data.id).sort((a, b) => (degree[b] || 0) - (degree[a] || 0)).slice(0, max));
  return els.filter((e) => (e.group === "nodes" ? keep.has(e.data.id) : keep.has(e.data.source) && keep.has(e.data.target)));
}

async function draw() {
  container.dataset.ready = "false";
  stats.textContent = "Loading…";
  syncUrl();
  let body;
  try {
    const q = exportQuery().toString();
    body = await api(`/export/cytoscape${q ? "?" + q : ""}`);
  } catch (err) {
    stats.textContent = `Could not load the graph: ${err.message}`;
    return;
  }
  cy.elements().remove();
  const prepared = prepare(body, state.focus);
  const els = state.focus ? prepared : bestConnected(prepared, MAX_WHOLE_GRAPH);
  state.cut = prepared.length - els.length;
  const spread = 40 * Math.sqrt(els.length + 1);
  for (const e of els) if (e.group === "nodes") e.position = { x: Math.random() * spread, y: Math.random() * spread };
  cy.add(els);
  cy.nodes().forEach((n) => n.data("degree", n.degree()));
  renderFilters();
  applyFilter();
  applyLabels();
  const n = cy.nodes().length;
  const layout = cy.layout({
    name: n > 1 ? "fcose" : "grid", quality: n > 400 ? "draft" : "default", animate: false, randomize: true,
    nodeSeparation: 120, idealEdgeLength: () => 110, nodeRepulsion: () => 22000, edgeElasticity: () => 0.3,
    gravity: 0.2, gravityRange: 3.8, numIter: 2500, packComponents: true, padding: 30, nodeDimensionsIncludeLabels: n < 80,
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
if (state.focus) {
  focusInput.value = state.focus;
  api(`/api/entities/${state.focus}`).then((e) => { if (e?.label) { focusInput.value = e.label; updateStats(); } }, () => {});
}
draw();
