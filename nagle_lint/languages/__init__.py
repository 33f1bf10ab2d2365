"""The frontends and their byte scans, by file extension.  A grammar is
loaded only when a file of its language is parsed, the model only when one
is lowered."""

from __future__ import annotations

from functools import lru_cache

EXTENSIONS = {".py": "python", ".pyi": "python", ".java": "java", ".c": "c", ".h": "c"}
_CLASS_STEMS = {"python": "Python", "java": "Java", "c": "C"}


@lru_cache(maxsize=None)
def scanner(language: str):
    """The language's byte scan alone: it loads neither a grammar nor the model."""
    return _make(language, "_scan", "Scanner")


@lru_cache(maxsize=None)
def frontend(language: str):
    return _make(language, "", "Frontend")


def _make(language: str, module_suffix: str, kind: str):
    from importlib import import_module

    stem = _CLASS_STEMS[language]  # a KeyError for a language we do not have
    return getattr(import_module(f".{language}{module_suffix}", __name__), stem + kind)()


def language_of(path: str) -> str | None:
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower()) if dot >= 0 else None
