"""``pbem play``: the game in a browser, served on this machine only.

``desk`` answers the page's questions from the engine and the game store (what the
page shows and every order it gives); ``server`` is the HTTP side: the token, the
origin checks, the routes and the static files in ``static/``.
"""
