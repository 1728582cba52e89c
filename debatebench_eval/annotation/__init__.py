"""Human labels of debates: the blind labelling page, the label files, and what they
say about a judge (agreement, kappa) and about ratings (prediction-powered inference)."""
