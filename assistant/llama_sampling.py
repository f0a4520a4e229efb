"""Fast grammar-constrained greedy decoding for the embedded llama.cpp server.

llama-cpp-python 0.3.36 puts the grammar sampler first in its chain, so the
grammar is checked against the whole vocabulary at every token: 262,144
candidates for Gemma 3, which made constrained decoding run at about two
tokens a second on two cores and drove the server's memory to gigabytes.
llama.cpp's own sampler does it the other way round:
it picks the token first, asks the grammar about that one token, and only
when the grammar refuses it applies the grammar to the whole vocabulary.
:class:`VerifyFirstSampler` does the same for greedy decoding (temperature 0,
the paper's setting), with the same repeat penalty, so the chosen tokens are
those of the original chain.

:func:`install` makes ``llama_cpp.Llama`` use it for greedy requests with a
grammar; ``python -m assistant.llama_server`` installs it and runs
llama-cpp-python's server.  Any other request keeps the library's chain.
"""

from __future__ import annotations

import ctypes

import numpy as np

__all__ = ["VerifyFirstSampler", "install"]


class VerifyFirstSampler:
    """Greedy decoding under a GBNF grammar, the greedy token checked first.

    Parameters
    ----------
    llama : llama_cpp.Llama
        The model (its vocabulary, logits and the tokens seen so far).
    grammar : llama_cpp.LlamaGrammar
        The grammar of the request.
    repeat_penalty : float
        llama.cpp's repeat penalty over the last ``penalty_last_n`` generated
        tokens (1.0: none), as its penalties sampler applies it.
    penalty_last_n : int
        The penalty window.
    """

    def __init__(self, llama, grammar, *, repeat_penalty: float = 1.0, penalty_last_n: int = 64):
        import llama_cpp

        self._lib = llama_cpp
        self._llama = llama
        self._n_vocab = int(llama._n_vocab)
        self._penalty = float(repeat_penalty)
        self._last_n = int(penalty_last_n)
        self._grammar = llama_cpp.llama_sampler_init_grammar(
            llama._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8"))
        if not self._grammar:
            raise ValueError("llama.cpp refused the grammar")
        self._one = (llama_cpp.llama_token_data * 1)()
        self._full = None
        self._generated: list[int] = []
        self._dtype = np.dtype([("id", np.intc), ("logit", np.single), ("p", np.single)], align=True)

    def _logits(self, ctx, idx: int) -> np.ndarray:
        ptr = self._lib.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(ptr, shape=(self._n_vocab,)).copy()
        if self._penalty != 1.0 and self._last_n > 0 and self._generated:
            seen = np.unique(np.asarray(self._generated[-self._last_n:], dtype=np.intc))
            values = logits[seen]
            logits[seen] = np.where(values > 0, values / self._penalty, values * self._penalty)
        return logits

    def _allowed(self, token: int, logit: float) -> bool:
        lib = self._lib
        self._one[0].id, self._one[0].logit, self._one[0].p = token, logit, 0.0
        arr = lib.llama_token_data_array(data=self._one, size=1, selected=-1, sorted=False)
        lib.llama_sampler_apply(self._grammar, ctypes.byref(arr))
        return bool(np.isfinite(self._one[0].logit))

    def _best_allowed(self, logits: np.ndarray) -> int:
        lib = self._lib
        if self._full is None:
            self._full = (lib.llama_token_data * self._n_vocab)()
        view = np.frombuffer(self._full, dtype=self._dtype, count=self._n_vocab)
        view["id"] = np.arange(self._n_vocab, dtype=np.intc)
        view["logit"] = logits
        view["p"] = 0.0
        arr = lib.llama_token_data_array(data=self._full, size=self._n_vocab, selected=-1, sorted=False)
        lib.llama_sampler_apply(self._grammar, ctypes.byref(arr))
        size = int(arr.size)
        return int(view["id"][: size][int(np.argmax(view["logit"][: size]))])

    def sample(self, ctx, idx: int) -> int:
        """The next token (accepted by the grammar)."""
        logits = self._logits(ctx, idx)
        token = int(np.argmax(logits))
        if not self._allowed(token, float(logits[token])):
            token = self._best_allowed(logits)
        self.accept(token)
        return token

    def accept(self, token: int) -> None:
        """Advance the grammar (and the penalty window) by ``token``."""
        self._lib.llama_sampler_accept(self._grammar, token)
        self._generated.append(int(token))

    def reset(self) -> None:
        """Restart the grammar and the penalty window."""
        self._lib.llama_sampler_reset(self._grammar)
        self._generated.clear()

    def close(self) -> None:
        """Free the grammar sampler."""
        if self._grammar:
            self._lib.llama_sampler_free(self._grammar)
            self._grammar = None

    def __del__(self):
        self.close()


def install() -> None:
    """Route greedy, grammar-constrained sampling of ``llama_cpp.Llama`` through
    :class:`VerifyFirstSampler` (idempotent)."""
    from llama_cpp import Llama

    original = Llama._init_sampler
    if getattr(original, "_paratrace", False):
        return

    def _init_sampler(self, *args, **kwargs):
        grammar = kwargs.get("grammar")
        plain = (not args and grammar is not None and kwargs.get("temp", 0.8) == 0.0
                 and kwargs.get("logits_processor") is None and kwargs.get("mirostat_mode", 0) == 0
                 and not kwargs.get("frequency_penalty") and not kwargs.get("presence_penalty"))
        if not plain:
            return original(self, *args, **kwargs)
        return VerifyFirstSampler(self, grammar, repeat_penalty=kwargs.get("repeat_penalty", 1.0),
                                  penalty_last_n=self.last_n_tokens_size)

    _init_sampler._paratrace = True
    Llama._init_sampler = _init_sampler
