"""Faction Heroes: a New Capital module (`faction-heroes`)."""
