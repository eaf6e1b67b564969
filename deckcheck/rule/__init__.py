"""Construction rules: eras and formats (``rules.format``) and ban lists (``rules.banlist``).

The layer above the card model: rules read cards, never a dataset; the dataset (``deckcheck.data``)
loads them.
"""
