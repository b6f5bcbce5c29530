"""Remote bots: bots that run on their owner's machine and dial into ``arena serve``."""
