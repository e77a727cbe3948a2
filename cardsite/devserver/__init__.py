"""The development server of `make run` (local settings only): Django's runserver, with a
listen backlog that holds a burst of requests instead of resetting them."""
