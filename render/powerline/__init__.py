"""Powerline images, drawn from `view(...)` dicts only."""

from render.powerline.board import player_board
from render.powerline.centre import centre_board
from render.powerline.results import final_results
from render.powerline.summary import round_summary

__all__ = ["centre_board", "final_results", "player_board", "round_summary"]
