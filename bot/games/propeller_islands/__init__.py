"""Propeller Islands on Discord: a dice draft turn by turn, island and forge in panels."""
