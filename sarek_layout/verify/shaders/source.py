"""The shader files ``verify --shader`` reads: which language each is, and every file it may
include, read once, before any compiler runs.

A shader is input like a schema: only the files named with ``--shader`` are read, and the
files their ``#include`` lines name when found among those shaders or in an ``-I`` folder.
Nothing else reaches the compiler: the files are copied into its temporary folder
(``ShaderSet.lay_out``), and an ``#include`` that names an absolute path, climbs out with
``..``, is spelled with a macro or is found nowhere is refused here with its ``FILE:LINE:COL``.
Directives are found as the compiler finds them (``lexer``: line ends, splices, comments and
literals), and the compilers are walled in as well (``metal.only_these_files``, ``sandbox``).
Each file must be a regular file (a FIFO or a device is refused without being opened for
reading, as ``headers.read_header`` does) of at most ``MAX_SHADER_BYTES``, and its brackets
may nest at most ``MAX_NESTING`` deep: compilers recurse on nesting, and a shader of a
million ``(`` would crash them (or this reader) instead of being refused in one line.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple

from ...errors import SchemaError, UsageError
from ...ir.schema import SourceLocation
from ..headers import read_header, shown
from .lexer import Directive, Scanned, line_starts, scan

if TYPE_CHECKING:
    from .language import ShadingLanguage

__all__ = ["language_of", "ShaderFile", "ShaderSet", "read_shaders", "strip_comments",
           "MAX_SHADER_BYTES", "MAX_NESTING", "MAX_FILES"]

#: A shader larger than this is refused: hand-written shaders are kilobytes (the generated
#: GLSL of the end-to-end example is 20 KB), and reading a 4 MiB file of nothing but empty
#: structs takes about 10 s of CPU here.
MAX_SHADER_BYTES = 4 << 20
#: Bracket nesting allowed; glslang and clang recurse once per level.
MAX_NESTING = 200
#: Files one run may read (shaders and what they include), and their bytes together.
MAX_FILES = 256
MAX_TOTAL_BYTES = 16 << 20

#: The directives that read a file (``#import``, ``#include_next`` and ``#embed`` are refused).
_READS_A_FILE = ("include", "include_next", "import", "embed")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


def language_of(path: str, languages: Sequence["ShadingLanguage"]):
    """The shading language of the file ``path`` among ``languages``, from its suffix."""
    suffix = os.path.splitext(path)[1].lower()
    for lang in languages:
        if suffix in lang.suffixes:
            return lang
    known = "; ".join(f"{lang.title} ({', '.join(lang.suffixes)})" for lang in languages)
    raise UsageError(f"{shown(path)}: cannot tell the shader's language from its suffix "
                     f"{suffix or '(none)'!r}; expected {known}")


def strip_comments(text: str, language) -> str:
    """``text`` with comments blanked (line ends kept), read as ``language``'s compiler reads
    it (``lexer``), so that every offset still points at the same line and column."""
    return scan(text, language.lexicon).blank


@dataclass(eq=False)
class ShaderFile:
    """One file read: the name it has in the compile folder, the path messages show, text."""

    name: str  # relative path in the compile folder: src/<base> or inc/<as included>
    shown: str
    text: str
    language: "ShadingLanguage"
    given: bool
    _lines: List[int] = field(default_factory=list, repr=False)
    #: ``text`` without its comments (``strip_comments``), once read.
    stripped: str = field(default="", repr=False)
    #: What its ``#include`` lines name, in order, and all its directives (``lexer``).
    includes: List[str] = field(default_factory=list, repr=False)
    directives: List[Directive] = field(default_factory=list, repr=False)

    def position(self, offset: int) -> Tuple[int, int]:
        """1-based (line, column) of character ``offset`` (lines end as the compilers end
        them: at CR, LF or CRLF)."""
        if not self._lines:
            self._lines = line_starts(self.text)
        line = bisect_right(self._lines, offset)
        return line, offset - self._lines[line - 1] + 1

    def location(self, offset: int) -> SourceLocation:
        line, col = self.position(offset)
        return SourceLocation(self.shown, line, col)

    def where(self, offset: int) -> str:
        return str(self.location(offset))


@dataclass
class ShaderSet:
    """The shaders of one language, given in this order, and every file they include."""

    language: "ShadingLanguage"
    files: List[ShaderFile]
    #: What the schema asks of each struct name (``check.Expected``), for a language that
    #: judges the blocks of its shaders by the schema's rule sets (HLSL); set by the check.
    expected: dict = field(default_factory=dict, repr=False)

    @property
    def given(self) -> List[ShaderFile]:
        return [f for f in self.files if f.given]

    def lay_out(self, folder: str) -> None:
        """Write every file under ``folder`` (``src/…`` and ``inc/…``)."""
        for f in self.files:
            path = os.path.join(folder, f.name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as out:
                out.write(f.text)

    def visible(self, f: ShaderFile) -> List[ShaderFile]:
        """The files ``f`` compiles with: itself and what it includes (transitively)."""
        by_name = {g.name: g for g in self.files}
        seen = {id(f): f}  # by identity: two files may have the same text
        stack = [f]
        while stack:
            g = stack.pop()
            for name in g.includes:
                for cand in (f"src/{name}", f"inc/{name}"):
                    h = by_name.get(cand)
                    if h is not None and id(h) not in seen:
                        seen[id(h)] = h
                        stack.append(h)
        return list(seen.values())

    def roots(self) -> List[ShaderFile]:
        """The given files that no other given file includes: those are compiled (a file
        another includes is compiled there, where what it relies on is declared)."""
        included = {id(g) for f in self.given for g in self.visible(f) if g is not f}
        return [f for f in self.given if id(f) not in included]

    def readable(self, text: str, folder: str = "") -> str:
        """Compiler output with the compile folder's names replaced by the user's paths."""
        if folder:
            text = text.replace(folder + "/", "")
        for f in sorted(self.files, key=lambda f: len(f.name), reverse=True):
            shown_as = f.shown
            text = re.sub(rf"(?<![\w./-])(?:\./)?{re.escape(f.name)}",
                          lambda _m: shown_as, text)  # noqa: B023 (used at once)
        return text


def _read(path: str, what: str) -> str:
    try:  # the size first (stat opens nothing): a huge file is refused before it is read
        too_big = os.stat(path).st_size > MAX_SHADER_BYTES
    except OSError:
        too_big = False  # read_header says why it cannot be read
    if too_big:
        raise SchemaError(f"cannot read the {what} (larger than {MAX_SHADER_BYTES >> 20} MiB)",
                          SourceLocation(shown(path)))
    try:
        text = read_header(path)
    except UsageError as e:
        raise SchemaError(str(e).split(": ", 1)[1].replace("the header", f"the {what}"),
                          SourceLocation(shown(path))) from None
    if text.startswith("\ufeff"):
        # A UTF-8 byte order mark: editors show no column for it, and glslang refuses it in
        # an included file (which the shader becomes in the probe).
        text = text[1:]
    if len(text) > MAX_SHADER_BYTES:
        raise SchemaError(f"cannot read the {what} (larger than {MAX_SHADER_BYTES >> 20} MiB)",
                          SourceLocation(shown(path)))
    return text


def check_nesting(f: ShaderFile, scanned: Scanned) -> None:
    """Refuse brackets nested deeper than ``MAX_NESTING`` (one pass, no recursion)."""
    depth = 0
    for m in re.finditer(r"[()\[\]{}]", scanned.joined):
        if m.group() in _BRACKETS:
            depth += 1
            if depth > MAX_NESTING:
                raise SchemaError(f"brackets nested deeper than {MAX_NESTING} levels; verify "
                                  f"refuses the shader (its compiler would recurse as deep)",
                                  f.location(scanned.original(m.start())))
        elif depth:
            depth -= 1


def _include_target(f: ShaderFile, d: Directive) -> str:
    rest = d.rest.strip()
    where = f.location(d.offset)
    q = re.match(r'"([^"\r\n]*)"|<([^>\r\n]*)>', rest)
    if d.name not in f.language.follows or q is None:
        follows = " and ".join(f"#{n}" for n in f.language.follows)
        raise SchemaError(f"#{d.name} {rest[:60]}: verify follows only {follows} with "
                          f"\"FILE\" or <FILE>", where)
    name = q.group(1) if q.group(1) is not None else q.group(2)
    parts = name.split("/")
    if (not name or name.startswith("/") or "\\" in name or ".." in parts
            or not name.isprintable() or any(p in ("", ".") for p in parts)):
        raise SchemaError(f"#{d.name} {rest[:80]}: verify reads only files among the shaders "
                          f"given or below an -I folder (no absolute path, no '..')", where)
    return name


def _count(total: int, f: ShaderFile) -> int:
    total += len(f.text)
    if total > MAX_TOTAL_BYTES:
        raise SchemaError(f"the shaders and the files they include are larger than "
                          f"{MAX_TOTAL_BYTES >> 20} MiB together; refused",
                          SourceLocation(f.shown))
    return total


def read_shaders(paths: Sequence[str], include_dirs: Sequence[str],
                 languages: Sequence["ShadingLanguage"]) -> List[ShaderSet]:
    """Every shader of ``paths`` with what it includes, one ``ShaderSet`` per language of
    ``languages`` (in the order they first appear). Raises ``SchemaError``/``UsageError``
    (exit 2)."""
    sets: Dict[str, ShaderSet] = {}
    total = 0
    by_base: Dict[Tuple[str, str], ShaderFile] = {}
    queue: List[ShaderFile] = []
    for path in paths:
        lang = language_of(path, languages)
        base = os.path.basename(path)
        if not base.isprintable() or '"' in base or "\\" in base:
            raise UsageError(f"{shown(path)}: verify cannot include a shader whose file name "
                             f"has a quote, a backslash or a control character; rename it")
        if (lang.name, base) in by_base:
            raise UsageError(f"{shown(path)}: two --shader files have the name {base}; give "
                             f"each once")
        f = ShaderFile(f"src/{base}", shown(path), _read(path, "shader"), lang, True)
        total = _count(total, f)
        by_base[(lang.name, base)] = f
        sets.setdefault(lang.name, ShaderSet(lang, [])).files.append(f)
        queue.append(f)
    included: Dict[Tuple[str, str], ShaderFile] = {}
    while queue:
        f = queue.pop(0)
        lang = f.language
        scanned = scan(f.text, lang.lexicon)  # as the compiler reads it (lexer)
        f.stripped, f.directives = scanned.blank, scanned.directives
        check_nesting(f, scanned)
        for d in scanned.directives:
            if d.name not in _READS_A_FILE:
                continue
            name = _include_target(f, d)
            where = f.location(d.offset)
            f.includes.append(name)
            if name in lang.stand_ins:
                continue  # the compiler's stand-in
            if (lang.name, name) in by_base or (lang.name, name) in included:
                continue
            found = ""
            for folder in include_dirs:
                candidate = os.path.join(folder, name)
                if os.path.lexists(candidate):
                    real_dir = os.path.realpath(folder)
                    if not os.path.realpath(candidate).startswith(real_dir + os.sep):
                        raise SchemaError(f"#include \"{name}\": {shown(candidate)} leads out "
                                          f"of the -I folder {shown(folder)}; refused",
                                          where)
                    found = candidate
                    break
            if not found:
                raise SchemaError(f"#include \"{name}\" is neither a --shader given nor in an "
                                  f"-I folder; verify reads no other file (add -I DIR)", where)
            if len(by_base) + len(included) >= MAX_FILES:
                raise SchemaError(f"more than {MAX_FILES} files included; refused", where)
            inc = ShaderFile(f"inc/{name}", shown(found), _read(found, "included file"),
                             f.language, False)
            total = _count(total, inc)
            included[(lang.name, name)] = inc
            sets[lang.name].files.append(inc)
            queue.append(inc)
    return list(sets.values())
