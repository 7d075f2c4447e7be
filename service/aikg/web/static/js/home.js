// The front page: the full, ranked results for ?q= (best matches, then by kind) and a count of what
// the graph holds.
import { api, colorOf, dot, el, familyOf, param, showError } from "./common.js";
import { renderResults, search } from "./search.js";

const INTERNAL = new Set(["Rule", "ValueQualification"]); // bookkeeping classes, not things people look for
const input = document.getElementById("q");
const results = document.getElementById("results");

async function showResults(q) {
  if (!q) { results.hidden = true; return; }
  document.getElementById("results-q").textContent = q;
  const body = document.getElementById("results-body");
  results.hidden = false;
  try {
    body.replaceChildren(renderResults(await search(q, { limit: 100 }), q));
  } catch (err) {
    showError(body, err, "Search failed");
  }
}

const initial = param("q");
if (initial) { input.value = initial; showResults(initial); }

async function overview() {
  const target = document.getElementById("type-counts");
  try {
    const body = await api("/api/types");
    const chips = body.types
      .filter((t) => t.direct > 0 && familyOf([t.iri]) !== "other" && !INTERNAL.has(t.name))
      .sort((a, b) => b.direct - a.direct)
      .map((t) => {
        const fam = familyOf([t.iri]);
        return el("a", { class: "chip", href: `/graph?families=${fam}`, title: `${t.direct} × ${t.label}`, style: { borderLeftColor: colorOf(fam) } },
          dot(fam), t.label, el("span", { class: "count" }, String(t.direct)));
      });
    target.replaceChildren(...(chips.length ? chips : [el("p", { class: "muted" }, "The graph is empty.")]));
  } catch (err) {
    showError(target, err, "Could not count types");
  }
}
overview();
