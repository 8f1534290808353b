"""Where work runs and what can stop it: the executors (this process, Ray), the run's local Ray, attempt
markers and the page watchdog, stop signals, progress.

May import: core, folder.
"""
