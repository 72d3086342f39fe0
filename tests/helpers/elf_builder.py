"""A tiny writer of ELF relocatable objects with hand-made DWARF, for hostile-object tests.

Real compilers never emit a 3,000-byte ULEB128 or 90,000 array dimensions, so the tests
that need them write the object themselves: ``DebugInfo`` assembles one DWARF 4 compile unit
(``.debug_abbrev`` and ``.debug_info``, names inline as ``DW_FORM_string``, so no relocation
is needed) and ``elf_object`` lays sections out in an x86-64 ``ET_REL`` file that readelf and
pyelftools read. ``zdebug`` packs a section as GNU ``.zdebug_*`` (``ZLIB`` + size + zlib).
"""

from __future__ import annotations

import struct
import zlib
from typing import Dict, Optional, Tuple

# DWARF numbers used here (DWARF 4, section 7).
TAG_COMPILE_UNIT, TAG_STRUCT, TAG_MEMBER, TAG_BASE = 0x11, 0x13, 0x0D, 0x24
TAG_ARRAY, TAG_SUBRANGE, TAG_SUBPROGRAM, TAG_VARIABLE = 0x01, 0x21, 0x2E, 0x34
TAG_LEXICAL_BLOCK = 0x0B
AT_NAME, AT_BYTE_SIZE, AT_ENCODING, AT_TYPE = 0x03, 0x0B, 0x3E, 0x49
AT_LOCATION, AT_COUNT = 0x38, 0x37
FORM_STRING, FORM_DATA1, FORM_UDATA, FORM_REF4, FORM_EXPRLOC = 0x08, 0x0B, 0x0F, 0x13, 0x18
ATE_FLOAT = 4
OP_PLUS_UCONST = 0x23


def uleb(value: int, pad_to: int = 0) -> bytes:
    """``value`` as ULEB128; ``pad_to`` bytes at least (redundant 0x80 groups, as a linker's
    fixed-size fields)."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value or len(out) + 1 < pad_to:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def long_uleb(groups: int) -> bytes:
    """A ULEB128 of ``groups`` bytes whose every group is 0x7F (a number of 7*groups bits),
    built without making that number."""
    return b"\xff" * (groups - 1) + b"\x7f"


def string(text: str) -> bytes:
    return text.encode() + b"\0"


class DebugInfo:
    """One DWARF 4 compile unit built DIE by DIE; offsets returned are unit-relative (what
    ``DW_FORM_ref4`` holds)."""

    HEADER = 11  # unit_length 4, version 2, debug_abbrev_offset 4, address_size 1

    def __init__(self) -> None:
        self._abbrevs: Dict[Tuple[int, bool, Tuple[Tuple[int, int], ...]], int] = {}
        self._abbrev_bytes = bytearray()
        self._body = bytearray()

    def abbrev(self, tag: int, children: bool, *attrs: Tuple[int, int]) -> int:
        key = (tag, children, tuple(attrs))
        if key not in self._abbrevs:
            code = len(self._abbrevs) + 1
            self._abbrevs[key] = code
            self._abbrev_bytes += uleb(code) + uleb(tag) + bytes([1 if children else 0])
            for name, form in attrs:
                self._abbrev_bytes += uleb(name) + uleb(form)
            self._abbrev_bytes += b"\0\0"
        return self._abbrevs[key]

    def offset(self) -> int:
        """Where the next DIE will start."""
        return self.HEADER + len(self._body)

    def die(self, tag: int, children: bool, *attrs: Tuple[int, int, bytes]) -> int:
        """A DIE of ``(attribute, form, encoded value)``s; returns its offset."""
        at = self.offset()
        code = self.abbrev(tag, children, *((a, f) for a, f, _ in attrs))
        self._body += uleb(code) + b"".join(v for _, _, v in attrs)
        return at

    def raw(self, data: bytes) -> None:
        """Bytes appended as they are (DIEs repeated by the thousand, made once)."""
        self._body += data

    def end_children(self) -> None:
        self._body.append(0)

    def sections(self) -> Dict[str, bytes]:
        """The unit (its top DIE's children closed) as ``.debug_abbrev`` and ``.debug_info``."""
        body = bytes(self._body) + b"\0"
        header = struct.pack("<IHIB", len(body) + 7, 4, 0, 8)
        return {".debug_abbrev": bytes(self._abbrev_bytes) + b"\0", ".debug_info": header + body}


def ref4(offset: int) -> bytes:
    return struct.pack("<I", offset)


def point_unit(byte_size: bytes = b"", member_location: Optional[bytes] = None,
               x_type: str = "float") -> DebugInfo:
    """A unit defining ``struct Geometry_point { float x; float y; }`` (the example's), with
    optional hostile pieces: the struct's ``DW_AT_byte_size`` as given (ULEB128 bytes), or
    ``x``'s location as a ``DW_OP_plus_uconst`` expression of ``member_location``."""
    d = DebugInfo()
    d.die(TAG_COMPILE_UNIT, True, (AT_NAME, FORM_STRING, string("hostile.c")))
    flt = d.die(TAG_BASE, False, (AT_NAME, FORM_STRING, string("float")),
                (AT_BYTE_SIZE, FORM_DATA1, b"\x04"), (AT_ENCODING, FORM_DATA1, bytes([ATE_FLOAT])))
    d.die(TAG_STRUCT, True, (AT_NAME, FORM_STRING, string("Geometry_point")),
          (AT_BYTE_SIZE, FORM_UDATA, byte_size or uleb(8)))
    if member_location is None:
        d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string("x")),
              (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_UDATA, uleb(0)))
    else:
        expr = bytes([OP_PLUS_UCONST]) + member_location
        d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string("x")),
              (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_EXPRLOC, uleb(len(expr)) + expr))
    d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string("y")),
          (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_UDATA, uleb(4)))
    d.end_children()  # the struct's members
    return d


def zdebug(name: str, data: bytes, claimed: Optional[int] = None,
           zeros_mib: int = 0) -> Tuple[str, bytes]:
    """``(".zdebug_…", contents)``: GNU compressed debug section of ``data`` followed by
    ``zeros_mib`` MiB of zero bytes, stating ``claimed`` bytes (default: the true size).

    The zeros are a bomb: each MiB is compressed once after a full flush (which makes its
    deflate blocks independent of what came before) and repeated, with the Adler-32 of the
    whole computed apart, so a 600 MiB one takes milliseconds to build."""
    c = zlib.compressobj(9)
    head = c.compress(data) + c.flush(zlib.Z_FULL_FLUSH)
    mib = bytes(1 << 20)
    block = c.compress(mib) + c.flush(zlib.Z_FULL_FLUSH) if zeros_mib else b""
    tail = c.flush()[:-4]  # the final empty block, less the checksum of what c saw
    check = zlib.adler32(data)
    for _ in range(zeros_mib):
        check = zlib.adler32(mib, check)
    size = len(data) + (zeros_mib << 20)
    stated = size if claimed is None else claimed
    return ".z" + name[1:], (b"ZLIB" + struct.pack(">Q", stated) + head + block * zeros_mib
                             + tail + struct.pack(">I", check))


def elf_object(sections: Dict[str, bytes]) -> bytes:
    """An x86-64 little-endian ``ET_REL`` ELF file holding ``sections`` (PROGBITS, in order)
    and its section-name table."""
    names = bytearray(b"\0")
    entries = []  # (name offset, type, data)
    for name, data in sections.items():
        entries.append((len(names), 1, data))
        names += name.encode() + b"\0"
    entries.append((len(names), 3, None))
    names += b".shstrtab\0"
    out = bytearray(64)
    headers = [bytes(64)]  # the null section
    for name_off, sh_type, data in entries:
        data = bytes(names) if data is None else data
        offset = len(out)
        out += data
        headers.append(struct.pack("<IIQQQQIIQQ", name_off, sh_type, 0, 0, offset, len(data),
                                   0, 0, 1, 0))
    while len(out) % 8:
        out.append(0)
    shoff = len(out)
    for h in headers:
        out += h
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    out[:64] = ident + struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64,
                                   len(headers), len(headers) - 1)
    return bytes(out)


# --- the hostile objects of issue 25 ---------------------------------------------------------


def huge_byte_size(groups: int = 3000) -> bytes:
    """``Geometry_point``'s size a ULEB128 of ``groups`` bytes (7 * groups bits)."""
    return elf_object(point_unit(byte_size=long_uleb(groups)).sections())


def long_member_location(groups: int) -> bytes:
    """``x`` at ``DW_OP_plus_uconst`` of a ULEB128 of ``groups`` bytes."""
    return elf_object(point_unit(member_location=long_uleb(groups)).sections())


def many_subranges(count: int, each: int = 1 << 62) -> bytes:
    """``x`` an array of floats with ``count`` dimensions of ``each`` elements."""
    d = DebugInfo()
    d.die(TAG_COMPILE_UNIT, True, (AT_NAME, FORM_STRING, string("hostile.c")))
    flt = d.die(TAG_BASE, False, (AT_NAME, FORM_STRING, string("float")),
                (AT_BYTE_SIZE, FORM_DATA1, b"\x04"), (AT_ENCODING, FORM_DATA1, bytes([ATE_FLOAT])))
    array = d.die(TAG_ARRAY, True, (AT_TYPE, FORM_REF4, ref4(flt)))
    code = d.abbrev(TAG_SUBRANGE, False, (AT_COUNT, FORM_UDATA))
    d.raw((uleb(code) + uleb(each)) * count)
    d.end_children()
    d.die(TAG_STRUCT, True, (AT_NAME, FORM_STRING, string("Geometry_point")),
          (AT_BYTE_SIZE, FORM_UDATA, uleb(8)))
    d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string("x")),
          (AT_TYPE, FORM_REF4, ref4(array)), (AT_LOCATION, FORM_UDATA, uleb(0)))
    d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string("y")),
          (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_UDATA, uleb(4)))
    d.end_children()
    return elf_object(d.sections())


def function_without_sibling(children: int) -> bytes:
    """A top-level function DIE with ``children`` one-byte children and no
    ``DW_AT_sibling`` (finding what follows means reading them all), then the struct."""
    d = DebugInfo()
    d.die(TAG_COMPILE_UNIT, True, (AT_NAME, FORM_STRING, string("hostile.c")))
    d.die(TAG_SUBPROGRAM, True, (AT_NAME, FORM_STRING, string("f")))
    d.raw(uleb(d.abbrev(TAG_VARIABLE, False)) * children)
    d.end_children()
    flt = d.die(TAG_BASE, False, (AT_NAME, FORM_STRING, string("float")),
                (AT_BYTE_SIZE, FORM_DATA1, b"\x04"), (AT_ENCODING, FORM_DATA1, bytes([ATE_FLOAT])))
    d.die(TAG_STRUCT, True, (AT_NAME, FORM_STRING, string("Geometry_point")),
          (AT_BYTE_SIZE, FORM_UDATA, uleb(8)))
    for name, at in (("x", 0), ("y", 4)):
        d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string(name)),
              (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_UDATA, uleb(at)))
    d.end_children()
    return elf_object(d.sections())


def zdebug_bomb(inflated_mib: int, claimed: Optional[int] = None) -> bytes:
    """Every debug section GNU-compressed; ``.zdebug_info`` is the point unit followed by
    ``inflated_mib`` MiB of zeros (about a thousandth of that compressed), stating
    ``claimed`` bytes."""
    sections = point_unit().sections()
    name, info = zdebug(".debug_info", sections[".debug_info"], claimed, inflated_mib)
    abbrev_name, abbrev = zdebug(".debug_abbrev", sections[".debug_abbrev"])
    return elf_object({abbrev_name: abbrev, name: info})


def nested_without_sibling(depth: int) -> bytes:
    """A top-level function whose body is ``depth`` lexical blocks each inside the last, none
    with ``DW_AT_sibling``, then the struct (finding it means reading them all)."""
    d = DebugInfo()
    d.die(TAG_COMPILE_UNIT, True, (AT_NAME, FORM_STRING, string("hostile.c")))
    d.die(TAG_SUBPROGRAM, True, (AT_NAME, FORM_STRING, string("f")))
    d.raw(uleb(d.abbrev(TAG_LEXICAL_BLOCK, True)) * depth + b"\0" * depth)
    d.end_children()
    flt = d.die(TAG_BASE, False, (AT_NAME, FORM_STRING, string("float")),
                (AT_BYTE_SIZE, FORM_DATA1, b"\x04"), (AT_ENCODING, FORM_DATA1, bytes([ATE_FLOAT])))
    d.die(TAG_STRUCT, True, (AT_NAME, FORM_STRING, string("Geometry_point")),
          (AT_BYTE_SIZE, FORM_UDATA, uleb(8)))
    for name, at in (("x", 0), ("y", 4)):
        d.die(TAG_MEMBER, False, (AT_NAME, FORM_STRING, string(name)),
              (AT_TYPE, FORM_REF4, ref4(flt)), (AT_LOCATION, FORM_UDATA, uleb(at)))
    d.end_children()
    return elf_object(d.sections())
