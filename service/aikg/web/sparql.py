"""Placeholder blueprint for the sparql surface."""

from flask import Blueprint

bp = Blueprint("sparql", __name__)
