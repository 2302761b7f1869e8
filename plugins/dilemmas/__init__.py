"""Dilemmas: a New Capital module (`dilemmas`)."""
