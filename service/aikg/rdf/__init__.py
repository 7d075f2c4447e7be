"""RDF and SPARQL text, independent of any store: formats, serializers, the input guard."""
