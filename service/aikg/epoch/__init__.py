"""Importing Epoch AI's public datasets (CC BY 4.0), reconciled with the graph, through the SHACL gate."""

from aikg.epoch.importer import default_directory, import_epoch
from aikg.epoch.report import ImportReport

__all__ = ["ImportReport", "default_directory", "import_epoch"]
