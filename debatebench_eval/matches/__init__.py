"""A match between two models, whatever task kind argued it: each debate's result (who
argued which side, and what became of it), the matchups of side-swapped twins, what a
debate spent, and how the figures made of them are written."""
