"""Reading and writing outputs JSONL files (one :class:`~scorer.contract.OutputRecord`
a line), with typed errors naming file, line, field and value.

Re-exported by :mod:`scorer.repair`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic._jsonread import scan_json_records as scan_records
from symbolic.errors import ScenarioError

from .contract import OutputRecord
from .errors import OutputFileError
from .repair_fields import short

__all__ = ["dump_outputs", "load_outputs"]


def _validation_error(exc: ValidationError, file: str, line: int, record: Any) -> OutputFileError:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"])
    msg = err["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    if err["type"] == "missing":
        msg = "missing required field"
    elif err["type"] == "extra_forbidden":
        msg = f"unknown field {str(err['loc'][-1])!r}"
    value = err.get("input") if err["type"] != "missing" else None
    shown = "" if value is None or isinstance(value, Mapping) else f" (got {short(value)})"
    return OutputFileError(msg + shown, file=file, line=line, field=loc or None, value=value)


def load_outputs(path) -> list[OutputRecord]:
    """Read an outputs JSONL file (one :class:`~scorer.contract.OutputRecord` a line).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    list of OutputRecord
        In file order.

    Raises
    ------
    OutputFileError
        Naming file, line, field and value: missing file, bad JSON, a record
        breaking the contract, or the same run cell and case twice.

    Examples
    --------
    >>> load_outputs("/nonexistent/outputs.jsonl")
    Traceback (most recent call last):
    ...
    scorer.errors.OutputFileError: /nonexistent/outputs.jsonl: no such file
    """
    file = str(path)
    records: list[OutputRecord] = []
    first: dict[tuple, int] = {}
    try:
        for line, value in scan_records(path):
            if not isinstance(value, dict):
                raise OutputFileError(f"expected a JSON object, got {type(value).__name__}",
                                      file=file, line=line, value=value)
            try:
                record = OutputRecord.model_validate(value)
            except ValidationError as exc:
                raise _validation_error(exc, file, line, value) from None
            key = record.run_key + (record.case_id,)
            if key in first:
                raise OutputFileError(
                    f"duplicate output for case {record.case_id!r} in run {record.run_key!r} "
                    f"(first at line {first[key]})", file=file, line=line, field="case_id",
                    value=record.case_id)
            first[key] = line
            records.append(record)
    except ScenarioError as exc:
        raise OutputFileError(exc.reason, file=file, line=exc.line, field=exc.field,
                              value=exc.value) from None
    if not records:
        raise OutputFileError("no output records (the file is empty)", file=file)
    return records


def dump_outputs(records: Iterable[OutputRecord], path) -> str:
    """Write records as JSONL (sorted keys, one per line), atomically.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import tempfile, os
    >>> rec = OutputRecord(case_id="c1", configuration="direct", model="m",
    ...                    common={"final_status": "both"})
    >>> p = dump_outputs([rec], os.path.join(tempfile.mkdtemp(), "o.jsonl"))
    >>> load_outputs(p) == [rec]
    True
    """
    path = Path(path)
    data = "".join(r.to_json() + "\n" for r in records).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return str(path)
