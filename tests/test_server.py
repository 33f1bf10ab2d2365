"""`nagle-lint server` end to end: a real client (pytest-lsp) starts the
server as a subprocess and speaks the protocol to it over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lsp_support import SPLIT_PY, published, require, warned
from test_test_sources import NODELAY_NO_REASON as NODELAY_PY

pytest_lsp = require("pytest_lsp")
from lsprotocol import types  # noqa: E402  (after the check that the extra is there)
from pygls.uris import from_fs_path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "fixtures" / "c" / "helpers_project"


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=[sys.executable, "-m", "nagle_lint", "server"]))
async def client(lsp_client: pytest_lsp.LanguageClient):
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls, params: types.RegistrationParams):
        lsp_client.registrations += params.registrations

    yield
    if lsp_client._server.returncode is None:  # not ended by the test itself
        await lsp_client.shutdown_session()


async def start(client, root: Path, options=None):
    await client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(from_fs_path(str(root)), root.name)],
        initialization_options=options))


def open_doc(client, path: Path, text: str | None = None, language: str = "c") -> str:
    uri = from_fs_path(str(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id=language, version=1, text=path.read_text() if text is None else text)))
    return uri


def change(client, uri: str, version: int, text: str):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


@pytest.fixture
def helpers(tmp_path) -> Path:
    """The helpers project, alone in a folder (no configuration above it)."""
    return Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))


def test_without_the_extra_the_command_says_what_to_install(tmp_path):
    """`nagle-lint server` without pygls: one line naming the extra, exit 2."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "pygls").mkdir()
    (blocker / "pygls" / "__init__.py").write_text("raise ImportError('no pygls here', name='pygls')\n")
    env = {"PYTHONPATH": f"{blocker}{':' + str(ROOT)}", "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-m", "nagle_lint", "server"], input="", capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 2
    assert p.stderr.startswith("nagle-lint: error: ") and "pip install 'nagle-lint[server]'" in p.stderr
    assert p.stdout == ""


@pytest.mark.asyncio
async def test_a_cross_file_finding_shows_when_its_file_is_opened(client, helpers):
    """client.c has no finding when linted alone; in its project it has one,
    with its rule, link, level, and the other send and the read."""
    await start(client, helpers)
    uri = open_doc(client, helpers / "client.c")
    (d,) = await published(client, uri, bool)
    assert (d.range.start.line, d.range.start.character) == (16, 4)  # send_body(fd, body), line 17
    assert (d.range.end.line, d.range.end.character) == (16, 23)
    assert d.code == "NGL001" and d.source == "nagle-lint"
    assert d.severity == types.DiagnosticSeverity.Warning
    assert d.code_description.href.endswith("/rules/NGL001.md")
    related = sorted((r.location.range.start.line, r.message) for r in d.related_information)
    assert [line for line, _ in related] == [15, 17]  # the first send, the read
    assert all(r.location.uri == uri for r in d.related_information)


@pytest.mark.asyncio
async def test_edits_close_and_the_files_that_depend_on_them(client, helpers):
    await start(client, helpers)
    uri = open_doc(client, helpers / "client.c")
    await published(client, uri, bool)
    text = (helpers / "client.c").read_text()
    change(client, uri, 2, text.replace('    send_header(fd, "PUT ");\n', ""))  # one send left: fixed
    await published(client, uri, lambda ds: not ds)
    change(client, uri, 3, text)
    await published(client, uri, bool)
    # The helper in the other file no longer writes: the caller's finding goes.
    proto = open_doc(client, helpers / "proto.c")
    await published(client, proto, lambda ds: not ds)
    change(client, proto, 2, (helpers / "proto.c").read_text().replace("write(fd, body", "(void)(fd, body"))
    await published(client, uri, lambda ds: not ds)
    change(client, proto, 3, (helpers / "proto.c").read_text())
    await published(client, uri, bool)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await published(client, uri, lambda ds: not ds)


@pytest.mark.asyncio
async def test_a_change_is_analysed_once_the_edits_pause(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "split.py", language="python")
    await published(client, uri, bool)

    class Recorded(dict):
        def __setitem__(self, key, value):
            publishes.append(key)
            super().__setitem__(key, value)

    publishes = []
    client.diagnostics = Recorded(client.diagnostics)
    fixed = SPLIT_PY.replace("    sock.sendall(head)\n    sock.sendall(body)\n", "    sock.sendall(head + body)\n")
    for version in range(2, 9):  # typed quickly: analysed at the first change and once they pause
        change(client, uri, version, fixed if version % 2 else SPLIT_PY)
    change(client, uri, 9, fixed)
    await published(client, uri, lambda ds: not ds)
    await asyncio.sleep(0.5)
    # Seven of the eight changes flip the finding: analysed one by one, each would be published.
    # Idle, they are analysed twice (the first change and the last); a server starved of CPU
    # may read two of them more than a pause apart and analyse once more there.
    assert publishes[-1:] == [uri] and len(publishes) <= 4


async def code_actions(client, uri, at, context):
    return await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), at, context))


@pytest.mark.asyncio
async def test_suppression_code_action(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "split.py", language="python")
    (d,) = await published(client, uri, bool)
    actions = await code_actions(client, uri, d.range, types.CodeActionContext([d]))
    (action,) = [a for a in actions if a.title.startswith("Suppress")]
    assert action.kind == types.CodeActionKind.QuickFix and list(action.diagnostics) == [d]
    (edit,) = action.edit.changes[uri]
    assert edit.range.start == edit.range.end == types.Position(6, 0)
    assert edit.new_text == "    # nagle-lint: ignore[NGL001] -- <reason>\n"
    lines = SPLIT_PY.splitlines(keepends=True)
    # The placeholder filled in, the finding is suppressed; left as it is, it is not (a reason is required).
    change(client, uri, 2, "".join(lines[:6] + [edit.new_text.replace("<reason>", "one write per message is measured")]
                                   + lines[6:]))
    await published(client, uri, lambda ds: not ds)
    change(client, uri, 3, "".join(lines[:6] + [edit.new_text.replace(" -- <reason>", "")] + lines[6:]))
    (d,) = await published(client, uri, bool)
    assert "give its reason" in d.message
    assert not await code_actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 3)),
                                  types.CodeActionContext([]))


FIXABLE_PY = SPLIT_PY.replace("sendall(head)", "sendall(b'HEAD')").replace("sendall(body)", "sendall(b'BODY')")


@pytest.mark.asyncio
async def test_fixes_are_quick_fixes_and_fix_all(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    (tmp_path / "literal.py").write_text(FIXABLE_PY)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "split.py", language="python")
    (d,) = await published(client, uri, bool)
    actions = await code_actions(client, uri, d.range, types.CodeActionContext([d]))
    (fix,) = [a for a in actions if a.title.startswith("Fix NGL001")]
    # head and body may be str: joining them is unsafe, offered but not preferred, and not in fix-all.
    assert fix.title.endswith("(unsafe)") and not fix.is_preferred and list(fix.diagnostics) == [d]
    delete, join = fix.edit.changes[uri]
    assert (delete.range.start, delete.range.end, delete.new_text) == (types.Position(5, 0), types.Position(6, 0), "")
    assert (join.range.start, join.range.end, join.new_text) == (types.Position(6, 17), types.Position(6, 21),
                                                                 "head + body")
    fix_all = types.CodeActionContext([], only=[types.CodeActionKind.SourceFixAll])
    assert not await code_actions(client, uri, d.range, fix_all)
    # Bytes literals are bytes: the same join is safe, preferred, and what fix-all does.
    uri = open_doc(client, tmp_path / "literal.py", language="python")
    (d,) = await published(client, uri, bool)
    (fix,) = [a for a in await code_actions(client, uri, d.range, types.CodeActionContext([d]))
              if a.title.startswith("Fix")]
    assert fix.is_preferred and not fix.title.endswith("(unsafe)")
    (action,) = await code_actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), fix_all)
    assert action.kind == "source.fixAll.nagle-lint"
    (whole,) = action.edit.changes[uri]
    assert whole.range.start == types.Position(0, 0)
    assert whole.new_text == FIXABLE_PY.replace("    sock.sendall(b'HEAD')\n    sock.sendall(b'BODY')",
                                                "    sock.sendall(b'HEAD' + b'BODY')")


@pytest.mark.asyncio
async def test_hover_on_a_finding_shows_its_rule(client, tmp_path):
    from nagle_lint.rules import all_rules

    (tmp_path / "split.py").write_text(SPLIT_PY)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "split.py", language="python")
    await published(client, uri, bool)
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(6, 10)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value == all_rules()["NGL001"].body
    assert await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(4, 4))) is None


@pytest.mark.asyncio
async def test_configuration_is_read_again_when_it_changes(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "split.py", language="python")
    await published(client, uri, bool)
    config = tmp_path / ".nagle-lint.toml"

    def changed():
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(from_fs_path(str(config)), types.FileChangeType.Changed)]))

    config.write_text('ignore = ["NGL001"]\n')
    changed()
    await published(client, uri, lambda ds: not ds)
    config.write_text('ignore = ["NGL001"\n')  # broken: reported, the defaults used
    changed()
    await published(client, uri, bool)
    told = [m for m in client.messages if "invalid TOML" in m.message and m.type == types.MessageType.Error]
    assert len(told) == 1  # once, though both the build and the server read the file


@pytest.mark.asyncio
async def test_settings_from_the_editor_above_the_files(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    (tmp_path / ".nagle-lint.toml").write_text('select = ["NGL002"]\n')
    await start(client, tmp_path, {"select": ["NGL001", "NGL002"], "min-confidence": "sure", "colour": 1})
    uri = open_doc(client, tmp_path / "split.py", language="python")
    (d,) = await published(client, uri, bool)  # the editor's select wins over the file's
    assert d.code == "NGL001"
    messages = [m.message for m in client.messages if m.type == types.MessageType.Error]
    assert len(messages) == 2
    assert any("'min-confidence' must be one of: low, medium, high" in m for m in messages)
    assert any("unknown setting 'colour'" in m for m in messages)


@pytest.mark.asyncio
async def test_settings_from_the_editor_ignore(client, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT_PY)
    await start(client, tmp_path, {"ignore": ["NGL001"]})
    uri = open_doc(client, tmp_path / "split.py", language="python")
    await published(client, uri, lambda ds: not ds)
    change(client, uri, 2, SPLIT_PY + "\n")
    other = open_doc(client, tmp_path / "other.py", SPLIT_PY, language="python")
    assert not await published(client, other)


@pytest.mark.asyncio
async def test_a_workspace_under_a_tests_folder_holds_no_test(client, tmp_path):
    """Only the workspace's own folders tell a test's source, as on the command line."""
    project = tmp_path / "tests" / "proj"
    project.mkdir(parents=True)
    (project / "dial.py").write_text(NODELAY_PY)
    await start(client, project)
    uri = open_doc(client, project / "dial.py", language="python")
    (d,) = await published(client, uri, bool, timeout=10.0)
    assert d.code == "NGL002"


@pytest.mark.asyncio
async def test_bad_input_never_stops_the_server(client, tmp_path):
    await start(client, tmp_path)
    unparsable = open_doc(client, tmp_path / "broken.py", "def f(:\n    sock.sendall(b'\n" * 50, "python")
    binary = open_doc(client, tmp_path / "blob.c", "\x00\x01\x02binary" * 1000)
    huge = open_doc(client, tmp_path / "huge.py", SPLIT_PY + "x = 1\n" * (10_000_000 // 6), "python")
    client.text_document_did_change(types.DidChangeTextDocumentParams(  # a document never opened
        types.VersionedTextDocumentIdentifier(uri=from_fs_path(str(tmp_path / "nowhere.py")), version=2),
        [types.TextDocumentContentChangePartial(types.Range(types.Position(0, 0), types.Position(0, 1)), "x")]))
    for uri in (unparsable, binary, huge):
        assert not await published(client, uri)
    await warned(client, "huge.py: too big to lint (10.0 MB; the limit is 1.0 MB")
    await warned(client, "blob.c: binary file (NUL bytes); skipped")
    await warned(client, "broken.py: ", "syntax error")
    # It still serves: a file with a finding gets it.
    uri = open_doc(client, tmp_path / "split.py", SPLIT_PY, "python")
    (d,) = await published(client, uri, bool)
    assert d.code == "NGL001"


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _answers(asked: bytes, env: dict) -> tuple[list, bytes]:
    """(the messages the server sends when asked `asked`, then to exit, its standard error)."""
    done = subprocess.run([sys.executable, "-m", "nagle_lint", "server"],
                          input=asked + _message({"jsonrpc": "2.0", "method": "exit"}),
                          capture_output=True, env={**os.environ, **env}, timeout=120)
    return [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in done.stdout.split(b"Content-Length: ")[1:]], \
        done.stderr


CAPABILITIES = {"none": {}, "utf-8 and will-save": {
    "general": {"positionEncodings": ["utf-8", "utf-16"]},
    "textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": False}}}}


@pytest.mark.parametrize("client", ["visual-studio-code", "neovim", "emacs", *CAPABILITIES])
def test_the_server_answers_initialize_as_the_protocol_library_does(client, helpers):
    """The server answers `initialize` before it loads its protocol library
    (early.answer); the answer is the library's, which it sends where it
    loads the library first (no early build)."""
    from pygls.protocol import default_converter

    from nagle_lint.lsp import early

    capabilities = CAPABILITIES[client] if client in CAPABILITIES else \
        default_converter().unstructure(pytest_lsp.client_capabilities(client))
    params = {"processId": None, "rootUri": from_fs_path(str(helpers)), "capabilities": capabilities}
    asked = _message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
    library, _ = _answers(asked, {"NAGLE_LINT_NO_EARLY_BUILD": "1"})
    assert len(library) == 1 and "capabilities" in library[0]["result"]
    assert json.loads(early.answer(asked).split(b"\r\n\r\n", 1)[1]) == library[0]
    sent, errors = _answers(asked, {})
    assert sent == library and not errors  # the library's own answer dropped, found the same


# The server, with each fork() it makes logged (the number of threads then alive) to the file named first.
FORKS_LOGGED = """import os, sys, threading
log = sys.argv.pop(1)
os.register_at_fork(before=lambda: open(log, "a").write(f"{threading.active_count()}\\n"))
sys.argv[1:] = ["server"]
from nagle_lint.cli import entry
entry()
"""


@pytest.mark.asyncio
async def test_the_server_forks_only_where_no_thread_runs(tmp_path):
    """An index built again (here: its configuration changed) is built by a
    new interpreter, not by workers forked from the server, whose threads
    (the protocol's loop, the analysis) make a fork unsafe."""
    tree, log = tmp_path / "tree", tmp_path / "forks"
    tree.mkdir()
    (tree / "split.py").write_text(SPLIT_PY)
    for n in range(80):  # enough files for a build to share them among workers
        (tree / f"plain_{n}.py").write_text(f"VALUE = {n}\n")
    client = await pytest_lsp.ClientServerConfig(server_command=[sys.executable, "-c", FORKS_LOGGED, str(log)]).start()
    try:
        await start(client, tree)
        uri = open_doc(client, tree / "split.py", language="python")
        await published(client, uri, bool)
        (tree / ".nagle-lint.toml").write_text('ignore = ["NGL001"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(from_fs_path(str(tree / ".nagle-lint.toml")), types.FileChangeType.Created)]))
        await published(client, uri, lambda ds: not ds)
    finally:
        await client.shutdown_session()
    threads = log.read_text().split()
    assert threads and set(threads) == {"1"}  # the early build and its workers forked, each from one thread


@pytest.mark.asyncio
async def test_shutdown_and_exit(client, tmp_path):
    await start(client, tmp_path)
    await client.shutdown_session()
    assert client._server.returncode == 0
    assert [r.method for r in client.registrations] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]


@pytest.mark.asyncio
async def test_an_excluded_file_gets_no_diagnostics_even_when_open(client, tmp_path):
    (tmp_path / ".nagle-lint.toml").write_text('exclude = ["vendor"]\n')
    (tmp_path / "vendor").mkdir()
    await start(client, tmp_path)
    excluded = open_doc(client, tmp_path / "vendor" / "split.py", SPLIT_PY, "python")
    linted = open_doc(client, tmp_path / "split.py", SPLIT_PY, "python")
    await published(client, linted, bool)
    assert not await published(client, excluded)
    # Asked to fix all, an excluded file has nothing to fix (not an error).
    fix_all = types.CodeActionContext([], only=[types.CodeActionKind.SourceFixAll])
    assert not await code_actions(client, excluded, types.Range(types.Position(0, 0), types.Position(0, 0)), fix_all)


FRAMES_JAVA = """import java.io.IOException;
import java.net.Socket;

final class Frames {
    void send(Socket s, byte[] piece) throws IOException {
        s.getOutputStream().write(piece);
    }

    void send(Socket s, byte[] head, byte[] body) throws IOException {
        byte[] message = new byte[head.length + body.length];
        System.arraycopy(head, 0, message, 0, head.length);
        System.arraycopy(body, 0, message, head.length, body.length);
        s.getOutputStream().write(message);
    }
}
"""

CLIENT_JAVA = """import java.io.IOException;
import java.net.Socket;

final class Client {
    static int put(String host, int port, byte[] head, byte[] body) throws IOException {
        Frames frames = new Frames();
        try (Socket s = new Socket(host, port)) {
            s.getOutputStream().write(head);
            frames.send(s, body);
            return s.getInputStream().read();
        }
    }
}

final class Version {
    static int major() {
        return 1;
    }
}
"""


@pytest.mark.asyncio
async def test_an_edit_of_the_overload_a_call_runs_is_seen_by_its_callers(client, tmp_path):
    """A Java call runs the overload with its number of arguments, in the
    editor's index as on the command line: Client.put's run, taken over from
    the last analysis while nothing it reaches changed, is not taken over once
    the overload its call runs (two arguments, among two of the name) reads
    before it writes."""
    (tmp_path / "Frames.java").write_text(FRAMES_JAVA)
    (tmp_path / "Client.java").write_text(CLIENT_JAVA)
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "Client.java", language="java")
    (d,) = await published(client, uri, bool)
    assert (d.code, d.range.start.line) == ("NGL001", 8)  # frames.send(s, body), then the read
    # An edit of another class of the file: Client.put and its run are taken over from now on.
    change(client, uri, 2, CLIENT_JAVA.replace("return 1;", "return 2;"))
    frames = open_doc(client, tmp_path / "Frames.java", language="java")
    assert not await published(client, frames)  # (analysed after the edit above)
    reads_first = FRAMES_JAVA.replace("        s.getOutputStream().write(piece);\n",
                                      "        s.getInputStream().read();\n        s.getOutputStream().write(piece);\n")
    assert reads_first != FRAMES_JAVA
    change(client, frames, 2, reads_first)  # the reply to the first write is read before the second
    await published(client, uri, lambda ds: not ds)
