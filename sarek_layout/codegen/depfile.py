"""The ``generate --depfile`` file: Make rules naming the schema files each output depends on."""

from __future__ import annotations

from typing import Sequence

__all__ = ["depfile_text"]


def _make_escape(path: str) -> str:
    """A path as a Make word: spaces, '#' and ':' backslashed, '$' doubled.

    Make has no escape for a newline or another control character: such a path is refused
    (``UsageError``) rather than written into a rule it would break.
    """
    if not path.isprintable():
        from ..errors import UsageError

        raise UsageError(
            f"cannot write a Make dependency file naming {ascii(path)}: Make cannot express a "
            f"path with a newline or another control character; rename it or drop --depfile"
        )
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ").replace(":", "\\:")


def depfile_text(planned: Sequence) -> str:
    """Make rules ``OUTPUT: SCHEMA...`` (one per output), plus an empty rule per schema.

    The empty rules are what ``gcc -MP`` adds: deleting or renaming a schema file then makes
    Make rerun the generator instead of stopping with "No rule to make target".
    """
    # Rules by schema file (outputs of one schema keep their target order), then the schemas
    # sorted: the text must not depend on the command-line order of the schema files.
    lines = []
    schemas = set()
    for p in sorted(planned, key=lambda p: p.sources[:1]):
        lines.append(f"{_make_escape(p.path)}: {' '.join(_make_escape(s) for s in p.sources)}")
        schemas.update(p.sources)
    lines.append("")
    lines.extend(f"{_make_escape(s)}:" for s in sorted(schemas))
    return "\n".join(lines) + "\n"
