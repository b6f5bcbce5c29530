"""The web's routes, a module per resource: ``api`` (JSON), ``pages`` (the front page and
pools), ``matches`` (a match's page and its replay frames), ``bots``, ``tournaments``."""
