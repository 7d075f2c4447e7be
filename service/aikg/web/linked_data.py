"""Placeholder blueprint for the linked_data surface."""

from flask import Blueprint

bp = Blueprint("linked_data", __name__)
