"""How the replay viewer shows each game: ``arena.web.spectators.<game>`` (found by the game's
name) gives ``spectator(header, game, start_state)``, which makes the game's frames
(:class:`arena.web.frames.Spectator`), and optionally ``standing(board, seat)`` for the match
page's plots (:mod:`arena.web.match_plots`); a game without one is shown as its events alone."""
