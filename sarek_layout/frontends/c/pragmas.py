"""Packing pragmas, followed through a header as gcc follows them (issues 22 and 30).

The extension scan (``extensions``) hands each ``#pragma`` line of the preprocessed text
here, and each struct or union body it meets (``Pragmas.opened``); a pragma that packs
notes the bodies it packs in its entry's ``records``, which ``header`` refuses. What each
form does was measured with gcc 12 (and clang 14 where the two differ); the tests compile
each form with gcc (``tests/frontends/test_cheader_pragmas.py``):

* ``#pragma pack(n)`` sets the packing (n one of 0, 1, 2, 4, 8, 16; ``pack(0)`` and
  ``pack()`` restore the target's own); ``pack(push[, id][, n])`` saves the packing in force
  first; ``pack(pop[, id])`` restores the packing the latest ``push`` (the latest one named
  ``id``, dropping those above it) saved. A ``pop`` with nothing pushed changes nothing, as
  does ``pack`` without parentheses. A packing in force while a body is open packs that body
  too (gcc lays a struct out at its closing brace).
* ``#pragma GCC optimize ("pack-struct")`` (or ``"-fpack-struct"``, in a list, with
  adjacent strings or escapes, through ``_Pragma``) packs every struct begun after it, until
  ``optimize ("no-pack-struct")``, ``#pragma GCC pop_options`` (back to what
  ``push_options`` saved) or ``reset_options``. ``"-fpack-struct=n"`` packs nothing itself
  but makes a later ``pack()`` set n. ``__attribute__((optimize(...)))`` changes no type (gcc:
  "does not apply to types") and is dropped with the other attributes of no layout effect.
* Forms the compilers read differently are not followed: every struct after one is refused.
  ``pack(N)`` with a macro ``N`` (clang expands it, gcc ignores the pragma), a ``pop``
  naming an id no ``push`` gave (gcc pops one level, clang none), a value no compiler takes,
  ``pack(push, n, id)`` (gcc's order; clang reads another packing), a ``#pragma pack`` while
  ``-fpack-struct`` is on (gcc ignores it, clang, which ignores ``#pragma GCC optimize``,
  does not).

A packing of 8 or more changes no Sarek layout (no Sarek scalar is aligned above 8).
``#pragma GCC pack`` is no pragma of either compiler and changes nothing.
"""

from __future__ import annotations

import codecs
import re
from typing import List, Optional, Sequence, Tuple

from ...ir.types import SCALARS

__all__ = ["Pragmas", "LAYOUT_PRAGMAS", "integer_literal"]

#: Where a struct or union body is, as pycparser gives its node.
Key = Tuple[str, int, int]
#: A packing below 8 in force, with the entry of the pragma that set it (None: none).
Packed = Optional[Tuple[int, dict]]

#: No Sarek scalar is aligned above this: a packing of it or more changes no Sarek layout.
SAREK_MAX_ALIGN = max(s.align for s in SCALARS.values())
#: The packings gcc and clang take (0: the target's own).
_PACK_VALUES = frozenset({0, 1, 2, 4, 8, 16})
#: Deeper ``push``es than this are not C's: the pragma is not followed.
_MAX_SAVED = 10_000
#: Most record bodies noted per entry (a pragma in force over a whole header applies to its
#: every struct, all noted up to this).
MAX_RECORDS = 1_000_000

#: Pragmas that change how the structs after them are laid out and that are not followed
#: form by form: each refuses every struct after it.
_STICKY_PRAGMAS = frozenset({"scalar_storage_order", "ms_struct", "align", "options"})
#: Every pragma this module reads (the scan blanks them for pycparser).
LAYOUT_PRAGMAS = _STICKY_PRAGMAS | {"pack", "optimize", "push_options", "pop_options",
                                    "reset_options"}
_OPTIONS_PRAGMAS = ("push_options", "pop_options", "reset_options")

_INTEGER = re.compile(r"(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\Z")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def integer_literal(text: str) -> Optional[int]:
    """The value of a C integer literal, possibly parenthesised; None for anything else."""
    text = text.strip()
    if len(text) > 64:  # no alignment is written in more; and no quadratic unwrapping
        return None
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    m = _INTEGER.match(text)
    if m is None:
        return None
    digits = m.group(1)
    octal = digits.startswith("0") and len(digits) > 1 and digits[1] not in "xX"
    return int(digits, 8) if octal else int(digits, 0)


def _optimize_options(arguments: str) -> List[str]:
    """The options ``#pragma GCC optimize ARGUMENTS`` gives, as gcc spells them: adjacent
    strings joined, escapes decoded, each string split at commas, and ``-f`` put before a
    bare name (``-O`` before a level)."""
    strings: List[str] = []
    end = None
    for m in _STRING.finditer(arguments):
        if end is not None and not arguments[end:m.start()].strip():
            strings[-1] += m.group(1)  # "pa" "ck-struct": one string
        else:
            strings.append(m.group(1))
        end = m.end()
    options = []
    for text in strings:
        try:
            text = codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
        except UnicodeDecodeError:
            pass  # a malformed escape: read as written
        for option in text.split(","):
            if not option.startswith("-"):
                if option[:1].isdigit() or option == "s":
                    option = "-O" + option
                elif option.startswith("O"):
                    option = "-" + option
                else:
                    option = "-f" + option
            options.append(option)
    return options


class Pragmas:
    """The packing pragmas in force at each point of one scan, and the bodies they pack."""

    def __init__(self) -> None:
        self.pack: Packed = None
        #: What each ``push`` saved, with its id.
        self.saved: List[Tuple[Packed, Optional[str]]] = []
        #: ``-fpack-struct=n``: the packing ``pack()`` sets (0: the target's own).
        self.initial = 0
        #: The entry of the ``optimize`` pragma that turned ``-fpack-struct`` on.
        self.pack_struct: Optional[dict] = None
        self.saved_options: List[Optional[dict]] = []
        #: The first pragma not followed: every body after it is refused.
        self.sticky: Optional[dict] = None

    def directive(self, name: str, gcc: bool, arguments: str, entry: dict,
                  chain: Sequence[Key]) -> bool:
        """Follow the pragma ``name`` (``gcc``: written ``#pragma GCC name``) with its
        ``arguments`` text; ``chain``: the bodies open around it. Whether ``entry`` is kept
        (the pragma can pack something)."""
        if gcc and name in _OPTIONS_PRAGMAS:
            self._options(name, entry)
            return self.sticky is entry  # kept only when not followed
        if gcc and name == "optimize":
            return self._optimize(arguments, entry)
        if name == "pack" and not gcc:
            self._pack(arguments, entry)
        elif name in _STICKY_PRAGMAS:
            self._not_followed(entry, None)
        else:
            return False
        if self.pack is not None:  # a packing in force while bodies are open packs them
            self._note(self.pack[1], chain)
        if self.sticky is not None:
            self._note(self.sticky, chain)
        return True

    def opened(self, key: Key) -> None:
        """A struct or union body starts at ``key``: the pragmas in force apply to it."""
        for entry in (self.pack[1] if self.pack is not None else None, self.pack_struct,
                      self.sticky):
            if entry is not None:
                self._note(entry, (key,))

    @staticmethod
    def _note(entry: dict, keys: Sequence[Key]) -> None:
        records = entry["records"]
        for key in keys:
            if len(records) < MAX_RECORDS:
                records.append(key)

    def _not_followed(self, entry: dict, why: Optional[str]) -> None:
        if why is not None:
            entry["verdict"] = (f"is a packing pragma that sarek-layout does not follow ({why}), "
                                f"so the structs that follow may be packed: their C layout "
                                f"could differ from Sarek's")
        if self.sticky is None:
            self.sticky = entry

    # -- #pragma GCC optimize and its options stack -------------------------------------

    def _options(self, name: str, entry: dict) -> None:
        if name == "push_options":
            if len(self.saved_options) >= _MAX_SAVED:
                self._not_followed(entry, f"more than {_MAX_SAVED} push_options in a row")
                return
            self.saved_options.append(self.pack_struct)
        elif name == "pop_options":
            if self.saved_options:  # gcc: a pop without a push changes nothing
                self.pack_struct = self.saved_options.pop()
        else:
            self.pack_struct = None

    def _optimize(self, arguments: str, entry: dict) -> bool:
        """``-fpack-struct`` on or off, or ``-fpack-struct=n`` noted; whether the pragma
        names pack-struct at all."""
        named = False
        for option in _optimize_options(arguments):
            if "pack-struct" not in option.lower():
                continue
            named = True
            if option == "-fno-pack-struct":
                self.pack_struct = None
                continue
            value = integer_literal(option[len("-fpack-struct="):]) \
                if option.startswith("-fpack-struct=") else None
            if value is not None:
                self.initial = value
            elif self.pack_struct is None:
                # -fpack-struct, or a spelling gcc refuses: read as packing, to be safe.
                entry["verdict"] = ("packs the structs begun after it (-fpack-struct: no "
                                    "padding between or after members), so their C layout "
                                    "would differ from Sarek's")
                self.pack_struct = entry
        return named

    # -- #pragma pack -------------------------------------------------------------------

    def _pack(self, arguments: str, entry: dict) -> None:
        if self.pack_struct is not None:
            self._not_followed(entry, "gcc ignores #pragma pack while -fpack-struct is on, "
                                      "clang does not")
            return
        text = arguments.strip()
        if not text.startswith("("):
            return  # no parentheses: gcc and clang ignore it
        m = re.match(r"\(([^()]*)\)", text)
        items = [a.strip() for a in m.group(1).split(",")] if m is not None else None
        if items is None or "" in items[1:]:
            self._not_followed(entry, "its arguments are not pack(n), pack(push[, id][, n]) "
                                      "or pack(pop[, id])")
            return
        head = items[0]
        if head in ("push", "pop"):
            self._push_pop(head, items[1:], entry)
        elif items == [""]:
            self._set(self.initial, entry, f" (the -fpack-struct={self.initial} of a "
                                           f"#pragma GCC optimize before it)")
        elif head == "show" and len(items) == 1:
            return  # prints the packing in force
        elif len(items) == 1 and integer_literal(head) in _PACK_VALUES:
            self._set(integer_literal(head), entry)  # type: ignore[arg-type]
        else:
            self._not_followed(entry, "a macro or an unknown word (clang expands macros in "
                                      "it, gcc does not), or a packing that is not 1, 2, 4, "
                                      "8 or 16")

    def _push_pop(self, action: str, rest: List[str], entry: dict) -> None:
        ids = [a for a in rest if _IDENTIFIER.match(a)]
        values = [integer_literal(a) for a in rest if not _IDENTIFIER.match(a)]
        # pack(push, n, id): gcc takes it, clang reads another packing.
        if len(ids) > 1 or len(values) > 1 or (action == "pop" and values) \
                or any(v not in _PACK_VALUES for v in values) or (ids and rest[0] != ids[0]):
            self._not_followed(entry, f"not pack({action}[, id]"
                                      f"{'[, n]' if action == 'push' else ''}) with n one of "
                                      f"1, 2, 4, 8, 16")
            return
        name = ids[0] if ids else None
        if action == "push":
            if len(self.saved) >= _MAX_SAVED:
                self._not_followed(entry, f"more than {_MAX_SAVED} pushes in a row")
                return
            self.saved.append((self.pack, name))
            if values:
                self._set(values[0], entry)  # type: ignore[arg-type]
            return
        if name is not None:
            at = next((i for i in range(len(self.saved) - 1, -1, -1)
                       if self.saved[i][1] == name), None)
            if at is None:
                self._not_followed(entry, f"no pack(push, {name}) is in force: gcc pops one "
                                          f"level, clang none")
                return
            del self.saved[at + 1:]
        if self.saved:  # a pop with nothing pushed changes nothing
            self.pack = self.saved.pop()[0]

    def _set(self, value: int, entry: dict, source: str = "") -> None:
        if value == 0 or value >= SAREK_MAX_ALIGN:
            self.pack = None  # the target's own, or no Sarek scalar is aligned above it
            return
        entry["verdict"] = (f"packs the members of the structs that follow to {value}-byte "
                            f"alignment{source}, so their C layout would differ from Sarek's")
        self.pack = (value, entry)
