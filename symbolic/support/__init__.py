"""Utilities the project shares that are not argumentation, kept out of the engine's way.

- :mod:`symbolic.support.registry`: named factories with metadata (configurations, metrics,
  optimizers, suites);
- :mod:`symbolic.support.redact`: masking secrets in text, logs and traces;
- :mod:`symbolic.support.fsio`: bounded reading and atomic writing of files;
- :mod:`symbolic.support.collector`: the garbage collector's policy of a command that works
  through a suite.

They sit in the lowest package so that every package can use them; the engine (scenario model,
arguments, attacks, priorities, labelling, status, trace) imports only :mod:`fsio` from here,
through the loader.  This package exports no names: import each from its module.
"""

__all__: list[str] = []
