"""The rules of classic RISK: who decides, legal options, checking and applying actions.

This is the only place the rules live. Everything is pure: a state goes in, a new state and
the events come out; dice and cards come from the keyed streams in :mod:`arena.games.classic.rng`.

:class:`ClassicRules` is the one way in. Behind it, each module does one job, as functions
of a :class:`~.setting.Setting` (configuration, board, lookup tables) and a state:

- :mod:`.decide`: who must decide now;
- :mod:`.legal`: the legal options of a decision;
- :mod:`.checks`: checking an action, with a precise reason for a refusal;
- :mod:`.setup`: the deal, claims, starting armies, headquarters;
- :mod:`.turn`: reinforcements, trades, fortifying, the end of a turn and card draws;
- :mod:`.battle`: attacks, dice, re-rolls, captures and occupation;
- :mod:`.end`: missions, capitals, the end of the game and its outcome;
- :mod:`.defaults`: the action played for a seat that does not answer;
- :mod:`.play`: applying actions and forfeits.

The façade's methods are those functions themselves, bound as methods, so a call through it
costs no more than a call of the function. Decisions, outcomes and steps are the game
contract's own types (:mod:`arena.games.api`).
"""

from __future__ import annotations

from arena.games.classic.rules import checks, decide, defaults, end, legal, play, setup, turn
from arena.games.classic.rules.setting import Setting
from arena.games.classic.view import view_for


class ClassicRules(Setting):
    """Classic RISK under one :class:`ClassicConfig` (and board, classic by default).
    Stateless apart from the configuration, the board and their lookup tables.

    ``new_game``, ``decision``, ``legal_options``, ``check`` / ``is_legal``, ``apply``
    (validating, returns a new state), ``apply_unchecked`` (in place, for search),
    ``default_action``, ``forfeit``, ``outcome`` and ``view``; beside them the rules'
    figures ``reinforcements``, ``mission_done`` and ``capitals_done``.
    """

    new_game = setup.new_game
    decision = decide.decision
    legal_options = legal.legal_options
    check = checks.check
    is_legal = checks.is_legal
    apply = play.apply
    apply_unchecked = play.apply_unchecked
    default_action = defaults.default_action
    forfeit = play.forfeit
    outcome = end.outcome
    view = view_for
    reinforcements = turn.reinforcements
    mission_done = end.mission_done
    capitals_done = end.capitals_done


__all__ = ["ClassicRules"]
