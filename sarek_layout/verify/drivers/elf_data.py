"""The bytes of named data symbols in a relocatable ELF object (``rustc --emit=obj``'s).

The rustc driver writes one array of probe values per probed type instead of one sized
symbol per value (rustc spends about 0.5 ms on each static item; a symbol size carries one
number, an array hundreds), so it needs the symbols' contents, not only their sizes. An
object file is small and its own (not anyone's), but it is read within bounds all the same:
every offset is checked against the file's length. ELF32 and ELF64, either byte order; a
``SHT_NOBITS`` section (``.bss``: an all-zero array may land there) reads as zeros.
"""

from __future__ import annotations

import struct
from typing import Dict

__all__ = ["ElfDataError", "symbol_contents"]

_SHT_SYMTAB = 2
_SHT_NOBITS = 8
_SHN_LORESERVE = 0xFF00


class ElfDataError(Exception):
    """The file is no ELF object this reader understands, or a symbol points outside it."""


def _slice(data: bytes, start: int, length: int, what: str) -> bytes:
    if start < 0 or length < 0 or start + length > len(data):
        raise ElfDataError(f"{what} lies outside the file")
    return data[start:start + length]


def symbol_contents(data: bytes, prefix: str) -> Dict[str, bytes]:
    """``{name: bytes}`` of every defined symbol whose name starts with ``prefix``."""
    if data[:4] != b"\x7fELF" or len(data) < 64:
        raise ElfDataError("not an ELF file")
    wide = {1: False, 2: True}.get(data[4])
    order = {1: "<", 2: ">"}.get(data[5])
    if wide is None or order is None:
        raise ElfDataError("unknown ELF class or byte order")
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
        section = order + "IIQQQQIIQQ"
        symbol, symsize = order + "IBBHQQ", 24
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
        section = order + "IIIIIIIIII"
        symbol, symsize = order + "IIIBBH", 16
    if shentsize < struct.calcsize(section):
        raise ElfDataError("section headers too short")
    headers = []
    for i in range(shnum):
        raw = _slice(data, shoff + i * shentsize, struct.calcsize(section), "a section header")
        _, sh_type, _, _, offset, size, link, _, _, _ = struct.unpack(section, raw)
        headers.append((sh_type, offset, size, link))
    found: Dict[str, bytes] = {}
    for sh_type, offset, size, link in headers:
        if sh_type != _SHT_SYMTAB or link >= len(headers):
            continue
        table = _slice(data, offset, size, "the symbol table")
        _, str_offset, str_size, _ = headers[link]
        strings = _slice(data, str_offset, str_size, "the string table")
        wanted = prefix.encode()
        for start in range(0, len(table) - symsize + 1, symsize):
            fields = struct.unpack_from(symbol, table, start)
            if wide:
                name_at, _, _, shndx, value, length = fields
            else:
                name_at, value, length, _, _, shndx = fields
            end = strings.find(b"\0", name_at)
            name = strings[name_at:end if end >= 0 else len(strings)]
            if not name.startswith(wanted) or shndx == 0 or shndx >= _SHN_LORESERVE:
                continue
            if shndx >= len(headers):
                raise ElfDataError(f"symbol {name.decode(errors='replace')} names no section")
            s_type, s_offset, s_size, _ = headers[shndx]
            if value + length > s_size:
                raise ElfDataError(f"symbol {name.decode(errors='replace')} overruns its section")
            found[name.decode()] = (bytes(length) if s_type == _SHT_NOBITS
                                    else _slice(data, s_offset + value, length, "a symbol"))
    return found
