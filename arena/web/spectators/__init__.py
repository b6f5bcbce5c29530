"""How the replay viewer shows each game: ``arena.web.spectators.<game>`` (found by the game's
name) gives ``spectator(header, game, start_state)``; a game without one is shown as its
events alone (:mod:`arena.web.frames`)."""
