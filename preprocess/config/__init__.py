"""What a run is told: the registry of cleaners and filters with their declared parameters, CleanOptions
and RunOptions, cleaning specs.

May import: core.
"""
