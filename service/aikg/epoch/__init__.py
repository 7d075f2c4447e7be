"""Importing Epoch AI's public datasets (CC BY 4.0), reconciled with the graph, through the SHACL gate."""

from .importer import default_directory, import_epoch
from .report import ImportReport

__all__ = ["ImportReport", "default_directory", "import_epoch"]
