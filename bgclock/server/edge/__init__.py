"""The HTTP edge: credentials, guards, bounds, body declarations, the id convertor."""
