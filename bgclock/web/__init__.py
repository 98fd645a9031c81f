"""bgclock.web: the pages' files (``static/``: the table clock, the director's
dashboard, the room display and the public page, plain ES modules and CSS).
The server renders and serves them (``bgclock.server.render.pages``,
``bgclock.server.routes.static``); ``python -m bgclock.server.render.bundle``
makes the table page's bundle.
"""
