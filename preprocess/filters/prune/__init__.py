"""Sentence pruning (``--prune-model``): one module per scorer -- :mod:`.perplexity` (a KenLM model) and
:mod:`.contrastive` (a contrastive model directory) -- and :mod:`.options`, the parameters' checks."""
