"""Asking aikg in plain words, in English or Chinese, offline (issue 16).

A question is read (names linked through the search index, dates and property words found), routed to one
of the named queries or to a fact of one entity by a lexical model trained on the queries' ``# example:``
lines, and answered from the graph with the sources of every row or fact — or aikg says it does not know,
and offers the closest questions it can answer.

- :mod:`.text`, :mod:`.dates`, :mod:`.properties`: reading a question;
- :mod:`.linking`: entity linking through the search index;
- :mod:`.features`, :mod:`.router`: the lexical model and the router;
- :mod:`.lexicon`: property words, fact examples, parameter classes;
- :mod:`.answers`, :mod:`.asker`: answering;
- :mod:`.scoring`: the answer evaluation (``aikg ask-eval``): items each answer must contain, by value.
"""

from __future__ import annotations

from aikg.ask.asker import Asker
from aikg.ask.scoring import load_items as load_eval

__all__ = ["Asker", "load_eval"]
