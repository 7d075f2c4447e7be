// The entity page's "Changes" panel: what Epoch AI's snapshots said of the entity before (values a newer
// snapshot replaced, an older one gave otherwise, or the newest file does not restate) and what each
// import changed, from /api/entities/<id>/history. Hidden when there is nothing to show.
import { api, el, showError } from "./common.js";

const SLUG = document.getElementById("entity").dataset.slug;
const PANEL = document.getElementById("history-panel");
const BOX = document.getElementById("history");
const STATUS = {
  replaced: "replaced", withdrawn: "withdrawn", "older-snapshot": "an older snapshot said",
  "not-restated": "not restated by the newest file",
};

const prop = (iri) => iri.split("#").pop();
const value = (v) => v.iri ? v.iri.split("/").pop() : v.value;

function record(h) {
  const when = h.replaced_on ? `, replaced on ${h.replaced_on}` : h.not_restated_on ? ` (file of ${h.not_restated_on})` : "";
  return el("li", { "data-status": h.status },
    `${prop(h.property)}: ${value(h.value)} — ${STATUS[h.status] || h.status}, stated on ${h.stated_on}${when}`,
    h.dataset ? el("span", { class: "muted" }, ` · ${h.dataset}`) : "");
}

function change(c) {
  const before = c.before.map(value).join(", ");
  const after = c.after.map(value).join(", ");
  return el("li", { "data-kind": c.kind },
    `${c.started.slice(0, 10)} · ${prop(c.property)}: ${c.kind}`,
    before ? ` ${before} (${c.before_snapshot || "?"})` : "", after ? ` → ${after} (${c.after_snapshot})` : "",
    c.difference ? ` [${c.difference}]` : "");
}

api(`/api/entities/${encodeURIComponent(SLUG)}/history`).then((body) => {
  if (!body.history.length && !body.changes.length) return;
  PANEL.hidden = false;
  BOX.replaceChildren(
    body.changes.length ? el("h3", {}, "What imports changed") : "",
    body.changes.length ? el("ul", { id: "history-changes" }, body.changes.slice(0, 200).map(change)) : "",
    body.history.length ? el("h3", {}, "What Epoch AI said before") : "",
    body.history.length ? el("ul", { id: "history-records" }, body.history.slice(0, 200).map(record)) : "");
}).catch((err) => { PANEL.hidden = false; showError(BOX, err, "the history"); });
