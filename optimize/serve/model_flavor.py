"""One MLflow model per optimized program, with two flavors.

* ``python_function``: :class:`~optimize.serve.pyfunc.AssistantModel`, the
  assistant running the program; ``mlflow.pyfunc.load_model(URI).predict(request)``
  answers with the output record and ``mlflow models serve -m URI
  --env-manager local`` serves it.
* ``dspy``: the DSPy module in DSPy's own save format (no pickled LM), for
  ``mlflow.dspy.load_model(URI)``.

The directory also holds the saved program under ``paratrace/`` (manifest,
state), which :func:`optimize.programs.load_program` reads from a
``models:/NAME/VERSION`` URI.  The backbone is chosen at load or serve time
(:class:`~optimize.serve.pyfunc.AssistantModel`).

:func:`log_model` is ``Model.log`` with this module as the flavor, so MLflow
logs, registers and versions it like any other model.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["log_model", "save_model"]

_PROGRAM_DIR = "paratrace"


def save_model(path: str, mlflow_model=None, *, program: str, model: str | None = None, **kwargs: Any) -> str:
    """Write the two-flavor model of the saved program ``program`` to ``path``.

    Parameters
    ----------
    path : str
        A new directory.
    mlflow_model : mlflow.models.Model, optional
        The model description to fill (``Model.log`` passes it).
    program : str
        A saved-program directory (:func:`optimize.programs.save_program`).
    model : str, optional
        A default backbone recorded in the model config (else the program's manifest model).
    **kwargs
        Further :func:`mlflow.pyfunc.save_model` arguments (``metadata``...).

    Raises
    ------
    ProgramLoadError
        If ``program`` is not a loadable saved program.
    """
    import dspy
    import mlflow.dspy
    import mlflow.pyfunc
    from mlflow.models import Model
    from mlflow.models.model import MLMODEL_FILE_NAME

    from optimize.programs import load_program

    from .pyfunc import model_kwargs

    loaded = load_program(program)
    mlflow_model = mlflow_model if mlflow_model is not None else Model()
    mlflow.pyfunc.save_model(path=path, mlflow_model=mlflow_model, **model_kwargs(program, "b4", model), **kwargs)
    with tempfile.TemporaryDirectory(prefix="paratrace-dspy-") as tmp:
        side = str(Path(tmp) / "model")
        with dspy.context(lm=None, adapter=None, callbacks=[]):  # no LM, no key in the saved settings
            mlflow.dspy.save_model(loaded.program, side, use_dspy_model_save=True,
                                   pip_requirements=[f"dspy=={dspy.__version__}"])
        flavor = dict(Model.load(side).flavors["dspy"])
        shutil.copytree(Path(side) / "data", Path(path) / "data")
    mlflow_model.add_flavor("dspy", **flavor)
    shutil.copytree(loaded_directory(program), Path(path) / _PROGRAM_DIR)
    mlflow_model.save(str(Path(path) / MLMODEL_FILE_NAME))
    return path


def loaded_directory(program: str) -> Path:
    """The directory holding ``manifest.json`` and ``program.json`` of a saved program."""
    directory = Path(program)
    return directory / _PROGRAM_DIR if (directory / _PROGRAM_DIR / "manifest.json").is_file() else directory


def log_model(name: str, program: str, *, model: str | None = None, registered_model_name: str | None = None,
              metadata: dict | None = None, params: dict | None = None):
    """Log (and optionally register) the two-flavor model of ``program`` in the active run.

    Returns
    -------
    mlflow.models.model.ModelInfo
        ``model_uri`` loads with :func:`mlflow.pyfunc.load_model` and :func:`mlflow.dspy.load_model`.
    """
    from mlflow.models import Model

    return Model.log(artifact_path=None, name=name, flavor=sys.modules[__name__],
                     registered_model_name=registered_model_name, metadata=metadata, params=params,
                     program=str(program), model=model)
