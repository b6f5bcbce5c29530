"""Tests of the tournament schedule planner."""
