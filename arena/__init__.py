"""Risk Arena: a tournament arena for RISK-playing programs."""

__version__ = "0.1.0"
