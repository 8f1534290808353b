"""The learning engine: the passes a run needs before it cleans (map on the workers, reduce in the
driver), their worker half, spools, and the records handed labelled.

May import: core, config, html, readers, steps, cleaners, filters, lm, folder, runtime, run.
"""
