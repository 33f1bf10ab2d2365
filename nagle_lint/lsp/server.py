"""`nagle-lint server`: the Language Server Protocol over stdio.

The protocol is pygls's; the analysis is the project index's (index.py).
One thread does the analysis, in the order the editor asked for it (an
index build, then the edits), so that the protocol is answered meanwhile;
what it finds is published from the protocol's own loop."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import queue
import sys
import threading

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..config import Resolver
from ..discover import project_tops
from ..languages import frontend, language_of
from .early import FIX_ALL, Answered, Build, Replay, read_options
from .index import Index

DEBOUNCE = 0.15  # seconds: changes closer than this are analysed together, once they pause
CONFIG_FILES = ("pyproject.toml", ".nagle-lint.toml")
SOURCE_GLOB = "**/*.{py,java,c,h}"
SEVERITY = {"warning": types.DiagnosticSeverity.Warning, "note": types.DiagnosticSeverity.Information}

log = logging.getLogger(__name__)


class NagleServer(LanguageServer):
    def __init__(self):
        super().__init__("nagle-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.options: dict = {}  # settings from initializationOptions, above the files'
        self.indexes: dict[str | None, Index] = {}  # workspace folder -> its index
        self.loose: dict[str, Index] = {}  # an open file of no folder -> its own index
        self.published: dict[str, list] = {}  # uri -> the diagnostics last published
        self.opened: dict[str, str] = {}  # uri (as the editor spells it) -> path, of the open documents
        self.told: dict[str, str | None] = {}  # uri -> the problem last told of its file
        self.timers: dict[str, asyncio.TimerHandle] = {}  # uri -> its analysis once the edits pause
        self.changed: dict[str, float] = {}  # uri -> when it last changed
        self.jobs: queue.Queue = queue.Queue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.early = None  # an early.Build of the workspace folders' indexes, for the first index build
        self.broken_told: set[str] = set()  # the errors of broken configuration files shown since the last build
        # A daemon thread: `exit` ends the process even while it analyses.
        threading.Thread(target=self._work, name="nagle-lint-analysis", daemon=True).start()

    # -- the analysis thread

    def _work(self):
        while True:
            job = self.jobs.get()
            try:
                job()
            except Exception as e:  # a bug of ours: reported, and the server serves on
                log.exception("analysis failed")
                self.call_soon(self.window_log_message, types.LogMessageParams(
                    types.MessageType.Error, f"nagle-lint: internal error: {type(e).__name__}: {e}"))

    def submit(self, job):
        self.jobs.put(job)

    def call_soon(self, fn, *args):
        """Run `fn` on the protocol's loop (where everything is sent)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)

    # -- settings and indexes

    def settings_for(self, folder: str) -> Resolver:
        """The settings of the files under a folder: each file's nearest
        configuration file's (as the command line finds them), the
        editor's settings above them.  A broken configuration file is
        reported and its files take the defaults."""
        return Resolver(self.options, start=folder, roots=project_tops([folder]),
                        broken=lambda e: self.tell_broken(str(e)))

    def tell_broken(self, error: str) -> None:
        """Show the error of a broken configuration file, once a build (the
        build process's settings and the server's both read the file)."""
        if error not in self.broken_told:
            self.broken_told.add(error)
            self.show(types.MessageType.Error, f"nagle-lint: {error}; using the default settings")

    def folders(self) -> list[str]:
        try:
            folders = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
            if not folders and self.workspace.root_path:
                folders = [self.workspace.root_path]
        except RuntimeError:  # not initialized
            folders = []
        return [os.path.abspath(f) for f in folders if f and os.path.isdir(f)]

    def index_of(self, path: str, create: bool = True) -> Index | None:
        """The index of the deepest folder holding `path` (None where its
        settings exclude the file), else the file's own (made if `create`)."""
        holding = [ix for ix in self.indexes.values() if ix.holds(path)]
        if holding:
            ix = max(holding, key=lambda ix: len(ix.root))
            return ix if ix.owns(path) else None
        if path not in self.loose and create:
            self.loose[path] = Index(None, self.settings_for(os.path.dirname(path)), jobs=1)
        return self.loose.get(path)

    def document(self, uri: str):
        """An open document's text (pygls's), or None."""
        return self.workspace.get_text_document(uri) if uri in self.opened else None

    def index_for(self, uri: str) -> tuple[Index | None, str]:
        """(the index of a document, its path) for what is asked of it."""
        path = os.path.abspath(to_fs_path(uri) or "")
        return self.index_of(path, create=False), path

    def open_texts(self) -> dict[str, bytes]:
        """path -> text of every open document (read on the loop)."""
        texts = {}
        for uri, path in self.opened.items():
            if language_of(path):
                texts[path] = self.document(uri).source.encode("utf-8", "surrogateescape")
        return texts

    def rebuild(self):
        """(On the loop) index every folder again, from scratch."""
        texts = self.open_texts()
        folders = self.folders()
        self.broken_told = set()
        settings = {folder: self.settings_for(folder) for folder in folders}
        early, self.early = self.early, None

        def job():
            nonlocal early
            if early is not None and not (early.options == self.options and early.read_as(texts)):
                early.close()
                early = None
            if early is None and folders:
                early = Build(folders, self.options, texts=texts, fork=False)
            # Built here only where the build process failed, and then in this process alone:
            # its threads (the protocol's loop, this one) make forking workers unsafe.
            self.indexes = {f: Index(f, settings[f], jobs=1) for f in folders}
            for ix in self.indexes.values():
                ix.build(texts, early)
                for error in ix.broken:
                    self.tell_broken(error)
            self.loose = {}
            for path, text in texts.items():
                ix = self.index_of(path)
                if ix is not None and ix.root is None:
                    ix.update(path, text)
            self.call_soon(self.publish_all)  # what an early build shows, before its models are taken
            for ix in self.indexes.values():
                ix.ready()
            if early is not None:
                early.close()
            # What the build made lives as long as the server: out of the collector's
            # reach, it is no longer walked by each full collection that edits set off
            # (on Netty, a quarter of a second every few edits).  What of it an edit lets
            # go is still freed: the index holds no reference cycles.
            gc.freeze()
            self.call_soon(self.publish_all)  # (where an early build's models did not come, built here)

        self.submit(job)

    # -- documents

    def analyse(self, uri: str, closed: bool = False):
        """(On the loop) analyse a document again: its buffer, or, once
        closed, its file on disk."""
        path = os.path.abspath(to_fs_path(uri) or "")
        if not language_of(path) or not closed and uri not in self.opened:
            return
        text = None if closed else self.document(uri).source.encode("utf-8", "surrogateescape")

        def job():
            ix = self.index_of(path, create=not closed)
            if ix is None:
                pass
            elif closed and ix.root is None:
                ix.forget(path)
                self.loose.pop(path, None)
            else:
                ix.update(path, text)
            self.call_soon(self.publish_all)

        self.submit(job)

    def later(self, uri: str):
        """Analyse a changed buffer: at once after a pause, else once the
        edits pause (typing is analysed at its first key and its last)."""
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        now, last = self.loop.time(), self.changed.get(uri)
        self.changed[uri] = now
        if timer is None and (last is None or now - last >= DEBOUNCE):
            self.analyse(uri)
        else:
            self.timers[uri] = self.loop.call_later(DEBOUNCE, self.now, uri)

    def now(self, uri: str, closed: bool = False):
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.analyse(uri, closed)

    # -- publishing (on the loop)

    def publish_all(self):
        """Publish the diagnostics of every open document that changed."""
        for uri in list(self.opened):
            self.publish(uri)

    def publish(self, uri: str, clear: bool = False):
        diagnostics = [] if clear else self.diagnostics(uri)
        ix, path = self.index_for(uri)
        problem = ix.problems.get(path) if ix is not None and not clear else None
        if problem != self.told.get(uri):  # why a file is skipped or only partly analysed: said once
            self.told[uri] = problem
            if problem:
                self.window_log_message(types.LogMessageParams(types.MessageType.Warning, f"nagle-lint: {path}: {problem}"))
        if self.published.get(uri) == diagnostics and not clear:
            return
        self.published[uri] = diagnostics
        if clear:
            self.published.pop(uri)
        # No version: the text analysed may be older than the document's version now.
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        from ..rules import all_rules

        ix, path = self.index_for(uri)
        if ix is None:
            return []
        rules = all_rules()
        out = []
        for f in ix.findings(path):
            related = [types.DiagnosticRelatedInformation(
                types.Location(from_fs_path(step.path or f.path), self.range(step.path or f.path, step.site)),
                step.label) for step in f.related]
            rule = rules.get(f.rule)
            out.append(types.Diagnostic(
                range=self.range(f.path, f.site), message=f.message, severity=SEVERITY.get(f.level),
                code=f.rule, code_description=types.CodeDescription(rule.url) if rule else None,
                source="nagle-lint", related_information=related or None,
                data={"confidence": f.confidence}))
        return out

    def lines(self, path: str) -> list[str]:
        doc = self.document(next((uri for uri, p in self.opened.items() if p == path), ""))
        if doc is not None:
            return doc.lines
        try:
            with open(path, encoding="utf-8", errors="replace", newline="") as fh:
                return fh.read().split("\n")
        except OSError:
            return []

    def range(self, path: str, site) -> types.Range:
        """A site (1-based, columns in characters) in the client's units."""
        lines = self.lines(path)
        codec = self.workspace.position_codec
        start = codec.position_to_client_units(lines, types.Position(site.line - 1, site.col - 1))
        end = codec.position_to_client_units(lines, types.Position(site.end_line - 1, site.end_col - 1))
        return types.Range(start, end)

    def show(self, kind: types.MessageType, message: str):
        self.call_soon(self.window_show_message, types.ShowMessageParams(kind, message))

    def findings_at(self, uri: str, rng: types.Range) -> list:
        """The findings shown in the document whose range meets `rng`."""
        ix, path = self.index_for(uri)
        if ix is None:
            return []
        hits = []
        for f in ix.findings(path):
            r = self.range(path, f.site)
            if (r.start.line, r.start.character) <= (rng.end.line, rng.end.character) and \
                    (rng.start.line, rng.start.character) <= (r.end.line, r.end.character):
                hits.append(f)
        return hits


server = NagleServer()


@server.feature(types.INITIALIZE)
def initialize(ls: NagleServer, params: types.InitializeParams):
    ls.loop = asyncio.get_running_loop()
    good, errors = read_options(params.initialization_options)
    ls.options = good
    for error in errors:
        ls.show(types.MessageType.Error, f"nagle-lint: {error}; the setting is ignored")


@server.feature(types.INITIALIZED)
async def initialized(ls: NagleServer, params: types.InitializedParams):
    ls.rebuild()
    watched = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if watched and watched.dynamic_registration:
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
        watchers.append(types.FileSystemWatcher(glob_pattern=SOURCE_GLOB))
        try:
            await ls.client_register_capability_async(types.RegistrationParams([types.Registration(
                "nagle-lint-watched-files", types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                types.DidChangeWatchedFilesRegistrationOptions(watchers))]))
        except Exception:  # the client refused: configuration changes are then read on restart
            log.warning("the client did not register the file watchers", exc_info=True)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: NagleServer, params: types.DidOpenTextDocumentParams):
    ls.opened[params.text_document.uri] = os.path.abspath(to_fs_path(params.text_document.uri) or "")
    ls.now(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: NagleServer, params: types.DidChangeTextDocumentParams):
    ls.later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: NagleServer, params: types.DidSaveTextDocumentParams):
    ls.now(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: NagleServer, params: types.DidCloseTextDocumentParams):
    ls.changed.pop(params.text_document.uri, None)
    ls.opened.pop(params.text_document.uri, None)
    ls.publish(params.text_document.uri, clear=True)
    ls.now(params.text_document.uri, closed=True)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: NagleServer, params: types.DidChangeWatchedFilesParams):
    paths = [os.path.abspath(to_fs_path(c.uri) or "") for c in params.changes]
    if any(os.path.basename(p) in CONFIG_FILES for p in paths):
        ls.rebuild()
        return
    for path in paths:  # a file changed on disk (a checkout, a generator): open buffers win
        uri = from_fs_path(path)
        if language_of(path) and path not in ls.opened.values():
            ls.analyse(uri, closed=True)


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(ls: NagleServer, params: types.DidChangeWorkspaceFoldersParams):
    ls.rebuild()


def _wants(params: types.CodeActionParams, kind: str) -> bool:
    """Whether the client asks for actions of `kind` (a kind asked for covers the kinds under it)."""
    only = params.context.only
    return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)


def _fix_actions(ls: NagleServer, uri: str, path: str, doc, params: types.CodeActionParams) -> list:
    """Each fix of the findings in the range as a quick fix (the safe ones preferred),
    and, when asked for, all the safe fixes of the document at once."""
    from ..fixing import fix_text
    from ..fixes import SAFE, Edit, render
    from ..site import Site

    data = doc.source.encode("utf-8", "surrogatepass")

    def edit(e) -> types.TextEdit:
        (l1, c1), (l2, c2) = _position(data, e.start), _position(data, e.end)
        return types.TextEdit(ls.range(path, Site(l1, c1, l2, c2)), e.text)

    actions = []
    if _wants(params, types.CodeActionKind.QuickFix):
        for f, fix in render(path, data, ls.findings_at(uri, params.range)):
            matching = [d for d in params.context.diagnostics if d.code == f.rule and d.source == "nagle-lint"]
            actions.append(types.CodeAction(
                title=f"Fix {f.rule}: {fix.title}" + ("" if fix.applicability == SAFE else " (unsafe)"),
                kind=types.CodeActionKind.QuickFix, diagnostics=matching or None,
                is_preferred=fix.applicability == SAFE or None,
                edit=types.WorkspaceEdit(changes={uri: [edit(e) for e in fix.edits]})))
    ix, _ = ls.index_for(uri)
    if params.context.only and _wants(params, FIX_ALL) and ix is not None:  # None: a file its settings exclude
        after, fixed = fix_text(path, data, ix.findings(path), ix.settings, unsafe=False)
        if fixed:
            whole = Edit(0, len(data), after.decode("utf-8", "surrogatepass"))
            actions.append(types.CodeAction(
                title=f"Fix all safe nagle-lint fixes ({len(fixed)})", kind=FIX_ALL,
                edit=types.WorkspaceEdit(changes={uri: [edit(whole)]})))
    return actions


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """(1-based line, 1-based character column) of a byte offset of the text."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8", "replace")) + 1


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
def code_action(ls: NagleServer, params: types.CodeActionParams):
    uri = params.text_document.uri
    path = to_fs_path(uri)
    doc = ls.document(uri)
    if doc is None or not language_of(path):
        return None
    comment = frontend(language_of(path)).line_comment
    actions = _fix_actions(ls, uri, path, doc, params)
    for f in ls.findings_at(uri, params.range) if _wants(params, types.CodeActionKind.QuickFix) else ():
        line = f.site.line - 1
        text = doc.lines[line] if line < len(doc.lines) else ""
        indent = text[:len(text) - len(text.lstrip())]
        edit = types.TextEdit(types.Range(types.Position(line, 0), types.Position(line, 0)),
                              f"{indent}{comment} nagle-lint: ignore[{f.rule}] -- <reason>\n")
        matching = [d for d in params.context.diagnostics if d.code == f.rule and d.source == "nagle-lint"]
        actions.append(types.CodeAction(
            title=f"Suppress {f.rule} on line {f.site.line} (say why)", kind=types.CodeActionKind.QuickFix,
            diagnostics=matching or None, edit=types.WorkspaceEdit(changes={uri: [edit]})))
    return actions


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: NagleServer, params: types.HoverParams):
    from ..rules import all_rules

    pos = params.position
    found = ls.findings_at(params.text_document.uri, types.Range(pos, pos))
    rules = all_rules()
    docs = [rules[r].body for r in dict.fromkeys(f.rule for f in found) if r in rules]
    if not docs:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, "\n---\n\n".join(docs)))


@server.feature(types.SHUTDOWN)
def shutdown(ls: NagleServer, *args):
    for timer in ls.timers.values():
        timer.cancel()
    ls.timers.clear()


def main(first: bytes = b"", early=None, answered: bytes | None = None) -> int:
    """Serve on stdin and stdout until the editor says `exit`; `first`: what
    was read of stdin already, `early`: an early.Build of the indexes of the folders it names,
    `answered`: the answer to `first` (initialize) sent already."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    out = sys.stdout.buffer if answered is None else Answered(sys.stdout.buffer, answered)
    sys.stdout = sys.stderr  # only the protocol may write to the real stdout
    server.early = early
    server.start_io(Replay(first, sys.stdin.buffer), out)
    return 0
