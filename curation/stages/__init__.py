"""The pipeline stages: select pending items, do one item, record it."""
