"""Powerline images, drawn from `view(...)` dicts only."""
