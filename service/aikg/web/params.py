"""Request parameters declared once, read and described from the same declaration; integers bounded
before they are converted.

``int()`` of a long enough string is an error of its own (Python refuses more than 4,300 digits) and
its cost grows with the length, so a ``limit`` of 5,000 digits answered 500. Here a value is read only
when it has no more digits than the largest allowed value: anything else is the same 400 as any value
out of range. One parser for every route (issue #46 will declare each route's parameters once).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from aikg.errors import BadRequest
from aikg.export import FALSE_WORDS, TRUE_WORDS

F = TypeVar("F", bound=Callable[..., Any])


def bounded_int(
    name: str,
    raw: str | None,
    *,
    default: int,
    low: int,
    high: int,
    unit: str = "",
    blank_is_default: bool = False,
) -> int:
    """The integer parameter ``name`` from its text ``raw`` (absent: ``default``), from ``low`` to ``high``;
    anything else is a 400 that names the parameter and the range. A blank value is a 400 too (``limit=``
    says nothing a client meant), except where a form may send its empty field (``blank_is_default``)."""
    if raw is None or (blank_is_default and not raw.strip()):
        return default
    text = raw.strip()
    digits = max(len(str(abs(low))), len(str(abs(high))))
    match = re.fullmatch(rf"([+-]?)0*([0-9]{{1,{digits}}})", text)
    value = int(match[1] + match[2]) if match is not None else None
    if value is None or not low <= value <= high:
        raise BadRequest(
            f"parameter {name!r} must be an integer from {low} to {high}{f' ({unit})' if unit else ''}",
            errors=[{"parameter": name, "value": raw[:100], "minimum": low, "maximum": high}],
        )
    return value


BLANK = "".join(f"\\u{c:04x}" for c in range(0x10000) if chr(c).isspace())
"""Every character the server strips from a parameter (Python's ``str.strip``), spelled out for JSON
Schema: its ``\\s`` is not the same set (schemathesis reads it as ASCII white space, ECMA-262 adds U+FEFF),
so a value of U+001D alone would be documented as a question and refused as an empty one."""
NOT_BLANK = f"[^{BLANK}]"
"""Holds one character that is not white space: what a required text parameter must have."""
NOT_GIVEN = {"type": "string", "pattern": f"^[{BLANK}]*$"}
"""A blank value, which a parameter that takes one reads as not given (its default)."""


@dataclass(frozen=True)
class IntParam:
    """An integer query parameter of a route, declared once: the route reads it with :meth:`read` and
    the OpenAPI document describes it with :meth:`describe`, from the same bounds and default."""

    name: str
    description: str
    default: int
    low: int
    high: int
    unit: str = ""
    blank_is_default: bool = False
    """A blank value reads as the default (a form's empty field), and is documented so."""
    empty_is_default: bool = False
    """An empty value (not a blank one) reads as the default, and is documented so."""

    def read(self, raw: str | None) -> int:
        """The value of ``raw`` (the parameter's text, None when absent); out of bounds: 400."""
        if raw == "" and self.empty_is_default:
            return self.default
        return bounded_int(
            self.name,
            raw,
            default=self.default,
            low=self.low,
            high=self.high,
            unit=self.unit,
            blank_is_default=self.blank_is_default,
        )

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        schema: dict[str, Any] = {"type": "integer", "minimum": self.low, "maximum": self.high}
        schema["default"] = self.default
        if self.blank_is_default:
            schema = {"anyOf": [schema, NOT_GIVEN]}
        elif self.empty_is_default:
            schema = {"anyOf": [schema, {"type": "string", "maxLength": 0}]}
        return query_param(self.name, schema, self.description)


def query_param(
    name: str, schema: dict[str, Any], description: str, *, required: bool = False
) -> dict[str, Any]:
    """An OpenAPI query parameter object."""
    return parameter(name, "query", schema, description, required=required)


Where = Literal["query", "path", "header"]


def parameter(
    name: str, where: Where, schema: dict[str, Any], description: str, *, required: bool = False
) -> dict[str, Any]:
    """An OpenAPI parameter object."""
    return {"name": name, "in": where, "required": required, "description": description, "schema": schema}


def _refuse(name: str, message: str, raw: str | None = None) -> BadRequest:
    error: dict[str, Any] = {"parameter": name}
    if raw is not None:
        error["value"] = raw[:100]
    return BadRequest(f"parameter {name!r} {message}", errors=[error])


@dataclass(frozen=True)
class TextParam:
    """A text parameter of a route, declared once: read with :meth:`read` (its length checked first,
    then its pattern) and described with :meth:`describe`. A path parameter's text is matched by the
    route's rule; its declaration documents it."""

    name: str
    description: str
    required: bool = False
    where: Where = "query"
    max_length: int | None = None
    not_blank: bool = False
    """Must hold a character that is not white space (a blank value is the missing one)."""
    pattern: str | None = None
    """A regular expression the whole value must match (documented anchored)."""
    min_length: int = 0
    format: str | None = None
    examples: tuple[str, ...] = ()
    missing: str = ""
    """What the 400 of a required parameter says is missing (``the text to search for``)."""
    repeatable: bool = False
    """May be given more than once (a form body's field is then an array)."""
    media_type: str | None = None
    """A file field's media type (contentMediaType)."""
    note: str = ""
    """Said in the schema itself (where a body's schema stands alone)."""

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON Schema."""
        schema: dict[str, Any] = {"type": "string"}
        if self.min_length or self.not_blank:
            schema["minLength"] = max(self.min_length, 1)
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.not_blank:
            schema["pattern"] = NOT_BLANK
        if self.pattern is not None:
            schema["pattern"] = f"^{self.pattern}$"
        if self.format is not None:
            schema["format"] = self.format
        if self.media_type is not None:
            schema["contentMediaType"] = self.media_type
        if self.examples:
            schema["examples"] = list(self.examples)
        if self.note:
            schema["description"] = self.note
        return schema

    def field_schema(self) -> dict[str, Any]:
        """The schema of the field of this name in a form body."""
        schema = self.schema()
        return {"type": "array", "items": schema} if self.repeatable else schema

    def read(self, raw: str | None) -> str | None:
        """The value of ``raw`` as given (None when absent, or blank where it must not be); a required
        one missing, one too long or one off its pattern: 400."""
        if raw is None or (self.not_blank and not raw.strip()):
            if self.required:
                raise _refuse(self.name, f"is required: {self.missing or self.description}")
            return None
        if self.max_length is not None and len(raw) > self.max_length:
            raise _refuse(self.name, f"is longer than {self.max_length} characters")
        if self.pattern is not None and re.fullmatch(self.pattern, raw) is None:
            raise _refuse(self.name, f"does not match {self.pattern}", raw)
        return raw

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        return parameter(self.name, self.where, self.schema(), self.description, required=self.required)


@dataclass(frozen=True)
class ChoiceParam:
    """A parameter that takes one of a few words, declared once: read and described from ``choices``."""

    name: str
    description: str
    choices: tuple[str, ...]
    required: bool = False
    strip: bool = False
    """White space around the word is read away (documented as the exact words all the same)."""

    def read(self, raw: str | None) -> str | None:
        """The word ``raw`` names (None when absent and not required); another word: 400."""
        value = raw.strip() if raw is not None and self.strip else raw
        if value is None and not self.required:
            return None
        if value not in self.choices:
            words = [repr(c) for c in self.choices]
            told = " or ".join(words) if len(words) == 2 else f"one of {', '.join(self.choices)}"
            raise _refuse(self.name, f"must be {told}", value or "")
        return value

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        return query_param(self.name, {"enum": list(self.choices)}, self.description, required=self.required)


@dataclass(frozen=True)
class ClassParam:
    """A class of the data (a name such as Organization, or an IRI), described by the class names the
    running service knows; ``blank_is_any``: a blank value is no class, and is documented so."""

    name: str
    description: str
    blank_is_any: bool = False

    def read(self, raw: str | None, resolve: Callable[[str], str | None]) -> str | None:
        """The IRI of the class ``raw`` names, by ``resolve`` (the vocabulary's); blank where that means
        any class: None; a word that names no class: 400."""
        value = (raw or "").strip()
        if not value and self.blank_is_any:
            return None
        found = resolve(value) if value else None
        if found is None:
            raise _refuse(
                self.name,
                f"names no class {value!r} (give a class name such as 'Organization' or a class IRI; "
                "see /api/types)",
                value,
            )
        return found

    def describe(self, names: list[str]) -> dict[str, Any]:
        """The OpenAPI parameter object, ``names`` the class names and IRIs of the running service."""
        schema: dict[str, Any] = {"enum": names}
        if self.blank_is_any:
            schema = {"anyOf": [schema, NOT_GIVEN]}
        return query_param(self.name, schema, self.description)


def _cased(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


@dataclass(frozen=True)
class FlagParam:
    """A flag as the server reads it: true/false, 1/0, yes/no, on/off in any case, blank for false."""

    name: str
    description: str

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        return query_param(self.name, FLAG, self.description)

    def field_schema(self) -> dict[str, Any]:
        """The schema of the field of this name in a form body."""
        return {"type": "boolean"}

    def read(self, raw: str | None) -> bool:
        """True or false as ``raw`` says (absent: false); any other word is a 400, never a silent
        false (a dry run asked for as ``dry_run=on`` must not write)."""
        word = (raw or "").strip().lower()
        if word in TRUE_WORDS | FALSE_WORDS:
            return word in TRUE_WORDS
        raise _refuse(self.name, "must be true or false (1/0, yes/no, on/off)", raw)


_FLAG_WORDS = "|".join(_cased(w) for w in sorted(TRUE_WORDS | FALSE_WORDS) if w)
FLAG = {
    "anyOf": [{"type": "boolean"}, {"type": "string", "pattern": f"^[{BLANK}]*({_FLAG_WORDS})?[{BLANK}]*$"}]
}
"""The schema of a :class:`FlagParam`."""
IRI_PATTERN = r"https?://[A-Za-z0-9._~:/?#@!$&'()*+,;=%-]+"
KIND_SCHEMAS: dict[str, dict[str, Any]] = {
    "entity": {
        "type": "string",
        "pattern": rf"^([A-Za-z0-9]+(-[A-Za-z0-9]+)*|{IRI_PATTERN})$",  # an id in any case
        "examples": ["nvidia"],
    },
    "iri": {"type": "string", "format": "iri"},
    "string": {"type": "string", "minLength": 1, "pattern": NOT_BLANK},
    "date": {
        "anyOf": [
            {"type": "string", "format": "date"},
            {"type": "string", "pattern": r"^[1-9]\d{3}(-(0[1-9]|1[0-2]))?$"},
        ],
        "examples": ["2026-08-17"],
    },
    "integer": {"type": "integer"},
    "decimal": {"type": "number"},
}
"""The JSON Schema of each kind of named-query parameter (``Parameter.type``; read by
:func:`aikg.query.named.convert`)."""


@dataclass(frozen=True)
class KindParam:
    """A parameter of one of the named queries' kinds (entity, iri, date, ...), declared by kind: a named
    query's own parameters, and a route's path parameter that names an entity."""

    name: str
    kind: str
    description: str
    required: bool = False
    where: Where = "query"
    blank_is_default: bool = False
    """Optional or defaulted: an empty or blank value reads as not given, and is documented so."""
    values: tuple[str, ...] = ()
    """The words it takes, when the query declares them (``values=``)."""

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        schema = dict(KIND_SCHEMAS.get(self.kind, {"type": "string"}))
        if self.values:
            schema["enum"] = list(self.values)
        if self.blank_is_default:
            schema = {"anyOf": [schema, NOT_GIVEN]}
        return parameter(self.name, self.where, schema, self.description, required=self.required)


class Field(Protocol):
    """A field of a form body: a declaration with a name and the schema of its value."""

    @property
    def name(self) -> str: ...

    def field_schema(self) -> dict[str, Any]: ...


def form(*fields: Field, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The schema of a form body (urlencoded or multipart) with these fields."""
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = list(required)
    schema["properties"] = {f.name: f.field_schema() for f in fields}
    return schema


TEXT: dict[str, Any] = {"type": "string"}
"""The schema of a text body or header."""
JSON_OBJECT: dict[str, Any] = {"type": "object"}
JSON_LD: dict[str, Any] = {"type": ["object", "array"]}
"""A JSON-LD document: an object or an array (JSON-LD 1.1 §9)."""


def text_content(*media_types: str) -> dict[str, Any]:
    """An OpenAPI content map of text in each of ``media_types``."""
    return {m: {"schema": dict(TEXT)} for m in media_types}


def header(description: str) -> dict[str, Any]:
    """An OpenAPI header object of a text header."""
    return {"description": description, "schema": dict(TEXT)}


def entity_in_path(name: str, description: str) -> KindParam:
    """A path parameter naming an entity: a slug or a full IRI."""
    return KindParam(name, "entity", description, required=True, where="path")


Describe = Callable[[Any], dict[str, Any]]
"""What a route says of itself in the OpenAPI document: from the running services (the class names,
the named queries), its path item (``{"get": {...}}``)."""


def documented(describe: Describe, *, names: dict[str, str] | None = None) -> Callable[[F], F]:
    """Declares a route's OpenAPI description beside the route: the document (aikg.web.openapi) is
    collected from the app's routes, so a route is declared once and described where it is. ``names``:
    the document's names of the rule's variables where they differ (``<name>`` documented as
    ``{format}``)."""

    def mark(view: F) -> F:
        view.openapi = describe  # type: ignore[attr-defined]
        view.openapi_names = names or {}  # type: ignore[attr-defined]
        return view

    return mark


def description_of(view: Callable[..., Any]) -> Describe | None:
    """The description a route declared with :func:`documented`, if any."""
    return getattr(view, "openapi", None)


def path_names_of(view: Callable[..., Any]) -> dict[str, str]:
    """The document's names of a route's variables, as declared with :func:`documented`."""
    return getattr(view, "openapi_names", {})
