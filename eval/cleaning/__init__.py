"""The cleaning benchmark: webprune cleaners and peer extractors scored against human gold text (``webprune eval-cleaning``)."""
