"""The command line: `nagle-lint [check] [PATH ...]`, `nagle-lint rules`, `nagle-lint explain RULE`,
`nagle-lint demo`, `nagle-lint clean`, `nagle-lint server`, `nagle-lint help [SUBCOMMAND]`."""

from __future__ import annotations

import os
import sys

from .arguments import Parser, UsageError, parse, print_error
from .cache import DIRNAME
from .config import LEVELS, ConfigError, Resolver, Settings, check_rule_ids, find_config, load

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# Words that name a subcommand where a path could be (`check` lints the paths after it).
SUBCOMMANDS = ("check", "rules", "explain", "demo", "clean", "server", "help")


def settings_from(args):
    """The run's settings: with --config, that file's for every file; else a
    config.Resolver (each file's nearest configuration file).  The command
    line's settings are on top of either."""
    overrides = {}
    if args.select is not None:
        overrides["select"] = tuple(check_rule_ids(args.select, "--select"))
    if args.ignore is not None:
        overrides["ignore"] = tuple(check_rule_ids(args.ignore, "--ignore"))
    if args.exclude:
        overrides["cli_exclude"] = tuple(args.exclude)
    for name in ("fail_on", "min_confidence", "max_file_size", "timeout"):
        if getattr(args, name) not in (None, ""):
            overrides[name] = getattr(args, name)
    from .discover import project_tops

    roots = project_tops(args.paths or [args.stdin_filename or "."])
    if args.config:
        if not os.path.isfile(args.config):
            raise ConfigError(f"{args.config}: no such config file")
        return load(args.config).replace(**overrides, roots=roots)
    return Resolver(overrides, roots=roots)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        if argv and argv[0] == "check":
            return lint(parse(argv[1:], "nagle-lint check"))
        if argv and argv[0] in SUBCOMMANDS:
            if os.path.lexists(argv[0]):
                # `nagle-lint rules` in a tree with a `rules/` folder: neither reading can be
                # assumed (a CI step meant to lint it would pass having linted nothing).
                raise UsageError(f"'{argv[0]}' is both a subcommand and a path here: lint the path with "
                                 f"'nagle-lint check {argv[0]}' (or './{argv[0]}'), or run the subcommand "
                                 "from another folder")
            return subcommand(argv[0], argv[1:])
        return lint(parse(argv))
    except (UsageError, ConfigError) as e:
        print_error(str(e))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # an internal error: one line unless asked for more
        if debug:
            raise
        print_error(f"internal error: {type(e).__name__}: {e} (run with --debug for the traceback)")
        return EXIT_ERROR


def entry() -> None:
    """The command (`nagle-lint`, `python -m nagle_lint`): `main`, then, with
    the workers reaped and the files closed, the output flushed and the
    process ended at once, as mypy ends: the interpreter's own ending would
    free every object one by one (4% of a run on curl).  NAGLE_LINT_NO_HARD_EXIT=1
    ends it as usual (atexit handlers, other threads, a profiler)."""
    status = main()
    if os.environ.get("NAGLE_LINT_NO_HARD_EXIT"):
        raise SystemExit(status)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


# Reports that depend on the result alone (SARIF, GitLab's and GitHub's read
# the files and the environment): what they printed can be printed again.
# full reads the source lines too, but the same files give the same lines;
# whether it is coloured is part of what is kept.
REPLAYED_FORMATS = ("full", "concise", "text", "json", "json-lines", "rdjson", "junit")


def resolve_format(args) -> None:
    """The format a run prints (full on a terminal, else concise) and whether
    it is coloured: on a terminal, unless NO_COLOR is set (no-color.org)."""
    tty = not args.output_file and sys.stdout.isatty()
    if args.format is None:
        args.format = "full" if tty else "concise"
    args.color = args.format == "full" and tty and not os.environ.get("NO_COLOR")
    if args.statistics and args.format not in STATISTICS_FORMATS:
        raise UsageError(f"--statistics prints text or JSON: give --format {' or '.join(STATISTICS_FORMATS[1:])}"
                         f" (not {args.format})")


STATISTICS_FORMATS = ("full", "concise", "text", "json")


def lint(args) -> int:
    settings = settings_from(args)
    resolve_format(args)
    refused = _refused(args)
    if refused:
        raise UsageError(refused)
    if "-" in args.paths:  # standard input, as ruff reads it
        args.paths = []
    if args.stdin_filename:
        return _lint_stdin(args, settings)
    paths = args.paths or ["."]
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise UsageError(f"{', '.join(missing)}: no such file or directory")
    if args.show_settings:
        return _show_settings(args, settings, paths)
    if args.show_files:
        return _show_files(args, settings, paths)
    return _lint_paths(args, settings, paths)


def _refused(args) -> str | None:
    """Why the options given cannot go together (the first reason, in this order), or None."""
    from .languages import language_of

    fixing = args.fix or args.diff
    stdin = "-" in args.paths
    reasons = (
        (args.jobs is not None and args.jobs < 1, "--jobs must be at least 1"),
        (args.quiet and args.verbose, "--quiet and --verbose ask for opposite things: give one"),
        (args.output_file and language_of(args.output_file) and os.path.exists(args.output_file),
         f"--output-file {args.output_file} is a source file: the report would overwrite it"),
        (stdin and args.paths != ["-"], "'-' (standard input) cannot be linted together with other paths"),
        (stdin and not args.stdin_filename, "'-' reads standard input: name it with --stdin-filename PATH "
                                            "(its extension tells the language)"),
        ((args.unsafe_fixes or args.show_fixes) and not fixing,
         f"{'--unsafe-fixes' if args.unsafe_fixes else '--show-fixes'} goes with --fix or --diff"),
        (fixing and args.stdin_filename,
         f"{'--fix' if args.fix else '--diff'} changes files: it cannot read standard input"),
    )
    return next((why for refused, why in reasons if refused), None)


def _show_settings(args, settings, paths) -> int:
    """As ruff's: the settings each path named gets (a folder's: those of the files in it)."""
    sys.stdout.write("\n".join(
        (f"# {path}\n" if args.paths else "")
        + settings_text(settings.in_folder(path) if os.path.isdir(path) else settings.of(path))
        for path in paths))
    return EXIT_CLEAN


def _show_files(args, settings, paths) -> int:
    from .report.text import printable
    from .runner import plan

    planned = plan(paths, settings, args.force_exclude)
    sys.stdout.write("".join(printable(path) + "\n" for path in planned.files))
    for path, problem in planned.missing:
        print(f"nagle-lint: warning: {printable(path)}: {problem}", file=sys.stderr)
    return EXIT_CLEAN


def _lint_paths(args, settings, paths) -> int:
    from .runner import plan

    cache = cache_of(args, settings)
    try:
        planned = plan(paths, settings, args.force_exclude, cache)
        if not planned.files and not planned.missing:
            if args.force_exclude and not any(os.path.isdir(p) for p in paths):
                # pre-commit names the staged files: all of them excluded is what was configured.
                if not args.quiet:
                    print("nagle-lint: every file named is excluded (--force-exclude): nothing to lint",
                          file=sys.stderr)
                return EXIT_CLEAN
            raise UsageError(f"nothing to lint: no Python, Java or C file in {', '.join(paths)} "
                             "(or every one is excluded)")
        if args.fix or args.diff:
            status = _fix(args, settings, planned)
            if status is not None:
                return status
            planned = plan(paths, settings, args.force_exclude, cache)  # the files as fixed
        return _lint_planned(args, settings, planned)
    finally:
        if cache is not None:
            cache.close()
            if cache.warning and not args.quiet:
                print(f"nagle-lint: warning: {cache.warning}", file=sys.stderr)


def _lint_planned(args, settings, planned) -> int:
    from .runner import run_planned

    variant = None
    if planned.digest is not None and args.format in REPLAYED_FORMATS and not (
            args.baseline or args.write_baseline or args.diff_base):
        variant = f"{args.format}-" + "".join(str(int(bool(flag))) for flag in (
            args.include_suppressed, args.quiet, args.verbose, args.exit_zero, args.statistics, args.color))
        printed = planned.cache.replay(planned.digest, variant)
        if printed is not None:
            return _print(args, *printed)
    printed = _report(args, settings, run_planned(planned, settings, args.jobs))
    status = _print(args, *printed)
    if variant is not None:
        planned.cache.keep_printed(planned.digest, variant, *printed)
    return status


def _fix(args, settings, planned) -> int | None:
    """Apply (--fix) or show (--diff) the fixes: the exit status with --diff,
    else None (the files as fixed are linted and reported as usual)."""
    from . import fixing
    from .runner import run_planned

    result, keep = run_planned(planned, settings, args.jobs), None
    if args.baseline or args.diff_base:  # only what would be reported is fixed
        from .baseline import reported_only

        keep = reported_only(result, args.baseline, args.diff_base,
                             start=args.paths[0] if args.paths else args.stdin_filename)
    files, held_back = fixing.fix_all(result, settings, args.unsafe_fixes, keep)
    count = sum(len(f.fixed) for f in files)
    notes = fixing.listing(files) if args.show_fixes else ""
    if args.diff:
        sys.stdout.write("".join(fixing.unified_diff(f) for f in files))
    else:
        for f in files:
            try:
                fixing.write(f)
            except OSError as e:
                raise UsageError(f"cannot write {f.path}: {e.strerror}") from None
    sys.stderr.write(notes + ("" if args.quiet else _fixed_summary(args.diff, count, len(files), held_back)))
    if args.diff:
        return EXIT_FINDINGS if files else EXIT_CLEAN
    return None


def _fixed_summary(diff: bool, count: int, files: int, held_back: int) -> str:
    """What --fix fixed (or --diff would fix), and how many fixes --unsafe-fixes would add."""
    plural = "" if count == 1 else "s"
    said = (f"Would fix {count} finding{plural} in {files} file{'s' if files != 1 else ''}.\n" if diff
            else f"Fixed {count} finding{plural}.\n") if count or diff else ""
    if held_back:
        said += (f"{held_back} more fix{'es' if held_back != 1 else ''} available with --unsafe-fixes "
                 "(check them: they may change behaviour on errors or partial writes).\n")
    return said


def _report(args, settings, result, lines=None) -> tuple[int, str, str]:
    """(exit status, report, warnings) of a run; `lines`: a fingerprint.Lines
    the reports read the source from (else the files)."""
    from .report import render

    if args.baseline or args.write_baseline or args.diff_base:
        from .baseline import adopt

        adopt(result, args.baseline, args.write_baseline, args.diff_base, quiet=args.quiet,
              start=args.paths[0] if args.paths else args.stdin_filename)
    if args.statistics:
        from .report.statistics import render as statistics

        report = statistics(result, as_json=args.format == "json", include_suppressed=args.include_suppressed)
    else:
        report = render(args.format, result, include_suppressed=args.include_suppressed, color=args.color,
                        lines=lines)
    warnings = "" if args.quiet else "".join(line + "\n" for line in _warnings(result, args.verbose))
    if result.files == 0:  # every path named was a file that could not be read
        return EXIT_ERROR, report, warnings + "nagle-lint: error: nothing could be linted\n"
    if not args.quiet:
        from .report.text import summary

        warnings += summary(result) + "\n"
    # Each finding against its own file's fail-on.
    failing = [f for f in result.shown if LEVELS.index(f.level) >= LEVELS.index(settings.of(f.path).fail_on)]
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN, report, warnings


def _print(args, status: int, report: str, warnings: str) -> int:
    if args.output_file:
        from .output import write_text

        try:
            write_text(args.output_file, report)
        except OSError as e:
            raise UsageError(f"cannot write {args.output_file}: {e.strerror}") from None
    else:
        sys.stdout.write(report)
    sys.stderr.write(warnings)
    return status


def settings_text(settings) -> str:
    """The settings as the keys of a configuration file, after a line
    saying where they come from (the command line's on top)."""
    import json

    from .config import KEYS

    lines = [f"# settings from {settings.source}" if settings.source else "# default settings (no configuration file)"]
    for key in KEYS:
        value = getattr(settings, key.replace("-", "_"))
        value = list(value) if isinstance(value, tuple) else {k: list(v) for k, v in value.items()} \
            if isinstance(value, dict) else value
        lines.append(f"{key} = {json.dumps(value)}")
    if settings.cli_exclude:
        lines.append(f"# and --exclude (from the current folder): {json.dumps(list(settings.cli_exclude))}")
    return "\n".join(lines) + "\n"


def cache_of(args, settings):
    """The run's cache.Cache, or None (--no-cache): --cache-dir, else
    $NAGLE_LINT_CACHE_DIR, else one folder at the project's root."""
    if args.no_cache:
        return None
    from .cache import ENV, Cache

    folder = args.cache_dir or os.environ.get(ENV) or os.path.join(project_root(args.paths, settings), DIRNAME)
    return Cache(folder)


def project_root(paths, settings) -> str:
    """Where a project's cache lives: the top of the git work tree holding
    the first linted path, else the folder of the configuration file found
    from the current folder (or --config's), else the current folder.  Runs
    from any of its folders share it."""
    from .discover import git_top

    start = os.path.abspath(paths[0] if paths else ".")
    return git_top(start if os.path.isdir(start) else os.path.dirname(start)) or settings.in_folder(".").folder() \
        or os.getcwd()


def _lint_stdin(args, settings) -> int:
    """Lint standard input as the file --stdin-filename names (nothing, where it is excluded)."""
    from .discover import excluded, excludes
    from .fingerprint import Lines
    from .languages import language_of
    from .prepared import syntax_errors
    from .report import Result
    from .runner import lint_file

    if args.paths:
        raise UsageError("--stdin-filename lints standard input: give no PATH")
    path = args.stdin_filename
    if language_of(path) is None:
        raise UsageError(f"--stdin-filename {path}: not a Python, Java or C file name")
    if args.force_exclude and excluded(path, excludes(settings.of(path))):
        return EXIT_CLEAN  # excluded, as configured: nothing to say
    data = sys.stdin.buffer.read()
    _, findings, problem, errors = lint_file(path, settings, data=data)
    result = Result(findings, 0 if problem else 1, [(path, problem)] if problem else [])
    if errors:
        result.problems.append((path, syntax_errors(errors)))
    # The report shows the lines that came on standard input, not the file's on disk.
    return _print(args, *_report(args, settings, result, Lines({path: data})))


def _warnings(result, verbose: bool) -> list[str]:
    from .prepared import PARTIAL
    from .report.text import printable

    lines = []
    partial = [(p, m) for p, m in result.problems if m.endswith(PARTIAL)]
    for path, message in result.problems:
        if (path, message) not in partial or verbose:
            lines.append(f"nagle-lint: warning: {printable(path)}: {message}")
    if partial and not verbose:
        n = len(partial)
        lines.append(f"nagle-lint: warning: {n} file{'s' if n != 1 else ''} had syntax errors (often macros); "
                     f"{PARTIAL} (--verbose lists them)")
    return lines


def _caches_under(root: str) -> list[str]:
    """Every cache folder in the project (runs from its subfolders used to
    leave one there), without following links."""
    from .discover import SKIP_DIRS

    found = []
    for folder, subdirs, _ in os.walk(root):
        if DIRNAME in subdirs:
            found.append(os.path.join(folder, DIRNAME))
        subdirs[:] = [d for d in subdirs if d not in SKIP_DIRS]
    return found


def _subcommand_parser(name: str):
    """The parser of a subcommand's arguments (`help NAME` prints its help)."""
    if name == "check":
        from .arguments import build_parser

        return build_parser("nagle-lint check")
    if name == "demo":
        from .demo import _parser

        return _parser()
    described = {
        "rules": "List the rules: id, name, level (and whether it is off unless selected), summary.",
        "explain": "Print a rule's document: what it finds, why it hurts, how to fix it.",
        "clean": f"Remove the project's result caches ({DIRNAME}/ in its folders, and $NAGLE_LINT_CACHE_DIR).",
        "server": "A language server for editors (the Language Server Protocol on stdin and stdout; "
                  "needs the server extra).",
        "help": "Print the help of nagle-lint or of one subcommand.",
    }
    parser = Parser(prog=f"nagle-lint {name}", description=described[name])
    if name == "explain":
        parser.add_argument("rule", metavar="RULE", help="a rule id or name (NGL001, split-write-before-read)")
    if name == "clean":
        parser.add_argument("--cache-dir", metavar="DIR", help="remove this cache folder too")
    if name == "help":
        parser.add_argument("subcommand", nargs="?", choices=SUBCOMMANDS, metavar="SUBCOMMAND",
                            help=f"one of {', '.join(SUBCOMMANDS)}")
    return parser


def subcommand(name: str, rest: list[str]) -> int:
    if name == "demo":  # it reads its own options
        from .demo import main as demo_main

        return demo_main(rest)
    args = _subcommand_parser(name).parse_args(rest)
    return {"help": _help, "rules": _rules, "explain": _explain, "clean": _clean, "server": _server}[name](args)


def _help(args) -> int:
    from .arguments import build_parser

    parser = _subcommand_parser(args.subcommand) if args.subcommand else build_parser()
    parser.print_help()
    return EXIT_CLEAN


def _rules(args) -> int:
    from .rules import OPT_IN, all_rules

    rules = all_rules()
    width = max(len(r.name) for r in rules.values())
    levels = {r.id: r.level + (" (off unless selected)" if r.id in OPT_IN else "") for r in rules.values()}
    level_width = max(map(len, levels.values()))
    for r in rules.values():
        print(f"{r.id}  {r.name:<{width}}  {levels[r.id]:<{level_width}}  {r.summary}")
    return EXIT_CLEAN


def _explain(args) -> int:
    from .rules import all_rules

    rules = all_rules()
    rule = rules.get(args.rule.upper()) or next((r for r in rules.values() if r.name == args.rule.lower()), None)
    if rule is None:
        raise UsageError(f"unknown rule '{args.rule}' (known: {', '.join(rules)}, or their names)")
    sys.stdout.write(rule.body)
    return EXIT_CLEAN


def _clean(args) -> int:
    from .cache import ENV, clean

    root = project_root(["."], Settings(source=find_config(".")))
    folders = _caches_under(root) + [f for f in (args.cache_dir or os.environ.get(ENV),) if f]
    removed = [f for f in dict.fromkeys(folders) if clean(f)]
    print(f"removed {', '.join(removed)}" if removed else "no cache to remove")
    return EXIT_CLEAN


def _server(args) -> int:
    from .lsp import main as serve

    return serve([])


if __name__ == "__main__":
    entry()
