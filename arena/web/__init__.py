"""The arena in the browser: ``arena web`` serves the results database read-only.

:func:`arena.web.app.create_app` builds the application: server-rendered pages (Jinja2
templates, plots as SVG drawn on the server, a small hand-written script for live updates and
the replay viewer, no build step) and the JSON API under ``/api/`` that the pages use.
"""
