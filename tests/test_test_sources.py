"""Which files are tests' or benchmarks' sources (`Catalogue.test_source`): by
each language's conventions, a folder on the path or the file's name."""

from __future__ import annotations

import pytest

from nagle_lint.languages import frontend

from test_catalogue import TEST_FOLDERS


@pytest.mark.parametrize("language, path, expected", [
    ("java", "mina/benchmarks/common/src/test/java/org/apache/mina/Client.java", True),
    ("java", "./src/test/java/io/nats/client/utils/RunProxy.java", True),
    ("java", "netty/microbench/src/main/java/io/netty/jmh/Buffers.java", True),
    ("java", "examples/src/main/java/io/nats/examples/benchmark/RawTCPLatency.java", True),
    ("java", "examples/src/main/java/org/apache/mina/examples/http/HttpTest.java", False),  # an example
    ("java", "src/main/java/org/example/ClientTests.java", True),
    ("java", "src/main/java/org/example/EchoBenchmark.java", True),
    ("java", "src/main/java/io/nats/client/impl/SocketDataPort.java", False),
    ("java", "src/main/java/org/example/testing/Contest.java", False),  # no folder named so, no *Test.java
    ("java", "testsuite/src/main/java/io/netty/testsuite/transport/socket/SocketHalfClosedTest.java", True),
    ("python", "src/twisted/test/test_tcp.py", True),
    ("python", "tests/helpers.py", True),
    ("python", "tools/latency_test.py", True),
    ("python", "src/pkg/contest.py", False),
    ("python", "src/pkg/testing.py", False),
    ("c", "tests/server/sws.c", True),
    ("c", "src/bench/load.c", True),
    ("c", "src/bench_echo.c", True),
    ("c", "src/event/ngx_event_connect.c", False),
    ("c", "src/latest.c", False),
    ("c", "libffi/testsuite/libffi.call/struct1.c", True),  # DejaGnu's folder
])
def test_test_source(language: str, path: str, expected: bool):
    assert frontend(language).catalogue.test_source(path) is expected


@pytest.mark.parametrize("language", TEST_FOLDERS)
def test_each_test_folder_makes_a_test_source(language: str):
    cat = frontend(language).catalogue
    assert sorted(cat.test_folders) == TEST_FOLDERS[language].split()
    for folder in cat.test_folders:
        assert cat.test_source(f"project/{folder}/module/file.any")
        assert not cat.test_source(f"project/{folder}x/module/file.any")


def test_a_test_sources_note_has_low_confidence(tmp_path):
    """The model says a file is a test's, and NGL002's note on it has low confidence."""
    from nagle_lint.config import Settings
    from nagle_lint.runner import lint_file

    source = ("import java.io.IOException;\nimport java.net.Socket;\n\nfinal class Dialer {\n"
              "    static Socket dial(String host, int port) throws IOException {\n"
              "        Socket socket = new Socket(host, port);\n"
              "        socket.setTcpNoDelay(true);\n"
              "        return socket;\n    }\n}\n")
    for folder, confidence in (("test", "low"), ("main", "high")):
        path = tmp_path / "src" / folder / "Dialer.java"
        path.parent.mkdir(parents=True)
        path.write_text(source)
        model = frontend("java").lower(str(path), source.encode())
        assert model.test_source is (folder == "test")
        findings = lint_file(str(path), Settings().replace(min_confidence="low"))[1]
        assert [(f.rule, f.confidence) for f in findings] == [("NGL002", confidence)]


NODELAY_NO_REASON = ("import socket\n\n\ndef dial(host, port):\n"
                     "    sock = socket.create_connection((host, port))\n"
                     "    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n"
                     "    return sock\n")


def _nodelay_confidences(capsys, *argv) -> list[str]:
    import json

    from nagle_lint.cli import main

    main(["--no-cache", "--format", "json", "--min-confidence", "low", *argv])
    return [f["confidence"] for f in json.loads(capsys.readouterr().out)["findings"]]


def test_only_the_projects_own_folders_tell_a_test(tmp_path, monkeypatch, capsys):
    """A project checked out under a folder named `tests` holds no test: the
    same file is judged alike whether it is linted as `.`, by its absolute
    path or from the folder above."""
    project = tmp_path / "tests" / "proj"
    project.mkdir(parents=True)
    (project / "dial.py").write_text(NODELAY_NO_REASON)
    monkeypatch.chdir(project)
    assert _nodelay_confidences(capsys, ".") == ["high"]
    assert _nodelay_confidences(capsys, str(project)) == ["high"]
    monkeypatch.chdir(tmp_path)
    assert _nodelay_confidences(capsys, "tests/proj") == ["high"]
    assert _nodelay_confidences(capsys, "tests/proj/dial.py") == ["high"]


def test_a_git_work_tree_is_the_project(tmp_path, monkeypatch, capsys):
    """In a git work tree, its `tests` folder holds tests however little of the tree is linted."""
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    tests = tmp_path / "repo" / "tests"
    tests.mkdir()
    (tests / "dial.py").write_text(NODELAY_NO_REASON)
    (tmp_path / "repo" / "dial.py").write_text(NODELAY_NO_REASON)
    monkeypatch.chdir(tests)
    assert _nodelay_confidences(capsys, ".") == ["low"]
    assert _nodelay_confidences(capsys, str(tmp_path / "repo")) == ["high", "low"]
