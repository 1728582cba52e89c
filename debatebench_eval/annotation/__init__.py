"""Human labels: a blind page to label a folder's debates by hand, and the labels read back."""
