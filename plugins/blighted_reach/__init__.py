"""The Blighted Reach campaign (issue 18): three Acts of Arcs with the Empire, the Blight,
events and the Fates.

This package holds the campaign's box as validated data so far (`content.py` and
`content/*.json`); the rules engine that reads it comes in later pieces of the issue.
"""
