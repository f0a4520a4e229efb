"""Before the first case: every backbone of a spec is a known model string
(checked before the run directory exists) and answers a real one-token
completion through the path the cases use (checked before any case runs).

A dead backbone stops the run with one line naming the backbone, its endpoint
and the cause, instead of filling the log with infrastructure errors.
"""

from __future__ import annotations

from typing import Mapping

from .spec import ExperimentSpec

__all__ = ["backbone_decoding", "check_models", "resolve_backbones"]

#: Backbones whose calls have their own time bound (the embedded model's
#: ``PARATRACE_LOCAL_TIMEOUT_S``) or make no network call: the spec's
#: ``timeout_s`` is not applied to them.
_OWN_BOUNDS = ("local", "scripted")


def backbone_decoding(backbone, timeout_s: float | None = None):
    """The decoding of a spec's backbone: its ``decoding`` overrides and, for a
    remote model, the spec's ``timeout_s`` as the client timeout of every call.

    Examples
    --------
    >>> from experiments.runner.spec import Backbone
    >>> dict(backbone_decoding(Backbone(model="openai/m"), 30.0).extra)
    {'timeout': 30.0}
    >>> backbone_decoding(Backbone(model="local/gemma-3-270m"), 30.0).extra
    ()
    """
    from assistant.backends import Decoding

    decoding = Decoding().with_overrides(**backbone.decoding) if backbone.decoding else Decoding()
    if timeout_s is not None and backbone.model.partition("/")[0] not in _OWN_BOUNDS \
            and "timeout" not in backbone.decoding:
        decoding = decoding.with_overrides(timeout=timeout_s)
    return decoding


def check_models(spec: ExperimentSpec) -> None:
    """Every backbone's model string is well formed and names a known provider.

    Raises
    ------
    assistant.errors.BackendError
        Naming the backbone and the model string.
    """
    from assistant.backends import check_model
    from assistant.errors import BackendError

    for backbone in spec.backbones:
        try:
            check_model(backbone.model)
        except BackendError as exc:
            raise BackendError(f"backbone {backbone.name}: {exc}") from None


def resolve_backbones(spec: ExperimentSpec, *, cache: bool = True, probe: bool = True) -> Mapping[str, object]:
    """Resolve every backbone of ``spec`` (starting the embedded server if one
    is used) and, with ``probe``, send each a one-token completion as a case
    is sent (:func:`assistant.backends.probe`).  The spec's ``timeout_s`` is
    every remote call's client timeout (unless the backbone's ``decoding``
    sets ``timeout``).

    Returns
    -------
    dict
        :class:`assistant.backends.Backbone` by backbone name, for
        :class:`~experiments.runner.solve.AssistantSolver`.

    Raises
    ------
    assistant.errors.BackendError
        For the first backbone that cannot be resolved or does not answer.
    """
    from assistant.backends import probe as probe_one, resolve
    from assistant.errors import BackendError

    resolved = {}
    for backbone in spec.backbones:
        decoding = backbone_decoding(backbone, spec.timeout_s)
        try:
            resolved[backbone.name] = resolve(backbone.model, decoding=decoding, api_base=backbone.api_base,
                                              cache=cache, api_key_env=backbone.api_key_env)
        except BackendError as exc:
            where = f" at {', '.join(backbone.endpoints)}" if backbone.endpoints else ""
            raise BackendError(f"backbone {backbone.name}{where}: {exc}") from None
        if probe and len(backbone.endpoints) > 1:  # each replica answers, as a case is sent to it
            for base in backbone.endpoints:
                try:
                    replica = resolve(backbone.model, decoding=decoding, api_base=base, cache=False,
                                      api_key_env=backbone.api_key_env)
                    probe_one(replica, name=f"{backbone.name} (replica)")
                except BackendError as exc:
                    raise BackendError(f"{exc}; every replica in api_base must answer at the start "
                                       "(take this one out of the list, or start it)") from None
        elif probe:
            probe_one(resolved[backbone.name], name=backbone.name)
    return resolved
