// How the header search box hands a question to the ask page: an "Ask: …" entry for the dropdown, and
// whether text reads as a question (Enter then asks it) rather than as a name (Enter opens the entity).
import { el } from "./common.js";

const QUESTION_WORDS = /^(who|whom|whose|what|which|when|where|why|how|is|are|does|do|did|can|list|show|tell|give|find)\b/i;
const CHINESE_QUESTION = /[吗呢哪谁几]|什么|多少|怎么|如何|是否|有没有|为什么/;

/** True when the text reads as a question rather than a name. */
export function looksLikeQuestion(text) {
  const t = String(text || "").trim();
  if (!t) return false;
  if (/[?？]\s*$/.test(t) || QUESTION_WORDS.test(t) || CHINESE_QUESTION.test(t)) return true;
  return t.split(/\s+/).length >= 4;
}

/** The ask page's address for a question. */
export function askHref(text) {
  return `/ask?${new URLSearchParams({ q: String(text).trim() })}`;
}

/** The dropdown's last entry: ask the text as a question. */
export function askOption(text) {
  return el("a", { class: "sugg sugg-ask", role: "option", href: askHref(text), "data-ask": "true" },
    el("span", { class: "hit-label" }, "Ask: “", text, "”"), el("span", { class: "hit-type" }, "in plain words"));
}
