"""The tournaments on the server: the service over the action log, the late desk,
the clock results; written against ``host`` (never against ``context``)."""
