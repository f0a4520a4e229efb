"""Per-backbone rate limiting and retries with exponential backoff.

Retries use tenacity; what counts as transient (timeouts, HTTP 429, 5xx) is
decided by :func:`is_transient`.
"""

from __future__ import annotations

import random
import threading
import time

import tenacity

__all__ = ["RateLimiter", "is_transient", "retrying"]

_TRANSIENT_NAMES = ("Timeout", "RateLimit", "ServiceUnavailable", "InternalServer", "ServerError",
                    "APIConnection", "Transport", "BadGateway", "GatewayTimeout", "LockTimeout")


def _transient_one(exc: BaseException) -> bool:
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return True
    for attr in ("status_code", "status"):
        status = getattr(exc, attr, None)
        if isinstance(status, int) and (status == 429 or 500 <= status < 600):
            return True
    return any(name in type(exc).__name__ for name in _TRANSIENT_NAMES)


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` is worth retrying: a timeout, a 429 or a 5xx.

    The whole cause chain is inspected, so a provider's rate-limit error
    wrapped by DSPy or litellm still counts; a call that hit its own token or
    time bound (:class:`assistant.errors.CallLimitError`) is not retried.

    Examples
    --------
    >>> is_transient(TimeoutError()), is_transient(ValueError("bad json"))
    (True, False)
    >>> try:
    ...     try:
    ...         raise TimeoutError("read timed out")
    ...     except TimeoutError as inner:
    ...         raise RuntimeError("wrapped") from inner
    ... except RuntimeError as outer:
    ...     is_transient(outer)
    True
    """
    from assistant.errors import CallLimitError

    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, CallLimitError):
            return False  # a token or time bound: asking again would hit it again
        if _transient_one(exc):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def retrying(max_retries: int, *, seed: int, base_s: float = 1.0, cap_s: float = 60.0,
             sleep=time.sleep) -> tenacity.Retrying:
    """A tenacity policy: ``max_retries`` retries of transient errors,
    exponential backoff with seeded full jitter.

    Parameters
    ----------
    max_retries : int
        Retries after the first attempt.
    seed : int
        Seeds the jitter, so a rerun waits the same.
    base_s, cap_s : float
        First backoff and its ceiling, in seconds.
    sleep : callable
        Injected for tests.
    """
    rng = random.Random(seed)
    expo = tenacity.wait_exponential(multiplier=base_s, max=cap_s)

    def wait(state):
        return rng.uniform(0, expo(state))

    return tenacity.Retrying(
        retry=tenacity.retry_if_exception(is_transient),
        stop=tenacity.stop_after_attempt(max_retries + 1),
        wait=wait,
        sleep=sleep,
        reraise=True,
    )


class RateLimiter:
    """At most ``rate_per_minute`` acquisitions per minute, shared by threads.

    ``None`` means unlimited.  Calls are spaced evenly (a leaky bucket).
    """

    def __init__(self, rate_per_minute: float | None, *, clock=time.monotonic, sleep=time.sleep):
        self.interval = 60.0 / rate_per_minute if rate_per_minute else 0.0
        self._next = 0.0
        self._lock = threading.Lock()
        self._clock, self._sleep = clock, sleep

    def acquire(self) -> None:
        """Block until the next call may start."""
        if not self.interval:
            return
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            self._sleep(start - now)
