"""Release building blocks for `curate publish`: rows per language, gates, harness files, card, manifest, targets."""
