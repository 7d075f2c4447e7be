"""How soon the explorer shows something: first and largest contentful paint of its pages, in a real browser.

The target is a first meaningful paint within a second on the default store. It is measured here, for the
benchmark, never asserted in a test: headless Chromium (Debian's, never a downloaded one) driven by
Playwright opens each page in a fresh context (nothing cached) and reads the browser's own paint timing
(``first-contentful-paint``, and the last ``largest-contentful-paint`` entry before the page settles),
plus the moment the page's data is drawn (the entity page's relations, the home page's type counts).

Playwright is a test dependency (``pip install -e '.[test]'``), imported only when this runs.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

PAGES = ("/", "/id/nvidia")
"""The home page and the page of the largest hub on the default store."""

READY = {"/": "#type-counts .chip", "/id/": "#entity[data-loaded=true]"}
"""What shows a page's data is drawn, by path prefix (the longest that matches)."""

_OBSERVE = """
window.__aikgPaint = { lcp: null, data: null };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__aikgPaint.lcp = e.startTime;
}).observe({ type: "largest-contentful-paint", buffered: true });
const ready = %s;
if (ready) {
  const seen = new MutationObserver(() => {
    if (window.__aikgPaint.data === null && document.querySelector(ready)) {
      window.__aikgPaint.data = performance.now();
      seen.disconnect();
    }
  });
  seen.observe(document, { childList: true, subtree: true, attributes: true });
}
"""


def _ready_selector(path: str) -> str | None:
    best = max(
        (p for p in READY if path == p or (p.endswith("/") and p != "/" and path.startswith(p))),
        key=len,
        default=None,
    )
    return READY[best] if best else None


def paint_timings(
    base_url: str, paths: Sequence[str] = PAGES, *, runs: int = 3, viewport: tuple[int, int] = (1366, 900)
) -> dict[str, dict[str, Any]]:
    """For each path: median first contentful paint, largest contentful paint and data-drawn time in
    milliseconds over ``runs`` cold loads (and each run's figures), measured from navigation start."""
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, Any]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            for path in paths:
                samples = [
                    _one(browser, base_url.rstrip("/") + path, _ready_selector(path), viewport)
                    for _ in range(runs)
                ]
                out[path] = {
                    key: _median([s[key] for s in samples]) for key in ("fcp_ms", "lcp_ms", "data_ms")
                }
                out[path]["runs"] = samples
        finally:
            browser.close()
    return out


def _one(browser: Any, url: str, ready: str | None, viewport: tuple[int, int]) -> dict[str, float | None]:
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        page = context.new_page()
        page.add_init_script(_OBSERVE % json.dumps(ready))
        page.goto(url, wait_until="load", timeout=120_000)
        if ready:
            page.wait_for_selector(ready, state="attached", timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=120_000)
        data_ms = page.evaluate("window.__aikgPaint.data")
        fcp = page.evaluate(
            "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
        )
        lcp = page.evaluate("window.__aikgPaint.lcp")
        return {"fcp_ms": _round(fcp), "lcp_ms": _round(lcp), "data_ms": _round(data_ms)}
    finally:
        context.close()


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 1)


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 1) if known else None


if __name__ == "__main__":  # python -m aikg_bench.paint http://127.0.0.1:8000
    import sys

    print(json.dumps(paint_timings(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"), indent=2))
