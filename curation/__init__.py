"""curation: build multilingual ML benchmarks from Kaggle competitions and their notebooks."""

__version__ = "0.1.0"
