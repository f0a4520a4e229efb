"""The embedded models' registry and the assembly of a GGUF file from chunk packages:
order, size and SHA-256 checked before the file is served, nothing half-written left behind."""

from __future__ import annotations

import hashlib
import sys

import pytest

from assistant.backends import check_model
from assistant.errors import BackendError, LocalModelError
from assistant.local_models import LOCAL_MODELS, LocalModel, assemble, local_model, quality_note


@pytest.fixture
def chunk_packages(tmp_path, monkeypatch):
    """Two importable chunk packages, ``fakechunk_part1`` and ``fakechunk_part2``."""
    parts = [b"GGUF" + b"a" * 1000, b"b" * 777]
    for k, data in enumerate(parts, start=1):
        pkg = tmp_path / "site" / f"fakechunk_part{k}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{k:02d}.bin").write_bytes(data)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    for k in (1, 2):
        sys.modules.pop(f"fakechunk_part{k}", None)
    whole = b"".join(parts)
    return whole


def _model(size: int, sha: str) -> LocalModel:
    return LocalModel(name="local/fake", alias="fake", family="fake", filename="fake.gguf",
                      chunks=(("fakechunk_part1", "data/part01.bin"), ("fakechunk_part2", "data/part02.bin")),
                      size=size, sha256=sha, extra="local", instruct=True, summary="a fake")


def test_chunks_are_concatenated_in_order_verified_and_reused(chunk_packages, tmp_path):
    spec = _model(len(chunk_packages), hashlib.sha256(chunk_packages).hexdigest())
    path = assemble(spec, tmp_path / "models")
    assert path.read_bytes() == chunk_packages
    assert (tmp_path / "models" / "fake.gguf.verified").read_text().strip() == spec.sha256
    mtime = path.stat().st_mtime_ns
    assert assemble(spec, tmp_path / "models") == path and path.stat().st_mtime_ns == mtime


def test_a_checksum_mismatch_is_refused_and_leaves_no_file(chunk_packages, tmp_path):
    spec = _model(len(chunk_packages), "0" * 64)
    with pytest.raises(LocalModelError, match="SHA-256 .* expected"):
        assemble(spec, tmp_path / "models")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_missing_chunk_package_names_the_extra_to_install(tmp_path):
    spec = LocalModel(name="local/absent", alias="absent", family="absent", filename="absent.gguf",
                      chunks=(("absentchunk_part1", "data/part01.bin"),), size=1, sha256="0" * 64, extra="local",
                      instruct=True, summary="not installed")
    with pytest.raises(LocalModelError, match=r"pip install 'paratrace\[local\]'.*absentchunk-part1"):
        assemble(spec, tmp_path / "models")


def test_every_model_is_named_local_and_the_default_is_instruction_tuned():
    assert all(name.startswith("local/") for name in LOCAL_MODELS)
    default = local_model(next(iter(LOCAL_MODELS)))
    assert default.name == "local/qwen2.5-coder-0.5b" and default.instruct
    assert local_model("local/gemma-3-270m").family == "gemma" and not local_model("local/gemma-3-270m").instruct
    assert check_model("local/qwen2.5-coder-1.5b") == "local/qwen2.5-coder-1.5b"
    with pytest.raises(BackendError, match="unknown local model 'local/nope'"):
        check_model("local/nope")


def test_answer_pages_of_embedded_models_below_the_quality_level_say_so():
    for name in LOCAL_MODELS:
        assert "below the documented quality level" in quality_note(name)
    assert quality_note("hosted_vllm/Qwen/Qwen2.5-72B-Instruct") is None
