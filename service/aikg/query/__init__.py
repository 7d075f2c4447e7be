"""The read path: named queries, and the one runner every query goes through."""
