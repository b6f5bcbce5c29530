"""The sandbox every stranger's program runs in, bot or bot ``setup``: which isolation layers
are on (:mod:`.isolation`), seat users (:mod:`.seat_users`), bubblewrap (:mod:`.bubblewrap`),
resource limits (:mod:`.resources`), and starting and ending bot processes
(:mod:`.launcher`). Below both the referee and the bot catalogue, so neither
imports the other to start a process."""
