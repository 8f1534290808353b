"""``learned``: a block classifier trained on the shared gold standards (see ``cleaner.py``)."""
