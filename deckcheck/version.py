"""deckcheck's version, defined once (``deckcheck.__version__`` is this one), in a module that
imports nothing, so reports and pages can name the version without importing the package's
public API."""

__version__ = "0.1.0"
