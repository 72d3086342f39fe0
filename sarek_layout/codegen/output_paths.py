"""Whether a command may write its output paths: one decision, made before anything is written.

Every command that writes files (``generate``: headers, Python modules and the depfile;
``explain``: the SVG picture and the HTML page; ``import-c -o``: schema files) hands all its
output paths and all its input paths to ``check_outputs`` *before* it reads an old output to
compare or writes anything, and that refuses (``UsageError``: exit 2, one line naming both
paths, nothing written):

* an output that is the same file as an input, or as another output. An output is compared
  with the inputs by device and inode (``os.stat``), not by spelling, so ``./x``, ``a/../x``,
  a symbolic link, a hard link or a folder reached through a link are all seen to be the
  same file. Outputs are compared with each other by resolved path: a concurrent run into
  the same folder is replacing them, and an inode it freed can reappear at another output;
* an output that exists but is not a regular file: a FIFO would block the run forever, a
  device could be read without end (``/dev/zero``) or act when opened; a folder is refused
  with a message instead of a failed rename;
* an output whose folder cannot exist (a regular file on its path) or, when the command is
  about to write, cannot be written, or a name the write would create (a folder, the output,
  its temporary file) longer than the file system allows (NAME_MAX, PATH_MAX);
* a symbolic link to nothing (the writer writes through a link, never over it);
* an output the user named (``--depfile``, ``--svg``, ``--html``) whose name ends like a
  schema file's: ``explain --svg a.toml b.toml`` forgot the picture's name, and would
  otherwise draw it over ``a.toml``.

``read_existing`` is how every command reads an old output back, and it never opens what is
not a regular file. ``printable`` spells a user-supplied path for a one-line message (and
for the SVG/HTML pictures): control characters and undecodable bytes as escapes.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

from ..errors import UsageError

__all__ = ["Output", "check_outputs", "read_existing", "printable"]


@dataclass(frozen=True)
class Output:
    """One file a command is about to write."""

    path: str
    #: What it is, for messages: ``header``, ``Python module``, ``dependency file``…
    role: str
    #: The option that named it (``--svg``) when the user chose the name, else ``None``.
    option: Optional[str] = None


def printable(text: str) -> str:
    """``text`` as typed when every character prints, else with escapes: ``\\n``, ``\\x01``
    for control characters, ``\\xff`` for a byte that is not UTF-8 (a surrogate escape).

    The result is one line, prints in any encoding that has the original's visible
    characters, and holds only characters XML allows.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if ch.isprintable():
            out.append(ch)
        elif 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's spelling of an undecodable byte
            out.append(f"\\x{code - 0xDC00:02x}")
        else:
            out.append(ascii(ch)[1:-1])
    return "".join(out)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _not_regular(role: str, path: str, mode: int) -> UsageError:
    return UsageError(
        f"refusing to write the {role} as {printable(path)}: it is a {_kind(mode)}, not a regular "
        f"file (only regular files are read back or replaced)"
    )


def _stat(role: str, path: str) -> Optional[os.stat_result]:
    """``os.stat(path)`` following links; ``None`` when nothing is there (yet)."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            # Written through (writer), a dangling link would create a file wherever it
            # points; replaced, it would stop being the link someone made.
            raise UsageError(
                f"refusing to write the {role} as {printable(path)}: it is a symbolic link to a "
                f"file that does not exist (make the file, or remove the link)"
            ) from None
        return None  # absent
    except NotADirectoryError:
        raise UsageError(
            f"cannot write the {role} as {printable(path)}: a name on its path is a file, not a folder"
        ) from None
    except OSError as e:
        raise UsageError(f"cannot write the {role} as {printable(path)}: {e.strerror or e}") from None


def _nearest_folder(path: str) -> str:
    """The deepest existing folder above ``path`` (where the write will create what is missing)."""
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folder


def _check_folder(out: Output, checked: Dict[str, None]) -> None:
    """The folder that will hold ``out`` (or the deepest one that exists) must be writable."""
    folder = _nearest_folder(out.path)
    if folder in checked:
        return
    checked[folder] = None
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(
            f"cannot write the {out.role} as {printable(out.path)}: the folder {printable(folder)} "
            f"is not writable"
        )


#: Bytes the writer's temporary name adds to an output's name: ``.<name>.<8 random>.tmp``.
TEMPORARY_EXTRA = len(".") + len(".12345678.tmp")


def _check_lengths(out: Output) -> None:
    """Every name the write will create (missing folders, the output, its temporary file) fits
    the file system's NAME_MAX, and the temporary file's path its PATH_MAX: found before the
    first file is written, not as an ENAMETOOLONG after some of them are."""
    folder = _nearest_folder(out.path)
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
        path_max = os.pathconf(folder, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        return  # no limits to ask for (or no such folder): the write reports what it meets
    path = os.fsencode(out.path)
    names = [n for n in os.fsencode(os.path.relpath(os.path.abspath(out.path), folder)).split(b"/")]
    names[-1] = names[-1] + b"x" * TEMPORARY_EXTRA
    longest = max(names, key=len)
    if len(longest) > name_max:
        raise UsageError(
            f"cannot write the {out.role} as {printable(out.path)}: a name on its path (with the "
            f"temporary file's {TEMPORARY_EXTRA} extra bytes) would be {len(longest)} bytes, "
            f"and the file system allows {name_max}; use a shorter name"
        )
    if len(path) + TEMPORARY_EXTRA >= path_max:
        raise UsageError(
            f"cannot write the {out.role} as {printable(out.path)}: its path (with the temporary "
            f"file's {TEMPORARY_EXTRA} extra bytes) would be {len(path) + TEMPORARY_EXTRA} "
            f"bytes, and the system allows {path_max - 1}; use a shorter path"
        )


def check_outputs(outputs: Sequence[Output], inputs: Sequence[str], *, writing: bool) -> None:
    """Refuse (``UsageError``) any output that is unsafe to read back or to write; see the
    module docs. ``writing``: the command will write (not ``--check``), so the folders must
    be writable too. Reads nothing, writes nothing; linear in the number of paths."""
    # A file's identity: its device and inode when it exists, else its resolved path.
    owners: Dict[Tuple[object, ...], Tuple[str, str]] = {}
    for path in inputs:
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            continue  # the readers have reported it already, or will
        owners.setdefault(("inode", found.st_dev, found.st_ino), ("input", path))

    # A name a user gave (--svg FILE) must not read as a schema file: the readers' suffixes.
    from ..frontends import READERS

    schema_suffixes = tuple(READERS)
    folders: Dict[str, None] = {}
    for out in outputs:
        st = _stat(out.role, out.path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise _not_regular(out.role, out.path, st.st_mode)
        # Outputs are told apart by resolved path, never by inode: a concurrent run into the
        # same folder replaces them meanwhile, and the inode its rename freed can come back
        # as its next temporary file, renamed to the next output: the same inode, seen at
        # two outputs, was refused as "the same file" (issue #25). Two outputs hard-linked
        # to each other are harmless anyway: each is replaced by a rename. Against the
        # inputs, which no run replaces, the inode is what tells a link or a spelling apart.
        identity: Tuple[object, ...] = ("path", os.path.normcase(os.path.realpath(out.path)))
        hit = owners.get(("inode", st.st_dev, st.st_ino)) if st is not None else None
        if hit is None:
            hit = owners.get(identity)
        if hit is not None:
            what, other = hit
            if what == "input":
                raise UsageError(
                    f"refusing to write the {out.role} as {printable(out.path)}: it is the input "
                    f"{printable(other)} (the same file); write the output somewhere else"
                )
            raise UsageError(
                f"refusing to write the {out.role} as {printable(out.path)}: it is the same file "
                f"as the {what} ({printable(other)}); give each output its own name"
            )
        owners[identity] = (out.role, out.path)
        if out.option is not None and out.path.lower().endswith(schema_suffixes):
            raise UsageError(
                f"refusing to write the {out.role} as {printable(out.path)}: a name ending in "
                f"{os.path.splitext(out.path)[1]} is a schema file's; give {out.option} a file "
                f"name of its own (was it left out before the schema files?)"
            )
        if writing:
            _check_folder(out, folders)
            _check_lengths(out)


def read_existing(path: str) -> Optional[bytes]:
    """The bytes of an existing output, or ``None`` when there is none.

    Never opens anything but a regular file (checked before opening, and again on the open
    descriptor, which is opened non-blocking so that a FIFO swapped in meanwhile cannot hang
    the run): a FIFO, device or folder is refused with ``UsageError``, and so is a file that
    cannot be read.
    """
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular("output", path, st.st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
        with open(fd, "rb") as f:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise _not_regular("output", path, mode)
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read {printable(path)}: {e.strerror or e}") from None
