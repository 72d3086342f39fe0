"""The headers ``verify`` compiles, and the temporary folder each compile runs in.

A ``HeaderSet`` holds the text of the headers of one target: generated now, or read once
from the user's ``--header`` files (``HeaderSet.from_paths``), which must be regular files of
bounded size whose names can be written inside ``#include "…"`` (C has no escapes there: a
``"`` or a newline in a name would inject lines into the probe source, and a trigraph such
as ``??-`` would make it include another file).

Every compile (the structure check's preprocessor included) runs in a ``CompileFolder``::

    <tmp>/headers/<name>   each header of the set, under its own file name
    <tmp>/dir0, dir1, …    symbolic links to the folders of the user's headers, searched for
                           the files those headers include
    <tmp>/…                the driver's probe source and outputs

Compilers run with ``<tmp>`` as their working folder and see only those relative paths, so
neither the user's file names nor their folder names ever reach a command line, an option
string or a shell: a header named ``-oprecious.h`` is not an option, and a folder named
```touch x``` is not expanded by nvcc, which runs its sub-steps through ``sh``. Libraries
working in-process (cffi, NVRTC, PoCL) get ``<tmp>`` joined with those paths.
``CompileFolder.readable`` maps the temporary paths in compiler output back to the user's.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import UsageError

__all__ = ["HeaderSet", "CompileFolder", "read_header", "check_header_name", "define_line", "shown",
           "MAX_HEADER_BYTES"]

#: A header larger than this is refused: compilers handle the 95 MB conformance header, and
#: nothing written by hand comes close.
MAX_HEADER_BYTES = 256 << 20

HEADERS_DIR = "headers"


def shown(path: str) -> str:
    """``path`` for a one-line message: control characters (a newline…) escaped."""
    return path if path.isprintable() else ascii(path)[1:-1]


#: What each trigraph ``??X`` becomes in translation phase 1.
_TRIGRAPHS = {"=": "#", "/": "\\", "'": "^", "(": "[", ")": "]", "!": "|", "<": "{", ">": "}",
              "-": "~"}
_TRIGRAPH = re.compile(r"\?\?[=/'()!<>-]")

_QUOTES = {'"': "a double quote", "'": "a single quote", "\\": "a backslash"}


def check_header_name(path: str) -> None:
    """Refuse a header whose file name cannot be written inside ``#include "…"``.

    C has no escapes in a header name, and leaves ``'``, ``\\`` and ``"`` there undefined;
    a control character (a newline) would end the line. ``UsageError`` says what to rename.
    """
    name = os.path.basename(path)
    trigraph = _TRIGRAPH.search(name)
    if trigraph:
        # Trigraphs are replaced before anything else (C11 and C++11, as verify compiles):
        # ``#include "p??-.h"`` includes ``p~.h``, some other file, whose layout would then
        # be checked in place of this one. C has no escape for a ``?`` in a header name.
        raise UsageError(f"{shown(path)}: verify cannot compile a header whose file name has "
                         f"the trigraph {trigraph.group()}: the name is written inside "
                         f"#include \"…\", where C and C++ read it as "
                         f"'{_TRIGRAPHS[trigraph.group()[2]]}' and include another file; "
                         f"rename the file")
    for ch in name:
        if ch in _QUOTES or not ch.isprintable():
            if ch in _QUOTES:
                what = _QUOTES[ch]
            elif 0xDC80 <= ord(ch) <= 0xDCFF:
                what = "bytes that are not UTF-8"
            else:
                what = f"the control character {ascii(ch)[1:-1]}"
            raise UsageError(f"{shown(path)}: verify cannot compile a header whose file name "
                             f"has {what}: the name is written inside #include \"…\", where C "
                             f"has no escapes; rename the file")


def read_header(path: str) -> str:
    """The text of the user's header ``path``; ``UsageError`` if it cannot be read as one.

    Opened without blocking and checked to be a regular file before reading, so a FIFO
    or ``/dev/zero`` given as a header is refused instead of waited on or read forever.
    Bytes that are not UTF-8 are kept as they are (``surrogateescape``).
    """
    where = shown(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as e:
        raise UsageError(f"{where}: cannot read the header ({e.strerror})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{where}: cannot read the header (it is a folder)")
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{where}: cannot read the header (not a regular file: a FIFO, "
                             f"socket or device)")
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_HEADER_BYTES:
                raise UsageError(f"{where}: cannot read the header (larger than "
                                 f"{MAX_HEADER_BYTES >> 20} MiB)")
            chunks.append(chunk)
    except OSError as e:
        raise UsageError(f"{where}: cannot read the header ({e.strerror})") from None
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", errors="surrogateescape")


_MACRO_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_,.\s]*\))?")


def define_line(define: str) -> str:
    """``-D NAME[=VALUE]`` as the ``#define`` line cpp makes of it (no value means 1).

    ``UsageError`` for text that is no macro name, or a control character (a newline would
    add lines of its own to the probe source)."""
    name, eq, value = define.partition("=")
    if not _MACRO_NAME.fullmatch(name) or not define.isprintable():
        raise UsageError(f"-D {shown(define)}: not a macro definition (write NAME or "
                         f"NAME=VALUE, on one line)")
    return f"#define {name} {value if eq else '1'}\n"


@dataclass(frozen=True)
class HeaderSet:
    """Headers to compile together: ``files`` (name, text) are written side by side (so
    they can include each other); ``includes`` are the names the probe source includes."""

    files: Tuple[Tuple[str, str], ...]
    includes: Tuple[str, ...]
    #: Folders searched for what the headers include (where a user's own headers live),
    #: absolute.
    search_dirs: Tuple[str, ...] = ()
    #: (name, the path the user gave) for each user header: how messages name it.
    origins: Tuple[Tuple[str, str], ...] = ()
    #: ``-D`` macros (``NAME`` or ``NAME=VALUE``, as cpp takes them), written as ``#define``
    #: lines before the includes: every driver compiles ``include_lines()``, so none of their
    #: many command-line spellings (cffi, NVRTC, PoCL options) needs to learn them.
    defines: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # The last line of defence: whatever built this set, no name may inject lines.
        for name, _ in self.files:
            check_header_name(name)
            if name in ("", ".", "..") or "/" in name:
                raise UsageError(f"{shown(name)}: not a header file name")
        for name in self.includes:
            check_header_name(name)
        for define in self.defines:
            define_line(define)

    @classmethod
    def from_paths(cls, paths: Sequence[str], include_dirs: Sequence[str] = (),
                   defines: Sequence[str] = ()) -> "HeaderSet":
        """The user's headers, read once. Includes are searched for in ``include_dirs``
        (``-I``) and then the headers' own folders, as ``import-c`` reads headers
        (``frontends.c.namespace``); ``defines`` are ``-D`` macros."""
        files = []
        for path in paths:
            check_header_name(path)
            files.append((os.path.basename(path), read_header(path)))
        names = [n for n, _ in files]
        if len(set(names)) != len(names):
            raise UsageError("two --header files have the same name; give each header once")
        dirs = tuple(dict.fromkeys([os.path.abspath(d) for d in include_dirs]
                                   + [os.path.dirname(os.path.abspath(p)) for p in paths]))
        return cls(tuple(files), tuple(names), dirs, tuple(zip(names, paths)), tuple(defines))

    def include_lines(self) -> str:
        return ("".join(define_line(d) for d in self.defines)
                + "".join(f'#include "{name}"\n' for name in self.includes))

    def origin(self, name: str) -> str:
        """How messages name header ``name``: the user's path, or the generated name."""
        return self._origin_of.get(name, name)

    @functools.cached_property
    def _origin_of(self) -> Dict[str, str]:
        # Once per set: ``origin`` is asked for every header of the set, and rebuilding the
        # dict each time made naming N headers quadratic (issue 24's files dimension).
        return dict(self.origins)


class CompileFolder:
    """A temporary folder laid out for one compile (see the module docstring).

    ``with CompileFolder(headers, "sarek-verify-gcc-") as folder:`` writes the headers and
    links the search folders; leaving the block removes it (the links, not their targets).
    """

    def __init__(self, headers: HeaderSet, prefix: str = "sarek-verify-") -> None:
        self.headers = headers
        self.prefix = prefix
        self.path = ""
        self._cached: Optional[tuple] = None  # see _replacements

    def __enter__(self) -> "CompileFolder":
        self.path = tempfile.mkdtemp(prefix=self.prefix)
        try:
            self._lay_out()
        except BaseException:
            shutil.rmtree(self.path, ignore_errors=True)
            raise
        return self

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def _lay_out(self) -> None:
        os.mkdir(os.path.join(self.path, HEADERS_DIR))
        for name, text in self.headers.files:
            with open(os.path.join(self.path, HEADERS_DIR, name), "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                f.write(text)
        for i, d in enumerate(self.headers.search_dirs):
            os.symlink(d, os.path.join(self.path, f"dir{i}"))

    @property
    def include_dirs(self) -> List[str]:
        """The folders to search, relative to ``path``: the headers, then each ``dirN``."""
        return [HEADERS_DIR] + [f"dir{i}" for i in range(len(self.headers.search_dirs))]

    def include_flags(self) -> List[str]:
        """``-Iheaders -Idir0 …``, for compilers run with ``path`` as working folder."""
        return [f"-I{d}" for d in self.include_dirs]

    def absolute(self, relative: str) -> str:
        return os.path.join(self.path, relative)

    def header(self, name: str) -> str:
        """Where header ``name`` was written, relative to ``path``."""
        return f"{HEADERS_DIR}/{name}"

    def readable(self, text: str) -> str:
        """``text`` with this folder's paths replaced by the user's (or just the file name)."""
        replacements, pattern = self._replacements()
        if pattern is not None:
            text = pattern.sub(lambda m: replacements[m.group(1)], text)
        return text.replace(self.path + "/", "")

    def _replacements(self) -> Tuple[Dict[str, str], Optional["re.Pattern[str]"]]:
        """The paths ``readable`` replaces and the pattern that finds them: built once per
        folder, since ``readable`` runs for every source position the structure check
        names (rebuilding them each time was quadratic in the number of headers)."""
        key = (self.path, id(self.headers))
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1], self._cached[2]
        replacements: Dict[str, str] = {}
        for name, _ in self.headers.files:
            replacements[f"{HEADERS_DIR}/{name}"] = shown(self.headers.origin(name))
        for i, d in enumerate(self.headers.search_dirs):
            replacements[f"dir{i}/"] = shown(self._shown_dir(d)) + "/"
        pattern = None
        if replacements:
            alternatives = "|".join(re.escape(k) for k in sorted(replacements, key=len,
                                                                 reverse=True))
            # A temporary path, absolute or relative, not inside some other path.
            pattern = re.compile(rf"(?:{re.escape(self.path)}/|(?<![\w./-]))({alternatives})")
        self._cached = (key, replacements, pattern)
        return replacements, pattern

    def _shown_dir(self, absolute_dir: str) -> str:
        for _, path in self.headers.origins:
            if os.path.dirname(os.path.abspath(path)) == absolute_dir:
                return os.path.dirname(path) or "."
        return absolute_dir


#: What an option string split at spaces (PoCL's build options) can hold unharmed.
PLAIN_PATH = re.compile(r"[A-Za-z0-9_./+-]+\Z")
