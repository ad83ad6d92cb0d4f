"""The game-agnostic Discord pieces: lobby, planners, status boards, presenters, shared helpers."""
