"""Powerline on Discord: secret plans of workers, built step by step in DMs."""
