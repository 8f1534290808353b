"""DOM boilerplate cleaners: steps that prune the parsed tree before tag removal extracts its text.

May import: core, config, html, steps.
"""
