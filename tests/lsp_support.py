"""What the language server's tests share: a module that CI must have, and
waiting for what the server publishes."""

from __future__ import annotations

import asyncio
import importlib
import os
import shutil
import time

import pytest

SPLIT_PY = """import socket


def request(host, head, body):
    sock = socket.create_connection((host, 80))
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)
"""


def require(module: str):
    """The module, or the test skipped with the reason; under CI (CI=true)
    a missing module fails the test instead: CI installs every extra."""
    try:
        return importlib.import_module(module)
    except ImportError:
        reason = f"{module} is not installed (pip install '.[test]')"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{reason}: CI must run the language server's tests", pytrace=False)
        pytest.skip(reason, allow_module_level=True)


def require_program(name: str, install: str) -> str:
    found = shutil.which(name)
    if found is None:
        reason = f"{name} is not installed ({install})"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{reason}: CI must run this test", pytrace=False)
        pytest.skip(reason)
    return found


async def warned(client, *parts: str, timeout: float = 20.0) -> str:
    """The server's warnings once one holds every part: a warning is logged in a later turn of
    the server's loop than the diagnostics it goes with."""
    from lsprotocol import types

    end = time.monotonic() + timeout
    while True:
        told = "\n".join(m.message for m in client.log_messages if m.type == types.MessageType.Warning)
        if any(all(p in line for p in parts) for line in told.splitlines()):
            return told
        if time.monotonic() > end:
            raise AssertionError(f"no warning with {parts!r} within {timeout} s; told: {told!r}")
        await asyncio.sleep(0.02)


async def published(client, uri: str, check=lambda diagnostics: True, timeout: float = 20.0):
    """The diagnostics last published for `uri` once `check` holds for them."""
    end = time.monotonic() + timeout
    while True:
        diagnostics = client.diagnostics.get(uri)
        if diagnostics is not None and check(diagnostics):
            return diagnostics
        if time.monotonic() > end:
            raise AssertionError(f"no diagnostics as expected for {uri} within {timeout} s; last: {diagnostics!r}")
        await asyncio.sleep(0.02)
