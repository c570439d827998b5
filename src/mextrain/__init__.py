"""mextrain: Mexican Train dominoes — rules engine, game records, bots and play."""

__version__ = "0.1.0"
