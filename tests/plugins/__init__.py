"""Cleaners that exist only for tests, registered through $WEBPRUNE_PLUGINS (so Ray workers see them too)."""
