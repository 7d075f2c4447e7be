"""aikg: a knowledge graph of the AI-compute industry."""

__version__ = "0.1.0"
