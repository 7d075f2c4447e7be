"""Lookups: the search index, the vocabulary and catalogue, entity descriptions."""
