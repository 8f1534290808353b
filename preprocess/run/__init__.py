"""The parts of a preprocess run: the unit contract, the step chain, the worker of one unit, duplicate ids,
taking the output folder.

May import: core, config, html, readers, steps, cleaners, filters, lm, folder, runtime.
"""
