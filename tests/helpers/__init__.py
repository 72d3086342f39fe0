"""Helpers the tests share, imported as a package (``from helpers.common import ROOT``):
``common`` (paths, the toolchain gate, folders built once per run), ``c_oracle`` (C structs
laid out by the real compiler), ``shapes`` (the enumeration and hypothesis strategies),
``compile`` (compiling generated headers), ``verify`` (verify's test data), ``hostile``
(bounded runs of hostile inputs), ``integration`` (the build-system examples), ``host``
(values and layouts for the host codec tests).

``tests/`` is on ``sys.path`` through pytest's ``pythonpath`` setting (pyproject.toml).
"""
