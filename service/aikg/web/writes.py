"""Placeholder blueprint for the writes surface."""

from flask import Blueprint

bp = Blueprint("writes", __name__)
