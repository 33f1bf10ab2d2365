"""The frontends, by file extension.  A grammar is loaded only when a file of
its language is linted."""

from __future__ import annotations

from functools import lru_cache

EXTENSIONS = {".py": "python", ".pyi": "python", ".java": "java", ".c": "c", ".h": "c"}


@lru_cache(maxsize=None)
def frontend(language: str):
    if language == "python":
        from .python import PythonFrontend

        return PythonFrontend()
    if language == "java":
        from .java import JavaFrontend

        return JavaFrontend()
    if language == "c":
        from .c import CFrontend

        return CFrontend()
    raise KeyError(language)


def language_of(path: str) -> str | None:
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower()) if dot >= 0 else None
