"""Composable steps: switched on by their option, they work with any cleaner.

May import: core, config, html, steps, lm.
"""
