"""Tournament scheduling: which bots meet, in which seats, with which seeds."""
