"""Arabesque: Arabian Nights board games on one rules engine."""

__version__ = "0.1.0"
