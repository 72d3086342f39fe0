"""The ``generate --depfile`` file: Make-syntax rules that GNU make and ninja both read right.

A depfile is read by two different parsers with different escapes, so a path is written only
in the subset both read back as the same file name (measured with GNU make 4.3 and ninja
1.11; ninja's rules are in its ``src/depfile_parser.in.cc``):

* written as they are: ASCII letters and digits, ``_ - . / + , @ ! { }``, ``~`` (not first),
  and every non-ASCII character that prints (and a byte that is not UTF-8, written back as
  that byte): neither tool gives them a meaning;
* escaped: a space as ``\\ ``, ``#`` as ``\\#``, ``:`` as ``\\:`` (ninja 1.10.1 and later),
  ``$`` as ``$$``: the spellings both tools undo;
* refused, with a message naming the path (exit 2, nothing written): ``=`` (make reads the
  rule as a variable assignment: a folder ``SHELL=x`` would choose the shell of the next
  ``make``), ``;`` (starts a recipe), ``%`` (a pattern), ``* ? [ ]`` (make expands them as
  wildcards), ``( )`` (make's ``archive(member)``), ``|`` (order-only prerequisites),
  ``\\`` (the two tools disagree on it), ``" ' & < > ^ ```, which ninja before 1.13 drops,
  tabs and other characters that do not print, a path that starts with ``-`` (make's
  ``-lNAME`` library search) or ``~`` (make's home-folder expansion) or, with no folder in
  it, with ``.`` (make's special and suffix-rule targets), and a path that ends with a space
  or ``:`` (make drops the one, ninja misreads the other).

The text is deterministic: rules in the order of the schema files' names, not of the
command line.
"""

from __future__ import annotations

import string
from typing import Sequence

from ..errors import UsageError
from .output_paths import printable

__all__ = ["depfile_text", "make_word"]

#: Characters both tools take literally in a file name.
_LITERAL = frozenset(string.ascii_letters + string.digits + "_-./+,@!{}~")
#: Characters both tools read back from these spellings.
_ESCAPES = {" ": "\\ ", "#": "\\#", ":": "\\:", "$": "$$"}
#: Why a character cannot be written, for the message.
_WHY = {
    "=": "make would read the rule as a variable assignment",
    ";": "make would read the rest of the line as a recipe",
    "%": "make would read a pattern rule",
    "*": "make would expand it as a wildcard",
    "?": "make would expand it as a wildcard",
    "[": "make would expand it as a wildcard",
    "]": "make would expand it as a wildcard",
    "(": "make would read an archive member",
    ")": "make would read an archive member",
    "|": "make would read order-only prerequisites",
    "\\": "make and ninja read backslashes differently",
}


def _refuse(path: str, what: str) -> UsageError:
    return UsageError(
        f"cannot write a dependency file naming {printable(path)}: {what}; rename it or drop "
        f"--depfile (docs/build-integration.md lists the characters that work)"
    )


def _character(path: str, ch: str) -> str:
    if ch in _LITERAL:
        return ch
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return ch  # an undecodable byte, written back as that byte (>= 0x80: literal to both)
    if code >= 0x80 and ch.isprintable():
        return ch
    if ch in _WHY:
        raise _refuse(path, f"{ch!r} cannot be written: {_WHY[ch]}")
    if ch.isprintable():
        raise _refuse(path, f"{ch!r} cannot be written: ninja before 1.13 drops it")
    raise _refuse(path, f"the character {ascii(ch)} does not print and cannot be written")


def make_word(path: str) -> str:
    """``path`` spelled for a depfile (see the module docs), or ``UsageError``."""
    if not path:
        raise _refuse(path, "the path is empty")
    if path[0] in "-~":
        raise _refuse(path, f"a path starting with {path[0]!r} means something else to make")
    if path[0] == "." and "/" not in path:
        raise _refuse(path, "a file name starting with '.' can be a special target to make; "
                            "write it as ./NAME")
    if path[-1] in " :":
        raise _refuse(path, f"a path ending with {path[-1]!r} cannot be written")
    return "".join(_character(path, ch) for ch in path)


def depfile_text(planned: Sequence) -> str:
    """Make rules ``OUTPUT: SCHEMA...`` (one per output), plus an empty rule per schema.

    ``planned``: objects with ``path`` (the output) and ``sources`` (its schema files, its
    own first). The empty rules are what ``gcc -MP`` adds: deleting or renaming a schema file
    then makes Make rerun the generator instead of stopping with "No rule to make target"
    (ninja accepts them too). Raises ``UsageError`` for a path the tools cannot both read.
    """
    # Rules by schema file (outputs of one schema keep their target order), then the schemas
    # sorted: the text must not depend on the command-line order of the schema files.
    words = {}

    def word(path: str) -> str:
        if path not in words:
            words[path] = make_word(path)
        return words[path]

    lines = []
    schemas = set()
    for p in sorted(planned, key=lambda p: p.sources[:1]):
        lines.append(f"{word(p.path)}: {' '.join(word(s) for s in p.sources)}")
        schemas.update(p.sources)
    lines.append("")
    lines.extend(f"{word(s)}:" for s in sorted(schemas))
    return "\n".join(lines) + "\n"
