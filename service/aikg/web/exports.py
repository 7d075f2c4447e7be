"""Placeholder blueprint for the exports surface."""

from flask import Blueprint

bp = Blueprint("exports", __name__)
