"""One encoder module per game, named after the game (``classic.py``, ``europe.py``), each
with ``encoder(game) -> Encoder`` (see :mod:`arena.envs.encoding`)."""
