"""Stage 4: metrics, significance tests and result tables."""
