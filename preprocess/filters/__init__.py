"""Composable steps: switched on by their option, they work with any cleaner."""
