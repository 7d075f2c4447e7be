"""JSON answers written by orjson: a big named-query answer (thousands of rows of cells) was written in a
quarter of its whole time by the standard library's encoder; orjson takes about a tenth of that.

Keys keep their documented order (insertion order), text is UTF-8 (not ``\\u`` escapes), and the few
values JSON has no type for are written as Flask writes them. orjson refuses integers beyond 64 bits
(an xsd:integer such as a FLOP count can be larger); such an answer is written by the standard library.
"""

from __future__ import annotations

import dataclasses
import decimal
import json
import uuid
from datetime import date
from typing import Any, cast

import orjson
from flask import Response
from flask.json.provider import JSONProvider
from werkzeug.http import http_date

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _default(o: Any) -> Any:
    """What Flask's own provider writes for values JSON has no type for."""
    if isinstance(o, date):
        return http_date(o)
    if isinstance(o, (decimal.Decimal, uuid.UUID)):
        return str(o)
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return dataclasses.asdict(o)
    if hasattr(o, "__html__"):
        return str(o.__html__())
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider, with orjson doing the writing (reading stays the standard library's)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return self.encode(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return json.loads(s, **kwargs)

    @staticmethod
    def encode(obj: Any) -> bytes:
        """``obj`` as UTF-8 JSON bytes."""
        try:
            return orjson.dumps(obj, default=_default, option=_OPTIONS)
        except orjson.JSONEncodeError as exc:
            if "64-bit" not in str(exc):
                raise
            return json.dumps(obj, default=_default, ensure_ascii=False, separators=(",", ":")).encode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        # Flask types the provider's app as its sans-I/O base; it is a Flask app, whose responses are Flask's.
        response_class = cast("type[Response]", self._app.response_class)
        return response_class(self.encode(obj), mimetype="application/json")
