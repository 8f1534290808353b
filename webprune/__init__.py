"""webprune: web archives -> cleaned Pyserini collections -> QL-Dirichlet runs -> evaluation."""
__version__ = "0.1.0"
