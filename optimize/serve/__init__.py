"""Serving the assistant over HTTP (docs/optimize.md).

``paratrace serve`` runs :func:`optimize.serve.app.create_app` under uvicorn
(:mod:`optimize.serve.server`); :mod:`optimize.serve.pyfunc` wraps the same
call as an MLflow ``PythonModel`` so that ``mlflow models serve`` answers the
same request with the same output record.

The package imports nothing heavy at import time; import the submodules.
"""

__all__: list[str] = []
