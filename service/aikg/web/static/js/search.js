// Search with autocomplete over names and aliases (English and Chinese), in /api/search's ranking:
// an exact or alias match first, then prefix matches, then the rest. Each hit says what it is, who makes
// or is party to it and its year, so namesakes (a company, its clusters, its deals) are told apart.
//
// The box is an ARIA 1.2 combobox: the input keeps focus, arrow keys move the active option
// (aria-activedescendant), Enter opens the active option or else the best match, Escape closes.
// Other modules may append entries of their own below the hits with addSuggestionSource(); the last
// entry asks the text as a question in plain words, and Enter asks it when it reads as a question.
import { askHref, looksLikeQuestion } from "./ask-link.js";
import { api, dot, el, entityHref, familyLabel, familyOf, typeLabels } from "./common.js";

/** One hit of /api/search with its colour family and its description line. */
export function normalizeHit(hit) {
  const matched = hit.matched && hit.matched !== hit.label ? hit.matched : null;
  return {
    iri: hit.iri, slug: hit.id, types: hit.types, label: hit.label, matched, match: hit.match,
    family: familyOf(hit.types), description: hit.description || typeLabels(hit.types).join(", "),
  };
}

/** Hits of a search response, best first. */
export function hitsOf(body) {
  return body.results.map(normalizeHit);
}

export async function search(q, { type = "", limit = 20 } = {}) {
  const params = new URLSearchParams({ q, limit: String(limit) });
  if (type) params.set("type", type);
  return hitsOf(await api(`/api/search?${params}`));
}

/** Hits grouped by colour family, the groups in the order of their best hit (so grouping never
 * pushes a better hit below a worse one's group). */
export function groupHits(hits) {
  const groups = new Map();
  for (const h of hits) {
    if (!groups.has(h.family)) groups.set(h.family, []);
    groups.get(h.family).push(h);
  }
  return [...groups.entries()];
}

/** What a hit shows: a dot of its family, its name (and the alias that matched), its description. */
export function hitContent(h) {
  // A misspelt query matched no name: its hits are the closest spellings, said so, not passed off as matches.
  const alias = h.match === "misspelt" ? el("span", { class: "alias" }, "closest spelling")
    : h.matched ? el("span", { class: "alias" }, `matched “${h.matched}”`) : null;
  return [dot(h.family),
    el("span", { class: "hit-text" },
      el("span", { class: "hit-name" }, el("span", { class: "hit-label" }, h.label), alias),
      el("span", { class: "hit-desc" }, h.description))];
}

const SHOWN_PER_GROUP = 5;

/** The home page's full results: the best matches in rank order, then every hit by kind. */
export function renderResults(hits, q) {
  if (!hits.length) {
    return el("p", { class: "muted" }, `Nothing matches “${q}”. Try another spelling, an abbreviation or the Chinese name.`);
  }
  const best = hits.slice(0, 8);
  const groups = groupHits(hits);
  return el("div", { class: "results" },
    el("ol", { class: "hits best", "aria-label": "Best matches" },
      best.map((h) => el("li", {}, el("a", { href: entityHref(h.slug), "data-slug": h.slug }, hitContent(h))))),
    groups.length > 1 ? el("h3", { class: "by-kind" }, "By kind") : null,
    groups.length > 1 ? el("div", { class: "result-groups" }, groups.map(([fam, list]) => {
      const items = list.map((h, i) => el("li", { hidden: i >= SHOWN_PER_GROUP }, el("a", { href: entityHref(h.slug), "data-slug": h.slug }, hitContent(h))));
      const more = list.length > SHOWN_PER_GROUP ? el("button", { type: "button", class: "btn more" }, `Show all ${list.length}`) : null;
      more?.addEventListener("click", () => { items.forEach((li) => { li.hidden = false; }); more.remove(); });
      return el("section", { class: "result-group", "data-family": fam },
        el("h4", {}, dot(fam), familyLabel(fam), el("span", { class: "count" }, String(list.length))),
        el("ul", { class: "hits" }, items), more);
    })) : null);
}

// ---------------------------------------------------------------------------------------------------
// Extra entries: a module may offer entries of its own for what was typed (e.g. "Ask: …" for a
// question in plain words). A source is fn(q) returning (a promise of) a list of
// {label, detail?, href?, onChoose?(q), class?}; its entries follow the hits and the "all results"
// entry, in the boxes that open pages (not in pickers).
// ---------------------------------------------------------------------------------------------------

/** The ask hook: the text itself as a question, always offered last. */
const ASK = (q) => [{ label: `Ask: “${q}”`, detail: "in plain words", href: askHref(q), class: "sugg-ask" }];

const EXTRA_SOURCES = [];

export function addSuggestionSource(source) {
  EXTRA_SOURCES.push(source);
}

async function extrasFor(q) {
  const lists = await Promise.all([...EXTRA_SOURCES, ASK].map(async (source) => {
    try { return (await source(q)) || []; } catch { return []; }
  }));
  return lists.flat();
}

let boxes = 0;

/** Give a box autocomplete. Without onPick choosing a hit opens its page; with onPick it calls
 * onPick({slug, label}) instead (the graph's focus box, query parameters). */
export function attachSearch(box, { onPick = null, limit = 10 } = {}) {
  const input = box.querySelector("input");
  const n = ++boxes;
  const list = el("div", { class: "suggestions", role: "listbox", id: `sugg-${n}`, "aria-label": "Suggestions", hidden: true });
  const status = el("div", { class: "sr-only", role: "status", "aria-live": "polite" });
  box.append(list, status);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("autocomplete", "off");
  let timer = null;
  let seq = 0;
  let shownFor = null; // the text the listed options are for
  let picked = null; // the label onPick was last called with
  let active = -1;
  let options = []; // {node, hit?, extra?}

  const setActive = (i) => {
    options.forEach((o, j) => {
      o.node.classList.toggle("active", i === j);
      o.node.setAttribute("aria-selected", String(i === j));
    });
    active = i;
    if (options[i]) {
      input.setAttribute("aria-activedescendant", options[i].node.id);
      options[i].node.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    setActive(-1);
  };
  const open = () => {
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  function option(content, attrs, entry) {
    const node = el("a", { class: "sugg", role: "option", id: `sugg-${n}-${options.length}`, "aria-selected": "false", tabindex: "-1", ...attrs }, content);
    options.push({ node, ...entry });
    return node;
  }

  async function update() {
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) { close(); shownFor = null; list.replaceChildren(); return; }
    let hits;
    let extras;
    try {
      [hits, extras] = await Promise.all([search(q, { limit }), onPick ? [] : extrasFor(q)]);
    } catch (err) {
      if (mine !== seq) return;
      options = [];
      list.replaceChildren(el("div", { class: "sugg-empty" }, `Search failed: ${err.message}`));
      open();
      return;
    }
    if (mine !== seq) return;
    options = [];
    const nodes = hits.map((h) => option(hitContent(h), { href: entityHref(h.slug), "data-slug": h.slug, "data-label": h.label }, { hit: h }));
    if (!nodes.length) nodes.push(el("div", { class: "sugg-empty" }, `No entity matches “${q}”.`));
    if (!onPick && hits.length) {
      nodes.push(option(el("span", { class: "sugg-all-text" }, `All results for “${q}”`), { class: "sugg sugg-all", href: `/?q=${encodeURIComponent(q)}` }, {}));
    }
    for (const x of extras) {
      nodes.push(option([el("span", { class: "hit-label" }, x.label), x.detail ? el("span", { class: "hit-desc" }, x.detail) : null],
        { class: `sugg sugg-extra${x.class ? " " + x.class : ""}`, href: x.href || null }, { extra: x }));
    }
    list.replaceChildren(...nodes);
    shownFor = q;
    open();
    setActive(-1);
    status.textContent = hits.length
      ? `${hits.length} suggestion${hits.length === 1 ? "" : "s"}; the first is ${hits[0].label}, ${hits[0].description}. Enter opens it.`
      : `No entity matches ${q}.`;
  }

  function choose(entry) {
    if (entry.extra) {
      close();
      if (entry.extra.onChoose) entry.extra.onChoose(input.value.trim());
      else if (entry.extra.href) location.href = entry.extra.href;
      return;
    }
    if (!entry.hit) { location.href = entry.node.getAttribute("href"); return; }
    if (!onPick) { location.href = entityHref(entry.hit.slug); return; }
    close();
    input.value = picked = entry.hit.label;
    onPick({ slug: entry.hit.slug, label: entry.hit.label });
  }

  /** Enter without an active option: the best match for what is typed now (asked for at once if the
   * listed suggestions are for older text), else the full results. Text that reads as a question is
   * asked (the ask hook), unless it is exactly the name of an entity ("Google New Albany Ohio"). */
  async function chooseBest() {
    const q = input.value.trim();
    if (!q) return;
    clearTimeout(timer);
    let best = shownFor === q ? options.find((o) => o.hit) : undefined;
    if (shownFor !== q) {
      const mine = ++seq;
      try {
        const hits = await search(q, { limit: 1 });
        if (mine !== seq && input.value.trim() !== q) return;
        best = hits.length ? { hit: hits[0] } : undefined;
      } catch {
        best = undefined;
      }
    }
    if (!onPick && looksLikeQuestion(q) && !(best && best.hit.match === "exact")) location.href = askHref(q);
    else if (best) choose(best);
    else if (!onPick) location.href = `/?q=${encodeURIComponent(q)}`;
  }

  list.addEventListener("mousedown", (ev) => ev.preventDefault()); // keep focus in the input
  list.addEventListener("click", (ev) => {
    const node = ev.target.closest(".sugg");
    const entry = options.find((o) => o.node === node);
    if (!entry) return;
    ev.preventDefault();
    choose(entry);
  });
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 100); });
  input.addEventListener("focus", () => { if (input.value.trim() && options.length) open(); });
  input.addEventListener("blur", () => setTimeout(close, 150));
  input.addEventListener("keydown", (ev) => {
    const visible = !list.hidden && options.length;
    if (ev.key === "ArrowDown") {
      ev.preventDefault();
      if (!visible) { if (options.length) open(); else update(); return; }
      setActive((active + 1) % options.length);
    } else if (ev.key === "ArrowUp" && visible) {
      ev.preventDefault();
      setActive((active - 1 + options.length) % options.length);
    } else if (ev.key === "Escape") {
      if (!list.hidden) { ev.preventDefault(); close(); } else if (input.value) { input.value = ""; }
    } else if (ev.key === "Enter") {
      if (onPick && !visible && input.value.trim() === picked) return; // chosen already: let the form submit
      ev.preventDefault();
      if (visible && active >= 0) choose(options[active]);
      else chooseBest();
    }
  });
}

document.querySelectorAll("[data-search-box]").forEach((box) => attachSearch(box));
