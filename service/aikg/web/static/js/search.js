// Search with autocomplete over names and aliases (English and Chinese), grouped by type.
// Attaches to every [data-search-box]; suggestions come from /api/search.
import { api, dot, el, entityHref, familyLabel, familyOf, FAMILIES, typeLabels } from "./common.js";
import { askHref, askOption, looksLikeQuestion } from "./ask-link.js";

/** One hit of /api/search ({id, iri, label, matched, types}) with its colour family. */
export function normalizeHit(hit) {
  const matched = hit.matched && hit.matched !== hit.label ? hit.matched : null;
  return { iri: hit.iri, slug: hit.id, types: hit.types, label: hit.label, matched, family: familyOf(hit.types) };
}

/** Hits of a search response. */
export function hitsOf(body) {
  return body.results.map(normalizeHit);
}

export async function search(q, { type = "", limit = 20 } = {}) {
  const params = new URLSearchParams({ q, limit: String(limit) });
  if (type) params.set("type", type);
  return hitsOf(await api(`/api/search?${params}`));
}

/** Group hits by type family, in the families' order. */
export function groupHits(hits) {
  const groups = new Map();
  for (const f of FAMILIES) groups.set(f.key, []);
  for (const h of hits) {
    if (!groups.has(h.family)) groups.set(h.family, []);
    groups.get(h.family).push(h);
  }
  return [...groups.entries()].filter(([, list]) => list.length);
}

function hitLine(h) {
  const kinds = typeLabels(h.types).join(", ");
  const alias = h.matched && h.matched !== h.label ? el("span", { class: "alias" }, `matched “${h.matched}”`) : null;
  return [dot(h.family), el("span", { class: "hit-label" }, h.label), alias, el("span", { class: "hit-type" }, kinds)];
}

/** Render grouped hits as a list of links (the home page's full results). */
export function renderGroups(hits) {
  if (!hits.length) return el("p", { class: "muted" }, "Nothing matches. Try another spelling, an abbreviation or the Chinese name.");
  return el("div", { class: "result-groups" }, groupHits(hits).map(([fam, list]) =>
    el("section", { class: "result-group" },
      el("h3", {}, dot(fam), familyLabel(fam), el("span", { class: "count" }, String(list.length))),
      el("ul", { class: "hits" }, list.map((h) => el("li", {}, el("a", { href: entityHref(h.slug) }, hitLine(h))))))));
}

/** Give a box autocomplete; with onPick, choosing a hit calls it instead of opening the entity page. */
export function attachSearch(box, { onPick = null } = {}) {
  const input = box.querySelector("input");
  const list = el("div", { class: "suggestions", role: "listbox", id: `sugg-${Math.random().toString(36).slice(2)}`, hidden: true });
  box.append(list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");
  let timer = null;
  let seq = 0;
  let active = -1;
  let options = [];

  const close = () => { list.hidden = true; input.setAttribute("aria-expanded", "false"); active = -1; };
  const highlight = (i) => {
    options.forEach((o, j) => o.classList.toggle("active", i === j));
    active = i;
    if (options[i]) options[i].scrollIntoView({ block: "nearest" });
  };

  async function update() {
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) { close(); return; }
    let hits;
    try {
      hits = await search(q, { limit: 20 });
    } catch (err) {
      if (mine !== seq) return;
      list.replaceChildren(el("div", { class: "sugg-empty" }, `Search failed: ${err.message}`));
      list.hidden = false;
      return;
    }
    if (mine !== seq) return;
    options = [];
    const groups = groupHits(hits).map(([fam, items]) => el("div", { class: "sugg-group" },
      el("div", { class: "sugg-head" }, familyLabel(fam)),
      items.map((h) => {
        const opt = el("a", { class: "sugg", role: "option", href: entityHref(h.slug), "data-slug": h.slug, "data-label": h.label }, hitLine(h));
        options.push(opt);
        return opt;
      })));
    const ask = onPick ? null : askOption(q); // ask hook: the question itself, last (not in parameter pickers)
    if (ask) options.push(ask);
    list.replaceChildren(...(groups.length ? groups : [el("div", { class: "sugg-empty" }, `No entity matches “${q}”.`)]), ...(ask ? [ask] : []));
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    active = -1;
  }

  function choose(opt) {
    if (!onPick) { location.href = opt.href; return; }
    close();
    input.value = opt.dataset.label;
    onPick({ slug: opt.dataset.slug, label: opt.dataset.label });
  }
  list.addEventListener("click", (ev) => {
    const opt = ev.target.closest(".sugg");
    if (opt && onPick) { ev.preventDefault(); choose(opt); }
  });

  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 120); });
  input.addEventListener("focus", () => { if (input.value.trim() && list.childElementCount) list.hidden = false; });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" && options.length) { ev.preventDefault(); highlight((active + 1) % options.length); }
    else if (ev.key === "ArrowUp" && options.length) { ev.preventDefault(); highlight((active - 1 + options.length) % options.length); }
    else if (ev.key === "Escape") close();
    else if (ev.key === "Enter") {
      if (active >= 0 && options[active]) { ev.preventDefault(); location.href = options[active].href; }
      else if (!onPick && looksLikeQuestion(input.value)) { ev.preventDefault(); location.href = askHref(input.value); } // ask hook
      else if (!box.hasAttribute("data-search-large") && options.length) { ev.preventDefault(); location.href = options[0].href; }
      else box.dispatchEvent(new CustomEvent("search-submit", { detail: input.value.trim() }));
    }
  });
  document.addEventListener("click", (ev) => { if (!box.contains(ev.target)) close(); });
}

document.querySelectorAll("[data-search-box]").forEach((box) => attachSearch(box));
