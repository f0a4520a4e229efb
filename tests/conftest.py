"""Fixtures shared by every test directory."""

from __future__ import annotations

import socket

import pytest


@pytest.fixture
def dead_url() -> str:
    """An OpenAI-compatible base URL on 127.0.0.1 where nothing listens (a port just freed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
