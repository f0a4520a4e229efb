"""The assistant behind the HTTP service: a bounded worker pool, a per-request
timeout and the mapping of failures to HTTP statuses.

Assistant calls are blocking (DSPy, the LM client, the engine), so each runs in
a :class:`~concurrent.futures.ThreadPoolExecutor` of ``workers`` threads.  At
most ``workers + queue`` calls are admitted at once, and at most half the
workers' worth of calls with documents, and at most
``PARATRACE_DOC_MAX_CONCURRENT_INGESTIONS`` (2; ingestion is CPU work under one
interpreter lock: a flood of documents leaves the other workers to plain
requests, and more ingestions at once only take longer each); the next one gets 503
(``busy``) at once instead of waiting in an unbounded queue.  The request
waits ``timeout_s`` seconds for its call and then answers 504 with its request
id.  A Python thread cannot be killed, so a timed-out call keeps its slot until
it returns (a queued call is cancelled before it starts): the pool never grows,
and a backbone that hangs for good shows up as ``saturated`` on ``/health``
and as 503s rather than as a pile of threads.  Document ingestion is bounded
by the request's own timeout (:class:`~assistant.ingest.limits.Deadline`):
a call answered 504 stops at its next check and makes no model call, and
``/health`` counts the calls still running after their 504 (``abandoned``).
Give remote backbones a client timeout too (``paratrace serve --lm-timeout``)
so their slots come back.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Callable

from assistant.errors import AssistantError, BackendError, InputLimitError
from assistant.evidence import check_inputs

from .errors import RequestFailure, ServeError
from .schemas import AskRequest

__all__ = ["Answer", "Service", "classify_failure", "request_texts", "scrub"]

_LM_MODULES = ("litellm", "openai", "httpx", "httpcore", "requests", "urllib3", "anthropic")


@dataclass(frozen=True, slots=True)
class Answer:
    """A request's answer and where its time went.

    Attributes
    ----------
    record : scorer.contract.OutputRecord
    assistant_ms : float
        Time inside :meth:`assistant.api.Assistant.run` (worker thread).
    queue_ms : float
        Time between admission and the start of the call.
    handoff_ms : float
        Time between the end of the call (worker thread) and the request's
        coroutine resuming (event loop), i.e. the thread hand-off back.
    result : assistant.api.RunResult, optional
        The whole run (for the HTML page).
    prepared : assistant.ingest.run.PreparedEvidence, optional
        The ingested documents and selection, when the request sent documents.
    """

    record: Any
    assistant_ms: float
    queue_ms: float
    handoff_ms: float = 0.0
    result: Any = None
    prepared: Any = None


def scrub(text: str, texts=(), *, chars: int = 10) -> str:
    """``text`` with every span of ``chars`` or more characters that also occurs in ``texts`` replaced by ``[...]``.

    An LM server's error message can quote the prompt; what it quotes of the
    request's evidence or query never reaches a reply or a log line (case and
    runs of whitespace are ignored in the comparison).

    Examples
    --------
    >>> scrub("context too long: 'The Supplier shall pay a penalty' (HTTP 400)",
    ...       ["The Supplier shall pay a penalty of 2% per week of delay."])
    "context too long: '[...]' (HTTP 400)"
    """
    line = " ".join(text.split())
    corpus = "\n".join(" ".join(str(t).split()).lower() for t in texts if t)
    low = line.lower()
    drop = [False] * len(line)
    for i in range(len(line) - chars + 1):
        if low[i:i + chars] in corpus:
            drop[i:i + chars] = [True] * chars
    out: list[str] = []
    for i, ch in enumerate(line):
        if not drop[i]:
            out.append(ch)
        elif i == 0 or not drop[i - 1]:
            out.append("[...]")
    return "".join(out)


def _cause(chain: list[BaseException], texts) -> str:
    """The LM's cause in one line: its message (HTTP status included), secrets masked, evidence scrubbed."""
    from assistant.backends import failure_cause
    from symbolic.support.redact import redact_text

    status = next((e.status for e in chain if isinstance(getattr(e, "status", None), int)), None)
    cause = scrub(redact_text(failure_cause(chain[0])), texts)
    return (f"HTTP {status}: " if status is not None else "") + cause[:300]


def classify_failure(exc: BaseException, texts=()) -> RequestFailure:
    """The HTTP failure for an exception raised by an assistant call.

    The reason names the exception type and, for an LM failure, the backend's
    cause (its message and HTTP status, :func:`assistant.backends.failure_cause`)
    with secrets masked and every run of words it quotes from ``texts`` (the
    request's evidence and query) removed (:func:`scrub`): LM error messages
    can quote the prompt, which must not reach logs or other clients.

    Parameters
    ----------
    exc : BaseException
        What :meth:`assistant.api.Assistant.run` raised.

    Returns
    -------
    RequestFailure
        422 for an input over the limits, 503 for a rate-limited backbone,
        504 for a backbone timeout, 502 for any other LM or transport
        failure, 500 for anything else.

    Examples
    --------
    >>> classify_failure(TimeoutError("read timed out")).status
    504
    >>> f = classify_failure(ConnectionError("refused: E-01 says the supplier pays"), ["the supplier pays"])
    >>> f.status, f.kind, f.reason
    (502, 'lm_failure', 'the language model call failed (ConnectionError): ConnectionError: refused: E-01 says [...]')
    >>> classify_failure(KeyError("x")).status
    500
    """
    if isinstance(exc, InputLimitError):
        return RequestFailure(422, "input_limit", str(exc), field=exc.field)
    chain = _chain(exc)
    name = ": ".join(dict.fromkeys(type(e).__name__ for e in (chain[0], chain[-1])))
    from_lm = any(_from_lm(e) for e in chain)
    if any("RateLimit" in type(e).__name__ for e in chain):
        return RequestFailure(503, "lm_rate_limited", f"the language model is rate-limited ({name}); retry later")
    if any(isinstance(e, TimeoutError) or (_from_lm(e) and "Timeout" in type(e).__name__) for e in chain):
        return RequestFailure(504, "timeout", f"the language model timed out ({name})")
    if from_lm:
        return RequestFailure(502, "lm_failure", f"the language model call failed ({name}): {_cause(chain, texts)}")
    return RequestFailure(500, "internal", f"the assistant failed ({name})")


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes, outermost first (DSPy wraps transport errors in ``LMError``)."""
    chain = [exc]
    while len(chain) < 8:
        nxt = chain[-1].__cause__ or chain[-1].__context__
        if nxt is None or nxt in chain:
            break
        chain.append(nxt)
    return chain


def _from_lm(exc: BaseException) -> bool:
    name, module = type(exc).__name__, type(exc).__module__ or ""
    return (isinstance(exc, (BackendError, ConnectionError, TimeoutError))
            or (isinstance(exc, AssistantError) and name == "ScriptExhaustedError")
            or module.startswith(_LM_MODULES) or (module.startswith("dspy") and name.startswith("LM")))


class Service:
    """One assistant per allowed configuration, a bounded pool and a timeout.

    Parameters
    ----------
    assistant_factory : callable
        ``factory(config) -> assistant.api.Assistant``; called once per
        configuration in ``configs``, at construction.
    config : str
        The default configuration (used when a request names none).
    configs : sequence of str, optional
        Configurations a request may ask for (default: only ``config``).
    workers : int
        Threads running assistant calls.
    queue : int, optional
        Calls admitted beyond ``workers`` that wait for a thread (default ``2 * workers``).
    timeout_s : float
        Seconds a request waits for its call.

    Raises
    ------
    ServeError
        On a non-positive ``workers`` or ``timeout_s``, a negative ``queue``,
        or a default configuration outside ``configs``.
    """

    def __init__(self, assistant_factory: Callable[[str], Any], *, config: str = "b4",
                 configs: tuple[str, ...] | list[str] | None = None, workers: int = 4, queue: int | None = None,
                 timeout_s: float = 120.0):
        if workers < 1:
            raise ServeError(f"workers must be at least 1, got {workers}")
        if not timeout_s > 0:
            raise ServeError(f"the request timeout must be positive, got {timeout_s}")
        queue = 2 * workers if queue is None else queue
        if queue < 0:
            raise ServeError(f"queue must be >= 0, got {queue}")
        self.config = config.strip().lower()
        self.configs = tuple(dict.fromkeys(c.strip().lower() for c in (configs or (self.config,))))
        if self.config not in self.configs:
            raise ServeError(f"the default configuration {config!r} is not among {list(self.configs)}")
        self.workers, self.capacity, self.timeout_s = workers, workers + queue, float(timeout_s)
        # Requests with documents spend CPU on ingestion: at most half the workers hold them, so the
        # other half keeps answering plain requests under a flood of documents, and at most
        # max_concurrent_ingestions (one interpreter lock: more at once only take longer each).
        from assistant.ingest.limits import DocumentLimits

        self.document_slots = max(1, min(workers // 2, DocumentLimits.from_env().max_concurrent_ingestions))
        self._documents_in_flight = 0
        self.assistants = {c: assistant_factory(c) for c in self.configs}
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="paratrace-serve")
        self._lock = threading.Lock()
        self._in_flight = 0
        self._abandoned: set[Future] = set()
        self._closed = False

    @property
    def in_flight(self) -> int:
        """Calls admitted and not yet finished (running, queued or timed out but still running)."""
        return self._in_flight

    @property
    def abandoned(self) -> int:
        """Calls still running after their request was answered 504 (they hold their slot until they stop)."""
        with self._lock:
            return len(self._abandoned)

    @property
    def model(self) -> str:
        """The backbone model string of the default configuration."""
        return self.assistants[self.config].backbone.model

    def _admit(self, documents: bool = False) -> bool:
        with self._lock:
            if self._closed or self._in_flight >= self.capacity:
                return False
            if documents and self._documents_in_flight >= self.document_slots:
                return False
            self._in_flight += 1
            self._documents_in_flight += documents
            return True

    def _release(self, future: Future | None = None, documents: bool = False) -> None:
        with self._lock:
            self._in_flight -= 1
            self._documents_in_flight -= documents
            self._abandoned.discard(future)

    def resolve(self, request: AskRequest):
        """The assistant for ``request`` after the input-limit check.

        Raises
        ------
        RequestFailure
            400 for a configuration this service does not run, 422 for an input over the limits.
        """
        config = (request.config or self.config).strip().lower()
        assistant = self.assistants.get(config)
        if assistant is None:
            raise RequestFailure(400, "unknown_config", f"this service answers with {', '.join(self.configs)}",
                                 field="config", value=request.config)
        try:
            if not request.documents:  # ingested fragments are checked once they exist
                check_inputs(request.query, request.evidence, assistant.limits, target=request.target)
        except InputLimitError as exc:
            raise classify_failure(exc) from None
        return config, assistant

    async def answer(self, request: AskRequest, state: dict | None = None) -> Answer:
        """Run ``request`` in the pool and wait at most ``timeout_s``.

        Parameters
        ----------
        request : AskRequest
        state : dict, optional
            Receives ``config`` and ``model`` (for the request log) as soon as they are known.

        Raises
        ------
        RequestFailure
            400/422 as :meth:`resolve`; 503 when no slot is free or the
            service is stopping; 504 on timeout; 5xx from :func:`classify_failure`.
        """
        config, assistant = self.resolve(request)
        if state is not None:
            state.update(config=config, model=assistant.backbone.model)
        documents = bool(request.documents)
        if not self._admit(documents):
            if documents:
                raise RequestFailure(503, "busy", f"all {self.document_slots} slots for requests with documents "
                                     f"are taken (half of {self.workers} workers); retry later")
            raise RequestFailure(503, "busy", f"all {self.capacity} slots are taken "
                                 f"({self.workers} workers); retry later")
        admitted = time.perf_counter()
        until = time.monotonic() + self.timeout_s
        try:
            future = self._executor.submit(_call, assistant, request, admitted, until)
        except RuntimeError:  # the executor is shutting down
            self._release(None, documents)
            raise RequestFailure(503, "busy", "the service is stopping") from None
        future.add_done_callback(lambda done: self._release(done, documents))
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout_s)
        except asyncio.TimeoutError:
            if not future.cancel():
                with self._lock:
                    if not future.done():
                        self._abandoned.add(future)  # stops at its next deadline check (ingestion, LM timeout)
            raise RequestFailure(504, "timeout", f"no answer within {self.timeout_s:g} s") from None
        except RequestFailure:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure of the call becomes an HTTP status
            raise classify_failure(exc, request_texts(request)) from None
        return replace(answer, handoff_ms=(time.perf_counter() - answer.handoff_ms) * 1000.0)

    def close(self) -> None:
        """Refuse new calls, drop queued ones; running calls finish in their threads."""
        with self._lock:
            self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)


def request_texts(request) -> list[str]:
    """The texts of a request that no error reply may quote: the query, the target and every fragment."""
    texts = [getattr(request, "query", None), getattr(request, "target", None)]
    for fragment in getattr(request, "evidence", None) or ():
        texts.append(fragment.get("text") if isinstance(fragment, dict) else getattr(fragment, "text", None))
    for document in getattr(request, "documents", None) or ():
        texts.append(document.get("text") if isinstance(document, dict) else getattr(document, "text", None))
    return [t for t in texts if isinstance(t, str) and t]


def _call(assistant, request: AskRequest, admitted: float, until: float) -> Answer:
    from .documents import prepare_documents

    started = time.perf_counter()
    prepared = prepare_documents(request, until=until, max_fragments=assistant.limits.max_fragments)
    if time.monotonic() > until:  # answered 504 already: spend no LM call on it
        raise RequestFailure(504, "timeout", "the request timed out before its model call")
    evidence = prepared.fragments if prepared is not None else request.evidence
    result = assistant.run(request.query, evidence, target=request.target)
    done = time.perf_counter()
    return Answer(result.record, (done - started) * 1000.0, (started - admitted) * 1000.0, handoff_ms=done,
                  result=result, prepared=prepared)
