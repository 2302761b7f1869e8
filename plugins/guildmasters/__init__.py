"""Guildmasters: a New Capital module (`guildmasters`)."""
