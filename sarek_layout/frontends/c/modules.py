"""Which module a C header's types belong to (docs/c-headers.md), and the options of the
commands that read C headers as schemas.

A header given as a schema gets its module from, first match wins:

1. the command line, ``--c-module HEADER=MODULE`` (``CHeaderOptions.modules``);
2. a comment in the header itself, ``// sarek-layout: module NAME`` or
   ``/* sarek-layout: module NAME */`` (``module_pragma``; ``NAME`` is an identifier, or
   ``""`` for no module);
3. its typedef names (``header_module_name``): the prefix ``<stem>_`` when every one of them
   starts with it (stem compared case-insensitively, spelled the same in all), else ``""``.

Whatever the module, **C names never change**: a type's C name is ``<Module>_<name>``, and it
must be the typedef name the header declares, because that is what the C code using the
header says. So with module ``M`` every typedef struct and enum of the header must be spelled
``M_<name>`` (the schema type is ``<name>``), and with module ``""`` the schema names are the
typedef names (``schema_names``). The same test says whether a type of a header that is not
given can be copied into a given header's schema (``name_in_module``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, Mapping, Optional, Sequence, Tuple

from ...errors import SchemaError, UsageError, quoted
from ...targets.names import identifier_problem
from ...ir.schema import SourceLocation
from ..source_files import default_module_name, is_header
from .preprocess import read_source_lines

__all__ = [
    "CHeaderOptions",
    "ModuleChoice",
    "parse_module_assignment",
    "module_choices",
    "check_module_headers",
    "module_pragma",
    "header_module_name",
    "schema_names",
    "name_in_module",
    "decide_module",
    "is_header",
]


@dataclass(frozen=True)
class ModuleChoice:
    """A module set explicitly, and by what (for messages): ``--c-module top.h=Geo``, or
    ``the comment at top.h:1:1``."""

    module: str
    how: str


@dataclass(frozen=True)
class CHeaderOptions:
    """How the C headers of one command are read: the preprocessor's ``-I`` folders and
    ``-D`` macros, and the modules set on the command line, by the header's real path."""

    include_dirs: Tuple[str, ...] = ()
    defines: Tuple[str, ...] = ()
    modules: Mapping[str, ModuleChoice] = field(default_factory=dict)

    def module_for(self, path: str) -> Optional[ModuleChoice]:
        return self.modules.get(os.path.realpath(path)) if self.modules else None

    def with_copies(self, copies: Mapping[str, str]) -> "CHeaderOptions":
        """These options, where each ``copy -> original`` pair gives the copy the module set
        for the original (``diff --against`` reads a revision's files from copies)."""
        modules = dict(self.modules)
        for copy, original in copies.items():
            choice = self.module_for(original)
            if choice is not None:
                modules[os.path.realpath(copy)] = choice
        return CHeaderOptions(self.include_dirs, self.defines, modules)


def _one_line(text: str) -> str:
    """A file name as typed, or its ``repr`` when it holds characters that do not print."""
    return text if text.isprintable() else repr(text)


def _module_problem(module: str) -> Optional[str]:
    return None if module == "" else identifier_problem(module, file_scope=True)


def parse_module_assignment(text: str) -> Tuple[str, str]:
    """``HEADER=MODULE`` as ``(header, module)``; ``ValueError`` saying what is wrong. An
    empty MODULE means no module (C names are the bare type names)."""
    header, sep, module = text.rpartition("=")
    if not sep or not header:
        raise ValueError(f"expected HEADER=MODULE (e.g. shapes.h=Geometry), not {quoted(text)}")
    problem = _module_problem(module)
    if problem is not None:
        raise ValueError(f"module name {quoted(module)} {problem}")
    return header, module


def module_choices(assignments: Iterable[Tuple[str, str]]) -> Dict[str, ModuleChoice]:
    """``--c-module`` assignments by the header's real path; one header given two modules is
    a usage error."""
    chosen: Dict[str, ModuleChoice] = {}
    for header, module in assignments:
        key = os.path.realpath(header)
        # Shown in messages of one line: a file name with a newline is escaped.
        choice = ModuleChoice(module, f"--c-module {_one_line(header)}={module}")
        if key in chosen and chosen[key].module != module:
            raise UsageError(f"{chosen[key].how} and {choice.how} give one header two modules")
        chosen.setdefault(key, choice)
    return chosen


def check_module_headers(options: CHeaderOptions, paths: Sequence[str],
                         all_headers: bool = False) -> None:
    """Every ``--c-module`` header must be one of the C headers read (a usage error
    otherwise: a misspelt name would silently change nothing). The headers are the ``.h``
    files of ``paths``, or all of them with ``all_headers`` (``import-c``)."""
    if not options.modules:
        return
    headers = [p for p in paths if all_headers or is_header(p)]
    given = {os.path.realpath(p) for p in headers}
    for key, choice in options.modules.items():
        if key not in given:
            shown = ", ".join(_one_line(h) for h in headers) or "none"
            raise UsageError(f"{choice.how}: that header is not among the C headers given "
                             f"(headers given: {shown})")


# --- the comment in the header -----------------------------------------------------------------

#: ``// sarek-layout: module`` or ``/* sarek-layout: module``: only comments whose first words
#: are these are read (other comments starting ``sarek-layout:`` are left alone).
_PRAGMA = re.compile(r"(?://|/\*)[ \t]*sarek-layout[ \t]*:[ \t]*module\b")
_TOKEN = re.compile(r'""|\S+')


def module_pragma(path: str) -> Optional[ModuleChoice]:
    """The module a header sets for itself with a comment, or ``None``. A malformed one (no
    name, more than a name, a name that is no module name) or a second one is refused at
    its place."""
    found: Optional[ModuleChoice] = None
    first_at: Optional[SourceLocation] = None
    for number, line in enumerate(read_source_lines(path, {path}), 1):
        if "sarek-layout" not in line:
            continue  # most lines: one substring test
        for m in _PRAGMA.finditer(line):
            at = SourceLocation(path, number, m.start() + 1)
            if first_at is not None:
                raise SchemaError(
                    f"a second 'sarek-layout: module' comment (the first is at {first_at}); "
                    f"a header belongs to one module: keep one", at)
            rest = line[m.end():]
            block = line[m.start():m.start() + 2] == "/*"
            if block and "*/" in rest:
                rest = rest[: rest.index("*/")]
            tokens = [(t.group(), m.end() + t.start() + 1) for t in _TOKEN.finditer(rest)]
            if len(tokens) != 1:
                what = "no module name" if not tokens else f"more than a module name ({quoted(tokens[1][0])})"
                col = m.start() + 1 if not tokens else tokens[1][1]
                raise SchemaError(
                    f"malformed 'sarek-layout: module' comment: {what}; write "
                    f"'// sarek-layout: module NAME' (NAME an identifier, or \"\" for no module)",
                    SourceLocation(path, number, col))
            name, col = tokens[0]
            module = "" if name == '""' else name
            problem = _module_problem(module)
            if problem is not None:
                raise SchemaError(
                    f"module name {quoted(name)} in the 'sarek-layout: module' comment {problem}; "
                    f"write an identifier, or \"\" for no module", SourceLocation(path, number, col))
            first_at = at
            found = ModuleChoice(module, f"the comment at {at}")
    return found


# --- names ---------------------------------------------------------------------------------


def header_module_name(path: str, c_names: Sequence[str]) -> Tuple[str, Dict[str, str]]:
    """The module a header gets from its typedef names alone (rule 3 of the module docs),
    and each typedef name's schema name."""
    stem = default_module_name(path)
    prefix_len = len(stem) + 1
    if c_names and stem:
        prefixes = {n[:prefix_len] for n in c_names}
        if (
            len(prefixes) == 1
            and next(iter(prefixes)).lower() == stem.lower() + "_"
            and all(len(n) > prefix_len for n in c_names)
        ):
            module = next(iter(prefixes))[:-1]
            return module, {n: n[prefix_len:] for n in c_names}
    return "", {n: n for n in c_names}


def name_in_module(module: str, c_name: str) -> Optional[str]:
    """The schema name under which a type of C name ``c_name`` belongs to ``module`` without
    its C name changing, or ``None`` when it cannot (it does not start with ``<module>_``)."""
    if not module:
        return c_name
    prefix = module + "_"
    if c_name.startswith(prefix) and len(c_name) > len(prefix):
        return c_name[len(prefix):]
    return None


def schema_names(choice: ModuleChoice, c_names: Sequence[str],
                 location_of) -> Dict[str, str]:
    """Each typedef name's schema name in the module set explicitly by ``choice``;
    ``location_of(c_name)`` places the refusal of a typedef whose name cannot stay its C name."""
    names: Dict[str, str] = {}
    for c_name in c_names:
        name = name_in_module(choice.module, c_name)
        if name is None:
            raise SchemaError(
                f"typedef {quoted(c_name)} is not named '{choice.module}_<name>', but the header's "
                f"module is {choice.module!r} (set by {choice.how}): a type's C name is "
                f"<Module>_<name>, and it must stay the typedef name the C code uses; rename "
                f"the typedef, or choose another module (\"\" keeps every name as it is)",
                location_of(c_name),
            )
        names[c_name] = name
    return names


def decide_module(path: str, c_names: Sequence[str], options: CHeaderOptions,
                  location_of) -> Tuple[str, Dict[str, str]]:
    """The module of the header ``path`` given as a schema and its typedefs' schema names:
    the command line, else the header's comment, else the typedef names."""
    choice = options.module_for(path) or module_pragma(path)
    if choice is None:
        return header_module_name(path, c_names)
    return choice.module, schema_names(choice, c_names, location_of)

