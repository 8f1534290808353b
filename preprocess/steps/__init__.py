"""Pipeline steps: each is ``run(docs) -> docs`` and counts what it drops and why.

May import: core, config, html.
"""
