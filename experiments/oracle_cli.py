"""``paratrace oracle``: an OpenAI-compatible server answering from a suite's gold.

The server is :class:`assistant.oracle.OracleServer`; the command lives here
because it loads suites by registry name (:mod:`experiments.suites.registry`).
:func:`register` adds the group to the root app of :mod:`optimize.root`.
"""

from __future__ import annotations

import sys

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``oracle`` group to ``app``."""
    app.add_typer(_oracle_app(), name="oracle")


def _oracle_app() -> typer.Typer:
    oracle = typer.Typer(help="Oracle backbones: an OpenAI-compatible server answering from a suite's gold.",
                         no_args_is_help=True)

    @oracle.command("serve")
    def serve(
        suite: str = typer.Option(..., "--suite", "-s", help="Suite name (normative-en, controlled-140) or JSONL."),
        noise: float = typer.Option(0.0, "--noise", min=0.0, max=1.0,
                                    help="Share of answers to corrupt (dropped priority, missing exception, "
                                         "old clause id, wrong status)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the corruptions."),
        port: int = typer.Option(0, "--port", min=0, max=65535, help="Port on 127.0.0.1 (0: a free one)."),
    ) -> None:
        """Serve the oracle on 127.0.0.1 until interrupted; prints the model string and api base to use."""
        import signal
        import threading

        from assistant.oracle import OracleServer

        from .runner.run import load_suites

        scenarios, _ = load_suites([suite])
        cases = next(iter(scenarios.values()))
        server = OracleServer(cases, noise=noise, seed=seed, port=port).start()
        name = f"oracle-{next(iter(scenarios))}-{noise:g}-{seed}"
        # Own handlers: a process started in the background of a script inherits SIGINT as ignored,
        # and a supervisor stops with SIGTERM; both end the loop and stop the server cleanly.  They
        # are in place before the lines below, which tell a supervisor the server is up.
        stopping = threading.Event()
        previous = {sig: signal.signal(sig, lambda *_: stopping.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
        typer.echo(f"oracle for {len(cases)} cases (noise {noise:g}, seed {seed}) at {server.base_url}", err=False)
        typer.echo(f"use: --model openai/{name} --api-base {server.base_url} (no key needed); "
                   "ledger: GET /v1/oracle/ledger")
        sys.stdout.flush()
        try:
            while not stopping.wait(1.0):
                pass
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            server.stop()

    return oracle
