"""paratrace's reference assistant: configurations B1-B4 as DSPy modules
(paper Section 4.6, Table 3), Instructor-validated outputs, any litellm
backbone, the embedded local model and a deterministic scripted backend.

The package exports no names; each is imported from the one submodule that
defines it, so that ``import assistant`` (done by every ``paratrace`` command)
loads neither DSPy nor litellm:

* :mod:`assistant.api` -- :class:`~assistant.api.Assistant`, :func:`~assistant.api.ask`, ``RunResult``;
* :mod:`assistant.configs` -- the configurations B1-B4 and their registry ``CONFIGURATIONS``;
* :mod:`assistant.baselines` -- the reasoning-style baselines (paper Table 4);
* :mod:`assistant.backends` -- backbones, decoding, :func:`~assistant.backends.apply_env_defaults`;
* :mod:`assistant.evidence` -- the evidence package and its limits;
* :mod:`assistant.variants` -- prompt variants and demos;
* :mod:`assistant.programs` -- saved programs (DSPy state and manifest) and the ones shipped for
  the default model;
* :mod:`assistant.errors` -- the exception hierarchy;
* :mod:`assistant.ingest` -- from documents to an evidence package;
* :mod:`assistant.oracle` -- oracle backbones answering from a suite's gold.

Importing the package changes nothing in the environment; the ``paratrace``
command (:func:`optimize.root.main`) and :func:`assistant.backends.resolve`
call :func:`~assistant.backends.apply_env_defaults`, which sets
``LITELLM_LOCAL_MODEL_COST_MAP=true`` and ``MLFLOW_DISABLE_TELEMETRY=true``
unless the user set them, so that nothing tries the network on its own.

>>> from assistant.api import ask
>>> ask("Is a penalty due?", [{"id": "E-01", "text": "A penalty is due.", "source": "Contract"}],
...     config="b4", model="scripted/null", target="Penalty(x)").common.final_status.value
'undecidable'
"""

__all__: list[str] = []
