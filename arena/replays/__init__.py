"""Replays: the files a match writes record by record, reading and verifying them
(:mod:`.files`), and their telling in words (:mod:`.text`, ``arena replay show``)."""
