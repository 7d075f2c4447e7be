"""Asking in plain words: ``GET /api/ask?q=`` (JSON) and the explorer's ask page ``/ask?q=``.

One :class:`aikg.ask.Asker` per app, made on first use from the app's services (store, search index,
named queries and their runner, entity lookups), kept on the app; a served app makes it in the background
soon after it starts (:func:`warm_up`), so the first question does not pay for it.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from aikg.ask import Asker
from aikg.ask.asker import MAX_QUESTION
from aikg.errors import AikgError
from aikg.rdf.formats import JSON
from aikg.services import Services
from aikg.web import get_services, shapes
from aikg.web.describe import IF_NONE_MATCH, cached_ok, errors, get_operation, ref
from aikg.web.negotiation import negotiate
from aikg.web.params import TextParam, documented
from aikg.web.response_cache import cached

bp = Blueprint("ask", __name__, template_folder="templates")

ASKER_KEY = "aikg.asker"
MAX_AFTER = 1000
"""Longest previous question a follow-up carries, in characters."""
QUESTION = TextParam(
    "q",
    "The question, e.g. 'who runs NVIDIA-only capacity' or 'GB300 的显存是多少?'.",
    required=True,
    not_blank=True,
    max_length=MAX_QUESTION,
    missing="a question in plain words",
)
AFTER = TextParam(
    "after", "The question asked before, for a follow-up ('and in Japan?').", max_length=MAX_AFTER
)


_MAKING = threading.Lock()
WARM_QUESTION = "What is the TDP of the H100 PCIe?"
"""Asked once by :func:`warm_up`: it reads the lexicons, the entity index and the named queries' examples
that every later question uses (the first question of a worker took 4-5 s on a busy machine, past the
request's 5 s limit: 503 for the first asks after a restart)."""


def get_asker() -> Asker:
    """The app's asker (its router is trained on first use)."""
    return _asker_of(current_app)


def _asker_of(app: Flask) -> Asker:
    asker = app.extensions.get(ASKER_KEY)
    if asker is None:
        with _MAKING:  # made once, by the first request or the warm-up, whichever comes first
            asker = app.extensions.get(ASKER_KEY)
            if asker is None:
                with app.app_context():
                    asker = app.extensions[ASKER_KEY] = Asker.for_services(get_services())
    return asker


def warm_up(app: Flask) -> None:
    """Make the app's asker and read one question with it, outside any request (no time limit); if the
    store cannot answer yet, the first question makes it as before."""
    with contextlib.suppress(AikgError), app.app_context():
        _asker_of(app).ask(WARM_QUESTION)


def _ask_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Ask in plain words",
        "A question in English or Chinese, read into a logical form over the ontology (a fact, a "
        "comparison, a ranking, a count, a sum, a list, provenance) compiled to SPARQL, or understood as "
        "a named query with its parameters filled, and answered with the sources of every row or fact; "
        "or an abstention (abstained: true) with the closest questions aikg can answer.",
        {
            **cached_ok(ref(shapes.AskResponse), "What was understood, and the answer or abstention."),
            **errors(400, 406, 429, 503),
        },
        [
            QUESTION.describe(),
            AFTER.describe(),
            IF_NONE_MATCH,
        ],
        tags=["lookup"],
    )


@bp.get("/api/ask")
@documented(_ask_doc)
@cached
def ask() -> Response:
    """A question in plain words (English or Chinese): what aikg understood, and its answer or abstention;
    ``after`` is the question asked before it, for a follow-up ("and in Japan?")."""
    negotiate((JSON,))  # 406 unless the client takes JSON
    q = QUESTION.read(request.args.get("q")) or ""
    after = AFTER.read(request.args.get("after"))
    return jsonify(get_asker().ask(q, after=after or None))


@bp.get("/ask")
def page() -> str:
    """The ask page: a question box, the answer as a table with the sources of every row."""
    from aikg.web.pages import _page_context

    return render_template("ask.html", question=request.args.get("q", ""), **_page_context("ask"))
