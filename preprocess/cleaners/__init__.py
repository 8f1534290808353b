"""DOM boilerplate cleaners: steps that prune the parsed tree before tag removal extracts its text."""
