"""nagle-lint: find the socket code that makes Nagle's algorithm and delayed ACKs wait for each other."""

__version__ = "0.1.0"
