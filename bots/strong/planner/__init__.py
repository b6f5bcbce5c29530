"""The frozen ``planner``'s policy, which ``strong`` plays for its claims and for the setup
and first round of a 3-player game: a copy of ``bots/planner``'s modules.

A copy, not an import of the other folder: a bot's version is the hash of its own folder,
so every line ``strong`` plays is part of its version, and it changes only when ``strong``
does. ``planner`` is frozen, so the two stay the same unless ``strong`` chooses otherwise.
"""
