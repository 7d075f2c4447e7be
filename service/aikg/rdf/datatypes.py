"""XML Schema's numeric datatypes as IRI strings, without rdflib: the query workers' path
(:mod:`aikg.rdf.order`) needs them and must not import rdflib (~0.1 s of every worker's start);
import them from here (:mod:`aikg.namespaces` is a layer below :mod:`aikg.rdf` and cannot)."""

XSD = "http://www.w3.org/2001/XMLSchema#"

XSD_INTEGERS = frozenset(
    XSD + t
    for t in (
        "integer",
        "int",
        "long",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "negativeInteger",
        "nonPositiveInteger",
        "unsignedLong",
        "unsignedInt",
        "unsignedShort",
        "unsignedByte",
    )
)
"""xsd:integer and the datatypes derived from it (XML Schema 2 §3.3), as IRI strings."""

XSD_NUMERIC = XSD_INTEGERS | {XSD + t for t in ("decimal", "float", "double")}
"""Every numeric datatype of SPARQL's operators (Query §17.1), as IRI strings."""
