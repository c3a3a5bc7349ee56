"""The app layer: playing our games against our bots, above ``games`` and ``search``.

Nothing in ``games``, ``search`` or ``learning`` imports this package. ``belote_match`` holds a
human-vs-ISMCTS game of two-player Belote (Boudier's ISMCTS, docs/papers/belote_ismcts.md),
``belote`` its terminal prompt and command line (``python -m infosets.play.belote``, or
``make play-belote``), ``belote_widget`` its ipywidgets board for JupyterLab, and
``belote_settings`` the checks of the game's settings that both use before anything loads.
"""
