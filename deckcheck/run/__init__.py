"""Runs: the drivers that take sources to verdicts (batch, repository configuration, forecasts of
the next list, side plans)."""
