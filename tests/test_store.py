"""The per-file store (store.py): after some files changed, a run gives
exactly what a cold run gives, and re-analyses nothing where the change
cannot matter to other files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nagle_lint import runner
from nagle_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "fixtures" / "c" / "helpers_project"
CACHE = ".nagle_lint_cache"
# A file the byte scan skips: no socket code, nothing another file calls.
NOTES = "/* Release notes, kept beside the code. */\nint notes_version(void) { return 3; }\n"


def lint(capsys, *argv):
    code = main(["--format", "json", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out)


def cold(capsys):
    return lint(capsys, "--no-cache", ".")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """helpers_project (client.c calls proto.c's helpers) and notes.c, linted once with the cache."""
    tree = tmp_path / "tree"
    shutil.copytree(HELPERS, tree)
    (tree / "notes.c").write_text(NOTES)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    return tree


def findings(doc) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["rule"]) for f in doc["findings"]]


def no_full_run(monkeypatch):
    """From now on, a run that analyses the files again fails."""
    def refused(*args, **kwargs):
        raise AssertionError("the files were analysed again")
    monkeypatch.setattr(runner, "_run", refused)


def test_an_edit_that_cannot_matter_to_other_files_analyses_no_other_file(project, capsys, monkeypatch):
    first = lint(capsys, ".")
    assert findings(first[1]) == [("./client.c", 17, "NGL001")]
    edits = [NOTES + "int notes_count(void) { return 4; }\n",  # a change the byte scan skips
             NOTES + "/* nagle-lint: ignore[NGL999] -- no such rule */\n"]  # one that gives the file a problem
    for text in edits:
        (project / "notes.c").write_text(text)
        expected = cold(capsys)
        with monkeypatch.context() as m:
            no_full_run(m)
            assert lint(capsys, ".") == expected
    assert expected[1]["problems"] and expected[1]["problems"][0]["path"] == "./notes.c"
    # Touched only: the same content, the same result.
    (project / "notes.c").touch()
    no_full_run(monkeypatch)
    assert lint(capsys, ".") == expected


def test_a_file_added_renamed_or_removed_that_cannot_matter_analyses_no_other_file(project, capsys, monkeypatch):
    lint(capsys, ".")
    steps = [lambda: (project / "more.c").write_text(NOTES.replace("notes_version", "more_version")),
             lambda: (project / "notes.c").rename(project / "renamed.c"),
             lambda: (project / "renamed.c").unlink(),
             lambda: (project / "blob.c").write_bytes(b"\0\1\2 binary")]  # a file that cannot be read as text
    for step in steps:
        step()
        expected = cold(capsys)
        with monkeypatch.context() as m:
            no_full_run(m)
            assert lint(capsys, ".") == expected


def test_editing_a_helper_changes_its_callers_finding_as_a_cold_run_does(project, capsys):
    proto = project / "proto.c"
    original = proto.read_text()
    assert findings(lint(capsys, ".")[1]) == [("./client.c", 17, "NGL001")]
    proto.unlink()  # removed: the helpers are unknown calls
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []
    proto.write_text(original)  # back
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == [("./client.c", 17, "NGL001")]
    # send_header() no longer writes: one write before the read, no split, no finding in client.c.
    proto.write_text(original.replace("write(fd, verb, strlen(verb));", "(void)fd; (void)verb;"))
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []
    proto.write_text(original.replace("write(fd, verb, strlen(verb));", "write(fd, verb, strlen(verb) + 0);"))
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == [("./client.c", 17, "NGL001")]


def test_a_skipped_file_that_starts_to_matter_to_another_is_analysed(project, capsys):
    """notes.c, skipped, comes to define a helper client.c calls and no
    linted file defines: a later round lowers it, as in a cold run."""
    client = project / "client.c"
    client.write_text(client.read_text().replace("    int n = read_reply", "    send_trailer(fd);\n    int n = read_reply"))
    (project / "notes.c").write_text(NOTES + "void send_trailer(int fd) { (void)fd; }\n")
    assert lint(capsys, ".") == cold(capsys)
    (project / "notes.c").write_text(NOTES + "void send_trailer(int fd) { write(fd, \"\\n\", 1); }\n")
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys)
    (project / "notes.c").write_text(NOTES)
    assert lint(capsys, ".") == cold(capsys)


def test_a_settings_change_is_a_full_run(project, capsys):
    lint(capsys, ".")
    (project / ".nagle-lint.toml").write_text('ignore = ["NGL001"]\n')
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []
    (project / ".nagle-lint.toml").write_text('max-file-size = "100"\n')  # every file too big: skipped unread
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []
    assert [p["path"] for p in incremental[1]["problems"]] == ["./client.c", "./proto.c"]


JOINED_CLIENT = """/* Calls the helpers of proto.c on a TCP socket made here, then reads. */
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

void send_header(int fd, const char *verb);
void send_body(int fd, const char *body);

int request(const struct sockaddr_in *sa, const char *body, char *out, int len)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    send_header(fd, "PUT ");
    send_body(fd, body);
    int n = (int)read(fd, out, len);
    close(fd);
    return n;
}
"""
# Both helpers write: both are lowered by the first round, and no later round reads the file again.
JOINED_PROTO = """/* Protocol helpers, each writing one piece. */
#include <string.h>
#include <unistd.h>

void send_header(int fd, const char *verb)
{
    write(fd, verb, strlen(verb));
}

void send_body(int fd, const char *body)
{
    write(fd, body, strlen(body));
}
"""
SPLIT = [("./client.c", 16, "NGL001")]


@pytest.fixture
def joined(tmp_path, monkeypatch):
    """client.c calls proto.c's helpers, which the first round lowers (and no later one again)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "client.c").write_text(JOINED_CLIENT)
    (tree / "proto.c").write_text(JOINED_PROTO)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    return tree


def counting_full_runs(monkeypatch) -> list:
    calls: list = []
    full = runner._run
    monkeypatch.setattr(runner, "_run", lambda *args: calls.append(1) or full(*args))
    return calls


def test_an_edit_that_keeps_a_lowered_files_model_analyses_no_other_file(joined, capsys, monkeypatch):
    assert findings(lint(capsys, ".")[1]) == SPLIT
    proto = joined / "proto.c"
    for n in range(2):  # each time against the text the last run kept
        proto.write_text(JOINED_PROTO + f"/* protocol version {n} */\n")
        expected = cold(capsys)
        with monkeypatch.context() as m:
            no_full_run(m)
            assert lint(capsys, ".") == expected
    assert findings(expected[1]) == SPLIT


# A third file, lowered too, that neither calls nor is called by the others.
OTHER = """/* A client of its own. */
#include <sys/socket.h>
#include <unistd.h>

int ping(int fd)
{
    char c;

    send(fd, "p", 1, 0);
    return (int)read(fd, &c, 1);
}
"""

OTHER_SPLIT = OTHER.replace('    send(fd, "p", 1, 0);', '    send(fd, "p", 1, 0);\n    send(fd, "q", 1, 0);')


def counting_work(monkeypatch) -> tuple[list, list]:
    """(the files lowered, the files checked), run after run (this process's share: one job)."""
    lowered, checked = [], []
    read, check = runner.read_file, runner._check_many

    def read_file(path, *args, **kwargs):
        prepared, problem = read(path, *args, **kwargs)
        if prepared is not None and prepared.model is not None:
            lowered.append(path)
        return prepared, problem

    monkeypatch.setattr(runner, "read_file", read_file)
    monkeypatch.setattr(runner, "_check_many", lambda args: checked.extend(args[0]) or check(args))
    return lowered, checked


@pytest.mark.parametrize("replayed_first", [False, True])
def test_an_edit_that_changes_a_lowered_files_model_lowers_it_alone_and_checks_its_callers(
        joined, capsys, monkeypatch, replayed_first):
    """send_header() no longer writes: the finding in client.c goes, and
    comes back with the write; only proto.c is lowered again, and only it
    and client.c (its caller) are checked again; after a full run, or
    (`replayed_first`) after a replay that kept proto.c's lowering anew."""
    (joined / "other.c").write_text(OTHER)
    lint(capsys, ".")
    proto = joined / "proto.c"
    if replayed_first:
        proto.write_text(JOINED_PROTO + "/* v2 */\n")
        with monkeypatch.context() as m:
            no_full_run(m)
            assert findings(lint(capsys, ".")[1]) == SPLIT
    for text, expected in [(JOINED_PROTO.replace("write(fd, verb, strlen(verb));", "(void)fd; (void)verb;"), []),
                           (JOINED_PROTO + "/* the write is back */\n", SPLIT)]:
        proto.write_text(text)
        with monkeypatch.context() as m:
            lowered, checked = counting_work(m)
            incremental = lint(capsys, ".")
        assert incremental == cold(capsys) and findings(incremental[1]) == expected
        # proto.c, and client.c, which a later round lowers for what proto.c's functions do (wanted
        # otherwise now), as a cold run does; never other.c
        assert set(lowered) == {"./client.c", "./proto.c"} and sorted(checked) == ["./client.c", "./proto.c"]


def test_a_new_finding_in_the_changed_file_appears_and_goes_with_no_other_file_checked(joined, capsys, monkeypatch):
    (joined / "other.c").write_text(OTHER)
    assert findings(lint(capsys, ".")[1]) == SPLIT
    other = joined / "other.c"
    for text, expected in [(OTHER_SPLIT, sorted(SPLIT + [("./other.c", 10, "NGL001")])), (OTHER + "\n", SPLIT)]:
        other.write_text(text)
        with monkeypatch.context() as m:
            lowered, checked = counting_work(m)
            incremental = lint(capsys, ".")
        assert incremental == cold(capsys) and findings(incremental[1]) == expected
        assert lowered == checked == ["./other.c"]


def counting_wants(monkeypatch) -> list:
    """The later rounds' wants found from the models (not taken from the record), run after run."""
    from nagle_lint.project import Project

    found: list = []
    wanted = Project.wanted
    monkeypatch.setattr(Project, "wanted", lambda self: found.append(1) or wanted(self))
    return found


DOUBLED = JOINED_PROTO.replace("    write(fd, verb, strlen(verb));",
                               "    write(fd, verb, strlen(verb));\n    write(fd, verb, strlen(verb));")


def test_a_model_changing_edit_that_keeps_the_files_outline_finds_no_wants_again(joined, capsys, monkeypatch):
    """send_header() writes twice now: its model changed, not what other
    files see of it (the same functions, calls and kinds of events): the
    later rounds' wants are the record's, and only proto.c and its caller
    are checked; a write gone changes the outline: the wants are found."""
    (joined / "other.c").write_text(OTHER)
    assert findings(lint(capsys, ".")[1]) == SPLIT
    proto = joined / "proto.c"
    for text, outline_kept in [(DOUBLED, True), (JOINED_PROTO + "/* the write once */\n", True),
                               (JOINED_PROTO.replace("write(fd, verb, strlen(verb));", "(void)fd;"), False)]:
        proto.write_text(text)
        with monkeypatch.context() as m:
            wants = counting_wants(m)
            lowered, checked = counting_work(m)
            incremental = lint(capsys, ".")
        assert incremental == cold(capsys)
        assert (wants == []) == outline_kept
        if outline_kept:
            assert lowered == ["./proto.c"] and sorted(checked) == ["./client.c", "./proto.c"]
    proto.write_text(DOUBLED)
    assert findings(lint(capsys, ".")[1]) == [("./proto.c", 8, "NGL001")]  # the change is seen (the split is there now)


def lowerings(tree: Path) -> list[Path]:
    return sorted((tree / CACHE).glob("*.lowering"))


def lowerings_of(tree: Path, path: str) -> list[Path]:
    """The kept lowerings of the file `path` (as linted from `tree`): a later round's is kept under two keys."""
    found = [p for p in lowerings(tree) if f'"{path}"'.encode() in p.read_bytes().partition(b"\n")[2]]
    assert found
    return found


def damage(entry: Path, how: str) -> None:
    head, _, payload = entry.read_bytes().partition(b"\n")
    if how == "cut short":
        entry.write_bytes(head + b"\n" + payload[:-1])
    elif how == "a byte changed":
        entry.write_bytes(head + b"\n" + payload.replace(b"request", b"requesT"))
    elif how == "another key":
        forged = dict(json.loads(head), key="lowering-0")
        entry.write_bytes(json.dumps(forged).encode() + b"\n" + payload)
    elif how == "not json":
        entry.write_bytes(b"{\n" + payload)
    elif how == "not a model":
        from nagle_lint.cache import _digest

        forged = dict(json.loads(head), sum=_digest(b'["os.system","x"]'))  # its digest right, its data not a model
        entry.write_bytes(json.dumps(forged).encode() + b"\n" + b'["os.system","x"]')
    else:
        entry.unlink()


@pytest.mark.parametrize("how", ["cut short", "a byte changed", "another key", "not json", "not a model", "gone"])
def test_a_damaged_lowering_is_lowered_again(joined, capsys, monkeypatch, how):
    """client.c's kept lowering (by a later round) is not to be trusted:
    when other.c changes (in a way that changes no round's wants), client.c
    is lowered again (and the result is a cold run's)."""
    (joined / "other.c").write_text(OTHER)
    lint(capsys, ".")
    for entry in lowerings_of(joined, "./client.c"):
        damage(entry, how)
    (joined / "other.c").write_text(OTHER_SPLIT)
    with monkeypatch.context() as m:
        lowered, _ = counting_work(m)
        incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == sorted(SPLIT + [("./other.c", 10, "NGL001")])
    assert sorted(lowered) == ["./client.c", "./other.c"]


def test_a_lowering_that_is_a_link_is_not_followed(joined, tmp_path, capsys):
    lint(capsys, ".")
    for n, entry in enumerate(lowerings_of(joined, "./client.c")):
        outside = tmp_path / f"outside{n}"
        outside.write_bytes(entry.read_bytes())
        entry.unlink()
        entry.symlink_to(outside)
    (joined / "proto.c").write_text(JOINED_PROTO + "/* edited */\n")
    before = outside.read_bytes()
    code = main(["--format", "json", "."])
    out, err = capsys.readouterr()
    assert code == 1 and findings(json.loads(out)) == SPLIT
    assert "is ignored" in err and outside.read_bytes() == before


def test_a_lowering_is_kept_as_the_same_data_in_every_process():
    """Its sets (the names a stub calls, ...) are written in one order, whatever the hash seed."""
    code = ("from nagle_lint.runner import read_file; from nagle_lint.config import Settings;"
            "from nagle_lint import modeldata;"
            f"p, _ = read_file({str(HELPERS / 'proto.c')!r}, Settings());"
            "print(modeldata.dumps((p.model, p.marks, p.errors, p.choice)))")
    texts = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                            capture_output=True, text=True, check=True).stdout for seed in range(4)}
    assert len(texts) == 1 and "send_header" in next(iter(texts))


def test_lowered_files_that_are_not_kept_are_lowered_again_as_cold(joined, capsys, monkeypatch):
    """Every lowering gone (a cache pruned by hand): the run lowers what it must, as cold."""
    lint(capsys, ".")
    for entry in lowerings(joined):
        entry.unlink()
    (joined / "proto.c").write_text(JOINED_PROTO + "int proto_version(void) { return 2; }\n")
    assert lint(capsys, ".") == cold(capsys)


def test_a_lowered_file_a_later_round_reads_again_is_a_full_run(project, capsys, monkeypatch):
    """proto.c's read_reply() is left without a body by the first round
    (it cannot start a finding) and lowered when client.c turns out to call
    it: an edit there changes no first-round model, but the finding."""
    proto = project / "proto.c"
    assert findings(lint(capsys, ".")[1]) == [("./client.c", 17, "NGL001")]
    proto.write_text(proto.read_text().replace("read(fd, buf, len)", "read(0, buf, len)"))  # reads another file
    calls = counting_full_runs(monkeypatch)
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []
    assert calls == [1, 1]


# A client of its own that hands its socket to a function no file defines (NAME).
TELLING = """/* A client of its own, that tells another file's function of its socket. */
#include <sys/socket.h>
#include <unistd.h>

int ping_NAME(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    char c;

    send(fd, "p", 1, 0);
    NAME(fd);
    return (int)read(fd, &c, 1);
}
"""


def test_a_later_rounds_lowering_is_taken_where_the_wants_changed_only_in_what_it_cannot_read(
        project, capsys, monkeypatch):
    """proto.c and client.c are lowered again by a later round (client.c
    calls proto.c's read_reply(), left without a body by the first).  A new
    file calling a function no file defines changes that round's wants, in a
    name neither file calls nor defines: their lowerings are taken from the
    store.  A call of a name both texts hold (`verb`, a parameter's) changes
    the part of the wants their lowerings read: they are lowered again.
    Each run gives a cold run's output; the lowerings are found so after
    runs that took them otherwise (the last run's result, replayed; the
    same wants)."""
    (project / "other.c").write_text(OTHER)
    lint(capsys, ".")
    (project / "notes.c").write_text(NOTES + "/* edited */\n")
    lint(capsys, ".")
    (project / "other.c").write_text(OTHER_SPLIT)
    lint(capsys, ".")
    for name, again in [("log_peer", []), ("verb", ["./client.c", "./proto.c"])]:
        (project / f"{name}.c").write_text(TELLING.replace("NAME", name))
        with monkeypatch.context() as m:
            wants = counting_wants(m)
            lowered, _ = counting_work(m)
            incremental = lint(capsys, ".")
        assert incremental == cold(capsys)
        assert findings(incremental[1]) == [("./client.c", 17, "NGL001"), ("./other.c", 10, "NGL001")]
        assert wants  # found: a file was added
        assert sorted(lowered) == sorted([f"./{name}.c", *again]), name


def records(tree: Path) -> list[Path]:
    return sorted((tree / CACHE).glob("*.files"))


def damaged(data: dict, how: str) -> str:
    if how == "files cut short":
        data["files"] = {p: v[:1] for p, v in data["files"].items()}
    elif how == "problems not text":
        data["result"]["problems"] = [[1, 2]]
    elif how == "another name":
        data["name"] = "files-0"
    elif how == "rounds not names":
        data["rounds"] = [{"needed": 3}]
    else:
        return how
    return json.dumps(data)


@pytest.mark.parametrize("how", ["not json", "[]", '{"name": 1}', "files cut short", "problems not text",
                                 "another name", "rounds not names"])
def test_a_damaged_record_is_a_full_run(project, capsys, monkeypatch, how):
    lint(capsys, ".")
    (record,) = records(project)
    record.write_text(damaged(json.loads(record.read_text()), how))
    for entry in (project / CACHE).glob("*.json"):  # the whole-tree entry gone: the record is what is left
        entry.unlink()
    (project / "notes.c").write_text(NOTES + "/* edited */\n")
    calls = []
    full = runner._run
    monkeypatch.setattr(runner, "_run", lambda *args: calls.append(1) or full(*args))
    assert lint(capsys, ".") == cold(capsys)
    assert calls == [1, 1]  # the run, then the cold one


def test_a_record_committed_to_the_repository_is_not_trusted(project, capsys):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    lint(capsys, ".")
    (record,) = records(project)
    data = json.loads(record.read_text())
    data["result"]["findings"] = []
    record.write_text(json.dumps(data))
    for entry in (project / CACHE).glob("*.json"):
        entry.unlink()
    subprocess.run([*git, "add", "-f", "-A"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "cache"], cwd=project, check=True)
    (project / "notes.c").write_text(NOTES + "/* edited */\n")
    code = main(["--format", "json", "."])
    out, err = capsys.readouterr()
    assert code == 1 and findings(json.loads(out)) == [("./client.c", 17, "NGL001")]
    assert "git tracks files in it" in err


def test_a_record_that_is_a_link_is_not_followed(project, tmp_path, capsys):
    lint(capsys, ".")
    (record,) = records(project)
    outside = tmp_path / "outside.json"
    outside.write_text(record.read_text().replace('"findings":[{', '"findings":[], "x":[{'))
    record.unlink()
    record.symlink_to(outside)
    for entry in (project / CACHE).glob("*.json"):
        entry.unlink()
    before = outside.read_text()
    code = main(["--format", "json", "."])
    out, err = capsys.readouterr()
    assert code == 1 and findings(json.loads(out)) == [("./client.c", 17, "NGL001")]
    assert "is ignored" in err and outside.read_text() == before


CLIENT = '''from net import connect


def get(host, key):
    sock = connect(host)
    sock.sendall(b"GET ")
    sock.sendall(key + b"\\n")
    return sock.recv(4096)
'''
# A connection factory: the byte scan skips it, a later round lowers it where a call names it.
FACTORY = "import socket\n\n\ndef connect(host):\n    return socket.create_connection((host, 7000))\n"


@pytest.fixture
def python_project(tmp_path, monkeypatch):
    """client.py calls connect(), which a/net.py and b/net.py both define."""
    tree = tmp_path / "tree"
    for folder in ("a", "b"):
        (tree / folder).mkdir(parents=True)
        (tree / folder / "net.py").write_text(FACTORY)
    (tree / "client.py").write_text(CLIENT)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    return tree


def test_a_skipped_file_that_offered_a_function_not_taken_still_counts(python_project, capsys):
    """Two folders offer connect(): neither is taken (the call is
    ambiguous: the connection is unknown), no finding.  Once one no longer
    defines it, the other is taken: a TCP connection, split writes, as in a
    cold run."""
    assert findings(lint(capsys, ".")[1]) == []
    (python_project / "b" / "net.py").write_text(FACTORY.replace("connect", "connect_other"))
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == [("./client.py", 7, "NGL001")]
    (python_project / "b" / "net.py").write_text(FACTORY)
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == []


def test_a_skipped_file_that_comes_to_offer_a_function_counts(python_project, capsys):
    (python_project / "b" / "net.py").unlink()
    (python_project / "a" / "net.py").write_text(FACTORY.replace("connect", "connect_other"))
    assert findings(lint(capsys, ".")[1]) == []
    (python_project / "a" / "net.py").write_text(FACTORY)
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and findings(incremental[1]) == [("./client.py", 7, "NGL001")]


def test_a_response_module_that_comes_to_send_keeps_its_callers_finding(tmp_path, monkeypatch, capsys):
    """base_constructor_project: the byte scan skips response.py (it sends
    nothing), and a later round lowers the constructors client.py makes.
    Once response.py sends too, the first round lowers it, its constructors
    left without a body: a later round must lower them still, in the run
    with the store as in a cold run."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "fixtures" / "python" / "base_constructor_project", tree)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    split = [("./client.py", 15, "NGL001"), ("./client.py", 22, "NGL001"), ("./client.py", 35, "NGL001")]
    assert findings(lint(capsys, ".")[1]) == split
    response = tree / "response.py"
    text = response.read_text()
    for now in (text + "\n\ndef probe(sock):\n    sock.sendall(b'ping')\n", text):
        response.write_text(now)
        incremental = lint(capsys, ".")
        assert incremental == cold(capsys) and findings(incremental[1]) == split

def test_a_file_read_once_is_known_by_its_signature_until_it_changes(tmp_path, monkeypatch):
    import os
    import time

    from nagle_lint import cache
    from nagle_lint.config import Settings

    path = tmp_path / "a.py"
    path.write_bytes(b"x = 1\n")
    files, signatures = [str(path)], {}
    digest = cache.file_digests(files, Settings(), None, signatures)[str(path)][0]
    assert signatures == {str(path): None}  # changed just now: its times are not to be trusted yet
    monkeypatch.setattr(cache, "SETTLED_NS", -10**18)  # as if it had been read long after its last change
    cache.file_digests(files, Settings(), None, signatures)
    known = {str(path): (signatures[str(path)], "as recorded")}
    assert cache.file_digests(files, Settings(), known)[str(path)][0] == "as recorded"  # not read again
    st = path.stat()
    time.sleep(0.05)  # past the clock's tick: the change time moves on
    with open(path, "r+b") as fh:  # the same size, inode and modification time
        fh.write(b"y = 2\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    found = cache.file_digests(files, Settings(), known)[str(path)][0]
    assert found not in ("as recorded", digest)


def test_a_file_changed_with_its_size_and_times_kept_is_linted_again_after_its_signature_is_kept(
        project, capsys, monkeypatch):
    import os
    import time

    from nagle_lint import cache

    monkeypatch.setattr(cache, "SETTLED_NS", -10**18)
    assert findings(lint(capsys, ".")[1]) == [("./client.c", 17, "NGL001")]
    proto = project / "proto.c"
    st = proto.stat()
    time.sleep(0.05)
    proto.write_text(proto.read_text().replace("write(fd, verb, strlen(verb));", "(void)fd;      (void)verb;    "))
    assert proto.stat().st_size == st.st_size
    os.utime(proto, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert lint(capsys, ".") == cold(capsys) and findings(cold(capsys)[1]) == []


# Model-changing edits, one after the other: (file, text replaced, by what).
SERIES = [
    ("c/helpers_project/proto.c", "    write(fd, verb, strlen(verb));", "    (void)verb;"),  # a helper's send gone
    ("python/split_three_sends.py", "    sock.send(bytes([OP_STORE]))  # catalogue: sends.send\n", ""),  # a send gone
    ("c/helpers_project/client.c", "    send_body(fd, body);", "    send_body(fd, body);\n    send_body(fd, body);"),
    ("c/helpers_project/proto.c", "    (void)verb;", "    write(fd, verb, strlen(verb));"),  # back
    ("c/helpers_project/proto.c", "send_body", "send_payload"),  # renamed: the callers' calls unknown
]


def test_a_series_of_edits_to_the_fixtures_gives_what_cold_runs_give(tmp_path, monkeypatch, capsys):
    """Every fixture (many files lowered, findings across files, later
    rounds): after each model-changing edit, the run with the store prints
    byte for byte what a run without the cache prints."""
    tree = tmp_path / "fixtures"
    for language in ("c", "python"):
        shutil.copytree(ROOT / "fixtures" / language, tree / language)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)

    def printed(*argv):
        code = main(["--format", "json", *argv, "."])
        return code, capsys.readouterr().out

    printed()
    changed = set()
    for name, old, new in SERIES:
        path = tree / name
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new))
        incremental = printed()
        assert incremental == printed("--no-cache"), name
        changed.add(incremental)
    assert len(changed) >= len(SERIES) - 1  # the edits changed what is found (one may find what an earlier did)


# Edits that change a file's model, and whether they keep its outline (the last record's).
OUTLINE_SERIES = [
    ("c/helpers_project/proto.c", "    write(fd, verb, strlen(verb));",  # kept, but a later round reads the file again
     "    write(fd, verb, strlen(verb));\n    write(fd, verb, strlen(verb));", False),
    ("python/split_three_sends.py", "    sock.send(data)\n", "    sock.send(data)\n    sock.send(data)\n", True),
    ("java/buffered_flush_each_piece.java", "            out.write(body);",
     "            out.write(body);\n            out.write(body);", True),
    ("c/array_each_element_split.c", "        write(c->peers[i], body, bl);",
     "        write(c->peers[i], body, bl);\n        write(c->peers[i], body, bl);", True),
    ("python/split_three_sends.py", "    sock.send(data)\n", "    send_rest(sock, data)\n", False),  # a new call
    # The same call once more: what other files see of the file (the calls it makes, not how often) is the same.
    ("python/split_three_sends.py", "    send_rest(sock, data)\n", "    send_rest(sock, data)\n    send_rest(sock, data)\n",
     True),
    ("c/array_each_element_split.c", "write(c->peers[i], ", "read(c->peers[i], ", False),  # reads, no send left
]


def test_what_an_unchanged_outline_takes_from_the_record_is_what_the_models_give(tmp_path, monkeypatch, capsys):
    """Every fixture, a series of model-changing edits (none back to a tree
    linted before, which the result cache would give): where the changed
    files' outlines are the record's, the wants taken for each round and the
    files checked again are those found the long way (every round's wants
    from the models, the dependents against the project before the edit),
    and the output is a cold run's."""
    from nagle_lint import store

    tree = tmp_path / "fixtures"
    for language in ("c", "python", "java"):
        shutil.copytree(ROOT / "fixtures" / language, tree / language)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    taken: list = []
    wanted, kept = store.Trace.wanted, store.Store.checks_kept

    def wanted_checked(self, project):
        out = wanted(self, project)
        if self.store.same_outlines():
            assert out == project.wanted()
            taken.append("wanted")
        return out

    def kept_checked(self, prepared, project, rules, settings):
        out = kept(self, prepared, project, rules, settings)
        if self.same_outlines():
            self._same = False  # the long way, once more
            assert out.keys() == kept(self, prepared, project, rules, settings).keys()
            self._same = True
            taken.append("checks")
        return out

    monkeypatch.setattr(store.Trace, "wanted", wanted_checked)
    monkeypatch.setattr(store.Store, "checks_kept", kept_checked)

    def printed(*argv):
        code = main(["--format", "json", *argv, "."])
        return code, capsys.readouterr().out

    printed()
    for name, old, new, outline_kept in OUTLINE_SERIES:
        path = tree / name
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new))
        before = len(taken)
        assert printed() == printed("--no-cache"), name
        assert (len(taken) > before) == outline_kept, name


def test_a_lowering_read_back_is_the_same_lowering():
    from nagle_lint import modeldata
    from nagle_lint.config import Settings

    for path in (HELPERS / "proto.c", ROOT / "fixtures" / "python" / "split_three_sends.py"):
        prepared, _ = runner.read_file(str(path), Settings(), scanned=True)
        lowering = (prepared.model, prepared.marks, prepared.errors, prepared.choice)
        assert modeldata.loads(modeldata.dumps(lowering)) == lowering


@pytest.mark.parametrize("text", ['["os.system", "rm"]', '["Send"]', '{"a": 1}', '[9, 1]', '["Site", 1, 2]', "[",
                                  '["__class__"]'])
def test_data_that_is_no_lowering_is_refused(text):
    """Only the model's own classes, with their own number of fields, are made from it."""
    from nagle_lint import modeldata

    with pytest.raises(ValueError):
        modeldata.loads(text)


def test_an_option_handed_on_through_calls_of_other_files_is_taken_back_as_a_cold_run_does(tmp_path, monkeypatch,
                                                                                             capsys):
    """Server.java turns TCP_NODELAY on for the sockets it hands to a factory, whose handler
    (Handlers.java) makes the object that writes the replies (Replies.java): edited so that
    the option is gone, the replies' split is found again in a file no call of Server.java
    reaches directly."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "fixtures" / "java" / "handler_factory_nodelay_project", tree)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    server = tree / "Server.java"
    original = server.read_text()
    assert ("./Replies.java", 16, "NGL001") not in findings(lint(capsys, ".")[1])
    server.write_text(original.replace("client.setTcpNoDelay(true);", "client.setKeepAlive(true);"))
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and ("./Replies.java", 16, "NGL001") in findings(incremental[1])
    server.write_text(original)
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and ("./Replies.java", 16, "NGL001") not in findings(incremental[1])


def test_an_option_a_helper_of_another_file_turns_on_is_taken_back_as_a_cold_run_does(tmp_path, monkeypatch, capsys):
    """Server.java has SocketOptions.java's helper turn TCP_NODELAY on for the sockets it
    hands to Handler.java: edited so that the helper no longer does, the handler's split is
    found again, though neither Server.java nor Handler.java changed."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "fixtures" / "java" / "nodelay_helper_project", tree)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    options = tree / "SocketOptions.java"
    original = options.read_text()
    assert ("./Handler.java", 22, "NGL001") not in findings(lint(capsys, ".")[1])
    options.write_text(original.replace("socket.setTcpNoDelay(true); // expect: NGL002", "socket.setSoTimeout(1000);"))
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and ("./Handler.java", 22, "NGL001") in findings(incremental[1])
    options.write_text(original)
    incremental = lint(capsys, ".")
    assert incremental == cold(capsys) and ("./Handler.java", 22, "NGL001") not in findings(incremental[1])
