"""Readers that turn competition folders and Meta Kaggle dumps into competition records."""
