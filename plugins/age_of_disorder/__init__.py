"""Age of Disorder: an optional Queen's Dilemma module (`age-of-disorder`)."""
