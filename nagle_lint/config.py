"""Settings, layered: defaults < [tool.nagle-lint] in pyproject.toml (or
.nagle-lint.toml) < the command line."""

from __future__ import annotations

import os
import sys
from functools import lru_cache


def _toml():
    """The TOML reader, loaded only when there is a file to read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib

from .site import CONFIDENCES

LEVELS = ("note", "warning")

# Bounded work.  The size limit: of 78,000 .py/.c/.h/.java files on a typical
# development machine, 99.9% are under 340 kB and every one over 850 kB was
# generated (API clients, register tables, amalgamations); such a file costs
# seconds to parse and lower and has no hand-written socket code.  The time
# budget: a 1 MB file is parsed and lowered in about 3 s, so 10 s
# leaves room for a slower CI machine while one pathological file cannot
# stall a pre-commit hook.  0 turns either limit off.
DEFAULT_MAX_FILE_SIZE = 1_000_000  # bytes
DEFAULT_TIMEOUT = 10.0  # seconds per file


class ConfigError(Exception):
    """A bad setting: the message names the file, the key and what is expected."""


class Settings:
    """A run's settings: read-only (`replace` gives a changed copy).  Written
    out rather than a dataclass: a run that replays its stored results loads
    no dataclasses, whose import makes such a run on one file execute a third
    more instructions (benchmarks/README.md)."""

    def __init__(self, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (), exclude: tuple[str, ...] = (),
                 per_file_ignores: dict | None = None, fail_on: str = "warning", min_confidence: str = "medium",
                 max_file_size: int = DEFAULT_MAX_FILE_SIZE, timeout: float = DEFAULT_TIMEOUT,
                 respect_gitignore: bool = True, source: str | None = None, cli_exclude: tuple[str, ...] = (),
                 roots: tuple[str, ...] = ()):
        self.__dict__.update(
            select=select,  # empty: every rule that is on by default
            ignore=ignore,
            exclude=exclude,
            per_file_ignores={} if per_file_ignores is None else per_file_ignores,  # glob -> rule ids
            fail_on=fail_on,
            min_confidence=min_confidence,
            max_file_size=max_file_size,  # bytes; a bigger file is reported and skipped (0: no limit)
            timeout=timeout,  # seconds to parse, lower and check one file (0: no limit)
            respect_gitignore=respect_gitignore,  # in a git work tree, leave out what git ignores
            source=source,  # the file the settings came from
            cli_exclude=cli_exclude,  # --exclude's patterns, written from the current folder
            roots=roots,  # the linted projects' tops, absolute (see `project_tops`)
        )

    def replace(self, **changes) -> "Settings":
        unknown = set(changes) - set(self.__dict__)
        if unknown:
            raise TypeError(f"no such setting: {', '.join(sorted(unknown))}")
        return Settings(**{**self.__dict__, **changes})

    def folder(self) -> str | None:
        """The folder of the configuration file, where its patterns are written from."""
        return os.path.dirname(os.path.abspath(self.source)) if self.source else None

    def in_project(self, path: str) -> str:
        """`path` as written from the top of its project (the deepest of
        `roots` holding it), else as given: the folders that describe the
        file are the project's own, not those of where it was checked out
        (a project checked out in a folder named `tests` holds no test)."""
        full = os.path.abspath(path)
        tops = [r for r in self.roots if full == r or full.startswith(r.rstrip(os.sep) + os.sep)]
        return os.path.relpath(full, max(tops, key=len)) if tops else path

    def of(self, path: str) -> "Settings":
        """The settings of the file at `path`: these, for every file (a
        `Resolver` finds each file's own)."""
        return self

    def in_folder(self, folder: str) -> "Settings":
        """The settings of the files in `folder`: these, for every folder."""
        return self

    def __setattr__(self, name, value):
        raise AttributeError("settings are read-only: use replace()")

    def __eq__(self, other) -> bool:
        return type(other) is Settings and self.__dict__ == other.__dict__

    __hash__ = None  # per_file_ignores is a dict

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"


KEYS = {
    "select": "a list of rule ids or prefixes",
    "ignore": "a list of rule ids or prefixes",
    "exclude": "a list of glob patterns",
    "per-file-ignores": "a table of glob pattern = list of rule ids",
    "fail-on": "one of: note, warning",
    "min-confidence": "one of: low, medium, high",
    "max-file-size": "a size in bytes: a whole number (0 for no limit) or a string such as \"2MB\" or \"500kB\"",
    "timeout": "a number of seconds per file, 0 or more (0 for no limit)",
    "respect-gitignore": "true or false",
}

_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000 ** 2, "mb": 1000 ** 2, "mib": 1024 ** 2,
          "g": 1000 ** 3, "gb": 1000 ** 3, "gib": 1024 ** 3}


def parse_size(value) -> int:
    """Bytes from `2000000`, `"2MB"`, `"1.5 MiB"` or `"500kB"`; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        number, unit = value, ""
    elif isinstance(value, str):
        import re  # here: a run that replays its stored output imports no `re` at all

        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", value)
        if not m or m.group(2).lower() not in _UNITS:
            raise ValueError(value)
        number, unit = float(m.group(1)) if "." in m.group(1) else int(m.group(1)), m.group(2).lower()
    else:
        raise ValueError(value)
    if number < 0 or (isinstance(number, float) and _UNITS[unit] == 1):
        raise ValueError(value)  # no negative sizes, no fractions of a byte
    size = number * _UNITS[unit]
    if size == float("inf"):
        raise ValueError(value)  # too big for a float: no whole number of bytes
    return round(size)


def _option(parse, key: str):
    """What argparse calls to convert and check an option's value, read as
    the configuration key `key` is."""
    def convert(text: str):
        import argparse

        try:
            return parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {KEYS[key]}, got {text!r}") from None
    return convert


def parse_timeout(value) -> float:
    """Seconds from a non-negative, finite number (0: no limit); ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(value)
    try:
        seconds = float(value)
    except OverflowError:  # an integer too big for a float
        raise ValueError(value) from None
    if not 0 <= seconds < float("inf"):  # NaN compares false too
        raise ValueError(value)
    return seconds


size_option = _option(parse_size, "max-file-size")  # --max-file-size
timeout_option = _option(parse_timeout, "timeout")  # --timeout


def find_config(start) -> str | None:
    """The config file that applies in the folder `start`: the nearest
    `.nagle-lint.toml`, or `pyproject.toml` with a [tool.nagle-lint] table,
    in it or a folder above it."""
    folder = os.path.realpath(start)
    while True:
        found = config_in(folder)
        if found:
            return found
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def config_in(folder: str) -> str | None:
    """The config file in `folder` itself, if it has one: `.nagle-lint.toml`
    first, else a `pyproject.toml` with a [tool.nagle-lint] table."""
    dotted = os.path.join(folder, ".nagle-lint.toml")
    if os.path.isfile(dotted):
        return dotted
    pyproject = os.path.join(folder, "pyproject.toml")
    if not os.path.isfile(pyproject):
        return None
    try:
        with open(pyproject, "rb") as fh:
            raw = fh.read()
    except OSError:
        return pyproject  # let load() report it
    # A file that does not name the table has none: the TOML parser
    # (a tenth of the start-up of a run on one file) is not loaded for it.
    if b"nagle-lint" not in raw:
        return None
    tomllib = _toml()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return pyproject  # let load() report it
    tool = data.get("tool")
    return pyproject if isinstance(tool, dict) and "nagle-lint" in tool else None


class Resolver:
    """Each file's settings, found as ruff finds them: those of the nearest
    configuration file in the file's folder or above it (that file's own:
    the files further up are not merged in; its patterns are written from
    its folder), with the command line's settings (`overrides`) on top.  A
    file with no configuration file above it takes the one found from the
    current folder (`start`), else the defaults.  Each configuration file is
    read once; the files it governs share one Settings.  `roots`: the
    linted projects' tops (`Settings.roots`).  `broken`: called
    with the ConfigError of a configuration file that cannot be read, whose
    files then take the defaults (else the error is raised)."""

    def __init__(self, overrides: dict | None = None, start: str = ".", broken=None, roots: tuple[str, ...] = ()):
        self.overrides, self.broken, self.roots = overrides or {}, broken, roots
        self.fallback = find_config(start)
        self._nearest: dict[str, str | None] = {}  # real folder -> its nearest config file, or None
        self._folders: dict[str, Settings] = {}  # folder as asked -> its settings
        self._reals: dict[str, str] = {}  # folder as asked -> its real path (see `_real`)
        self._loaded: dict[str | None, Settings] = {}  # config file (None: the defaults) -> its settings

    def of(self, path: str) -> Settings:
        """The settings of the file at `path` (which need not exist: standard input's name)."""
        return self.in_folder(os.path.dirname(path) or ".")

    def in_folder(self, folder: str) -> Settings:
        """The settings of the files in `folder`."""
        found = self._folders.get(folder)
        if found is None:
            config = self._nearest_config(self._real(folder))
            found = self._folders[folder] = self.loaded(config if config is not None else self.fallback)
        return found

    def _real(self, folder: str) -> str:
        """`os.path.realpath(folder)`, from its parent's where that is known
        (a walk asks each folder after its parent): a folder that is no
        link adds its name to its parent's real path, one lstat instead of
        one per part of the path (on Netty's 1,154 folders, 25 ms of CPU)."""
        parent, name = os.path.split(folder)
        above = self._reals.get(parent) if name not in ("", ".", "..") else None
        if above is None or os.path.islink(folder):
            real = os.path.realpath(folder)
        else:
            real = os.path.join(above, name)
        self._reals[folder] = real
        return real

    def loaded(self, config: str | None) -> Settings:
        """A configuration file's settings, the command line's on top (None: the defaults)."""
        if config not in self._loaded:
            settings = Settings()
            try:
                settings = load(config) if config else settings
            except ConfigError as e:
                if self.broken is None:
                    raise
                self.broken(e)
            self._loaded[config] = settings.replace(**self.overrides, roots=self.roots)
        return self._loaded[config]

    def _nearest_config(self, real: str) -> str | None:
        chain = []  # folders not looked at yet, innermost first
        folder = real
        while folder not in self._nearest:
            chain.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                self._nearest[folder] = config_in(folder)
                chain.pop()
                break
            folder = parent
        found = self._nearest[folder]
        for f in reversed(chain):
            found = self._nearest[f] = config_in(f) or found
        return found


def load(path) -> Settings:
    path = os.fspath(path)
    tomllib = _toml()
    try:
        with open(path, encoding="utf-8") as fh:
            data = tomllib.loads(fh.read())
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and tables
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    table, where = _table(path, data)
    fields = {}
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{path}: {where}unknown key '{key}' (expected one of: {', '.join(KEYS)})")
        named = f"{path}: {where}'{key}'"
        try:
            fields[key.replace("-", "_")] = _READERS[key](value, named)
        except ValueError:
            raise ConfigError(f"{named} must be {KEYS[key]}") from None
    return Settings(source=str(path), **fields)


def _table(path: str, data: dict) -> tuple[dict, str]:
    """The settings' table of a configuration file, and how messages name it.
    Any name: the [tool.nagle-lint] table where the file has one (a
    pyproject.toml has no other place for it), else the file's own keys."""
    tool = data.get("tool")
    tabled = isinstance(tool, dict) and "nagle-lint" in tool or os.path.basename(path) == "pyproject.toml"
    table = tool.get("nagle-lint", {}) if tabled and isinstance(tool, dict) else {} if tabled else data
    where = "[tool.nagle-lint] " if tabled else ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where.strip() or 'the file'} must be a table")
    return table, where


def _valid(value, ok: bool):
    """`value`, where `ok`; else a ValueError."""
    if not ok:
        raise ValueError(value)
    return value


def _is_strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _per_file_ignores(value, named: str) -> dict:
    _valid(value, isinstance(value, dict) and all(map(_is_strings, value.values())))
    return {glob: tuple(check_rule_ids(ids, named)) for glob, ids in value.items()}


# How each key's value is read: (value, the key as messages name it) -> the
# setting's value; a ValueError where it is not what KEYS says.
_READERS = {
    "select": lambda v, named: tuple(check_rule_ids(_valid(v, _is_strings(v)), named)),
    "ignore": lambda v, named: tuple(check_rule_ids(_valid(v, _is_strings(v)), named)),
    "exclude": lambda v, _: tuple(_valid(v, _is_strings(v))),
    "per-file-ignores": _per_file_ignores,
    "fail-on": lambda v, _: _valid(v, v in LEVELS),
    "min-confidence": lambda v, _: _valid(v, v in CONFIDENCES),
    "max-file-size": lambda v, _: parse_size(v),
    "timeout": lambda v, _: parse_timeout(_valid(v, not isinstance(v, str))),  # TOML writes numbers unquoted
    "respect-gitignore": lambda v, _: _valid(v, isinstance(v, bool)),
}


def check_rule_ids(values, where: str) -> list[str]:
    from .rules import all_rules

    rules = all_rules()
    known = list(rules)
    by_name = {r.name: r.id for r in rules.values()}
    out = []
    for v in values:
        v = v.strip()
        if v.lower() in by_name:  # a rule's name, as `explain` takes it
            out.append(by_name[v.lower()])
            continue
        if v.upper() == "ALL" or any(r.startswith(v.upper()) for r in known) and v.upper().startswith("NGL"):
            out.append(v.upper())
        else:
            raise ConfigError(f"{where}: unknown rule '{v}' (known: {', '.join(known)}, their names, "
                              "a prefix such as NGL00, or ALL)")
    return out


def selected_rules(settings: Settings, path: str | None = None, among=None) -> set[str]:
    """The rules that run on the file at `path` (None: on every file), of
    those `among` (None: every rule implemented)."""
    from .rules import OPT_IN

    if among is None:
        from .checks import CHECKS  # the rules implemented (their documents are read only where shown)

        among = CHECKS

    select, ignored = settings.select, settings.ignore
    if path is not None and settings.per_file_ignores:
        from .discover import excluded

        folder = settings.folder() or os.getcwd()
        patterns = _per_file_patterns(folder, tuple(settings.per_file_ignores.items()))
        ignored = (*ignored, *(i for pattern, ids in patterns if excluded(path, [pattern]) for i in ids))
    if not select:
        return {r for r in among if r not in OPT_IN and not _names(ignored, r)}
    # A rule that is off by default runs only when named (or selected by a
    # prefix as long as its id), or with ALL.
    return {r for r in among if _names(select, r) and (r not in OPT_IN or r in select or "ALL" in select)
            and not _names(ignored, r)}


def _names(ids, rule: str) -> bool:
    """Whether one of `ids` (rule ids, prefixes, ALL) names `rule`."""
    return any(i == "ALL" or rule.startswith(i) for i in ids)


@lru_cache(maxsize=32)
def _per_file_patterns(folder: str, per_file_ignores: tuple) -> list:
    """(discover.Patterns, rule ids) of each per-file-ignores pattern: read as
    `exclude` reads its patterns (gitignore's rules, written from the
    configuration file's folder), made once for the files they govern."""
    from .discover import Patterns

    return [(Patterns(folder, [glob]), ids) for glob, ids in per_file_ignores]
