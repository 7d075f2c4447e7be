"""Placeholder blueprint for the pages surface."""

from flask import Blueprint

bp = Blueprint("pages", __name__)
