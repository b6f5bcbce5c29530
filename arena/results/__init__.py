"""What the arena keeps of the matches it played: the SQLite store (:mod:`.store`), the
TrueSkill ratings (:mod:`.ratings`), fault flags (:mod:`.faults`), the reports the command line
and the web share (:mod:`.reports`), and the statistics behind them (:mod:`.stats`)."""
