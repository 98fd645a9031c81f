"""One module per resource, each exporting ``routes`` (``app.create_app`` mounts them)."""
