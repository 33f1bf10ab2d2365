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
