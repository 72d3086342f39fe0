"""The templates of ``templates/`` compiled by Jinja, one module each: written by
``python -m sarek_layout.codegen.precompile`` (``make generate``), never edited by hand, and
used by ``codegen.render`` only while each matches its template (see ``codegen.precompile``)."""
