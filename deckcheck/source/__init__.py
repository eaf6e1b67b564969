"""Sources: where decks come from (paths, folders, zips, registration CSVs, stdin, URLs, uploads),
turned into records a run reads and validates."""
