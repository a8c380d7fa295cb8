"""One module per wizard page."""
