"""Stage 1: web archives -> cleaned Pyserini JsonCollection shards."""
