"""``python -m assistant.llama_server ARGS``: llama-cpp-python's OpenAI-compatible
server with :func:`assistant.llama_sampling.install` applied (fast greedy
grammar-constrained decoding); ``ARGS`` are the server's own."""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """Install the sampler, then run ``llama_cpp.server`` as ``__main__``."""
    import runpy

    from .llama_sampling import install

    install()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
