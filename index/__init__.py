"""Stage 2: Lucene indexes (Pyserini's bundled Anserini) from JsonCollection shards."""
