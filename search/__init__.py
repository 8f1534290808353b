"""Stage 3: QL-Dirichlet retrieval runs in TREC format."""
