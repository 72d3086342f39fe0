"""The debug sections of one ELF image, read within limits, for ``verify.dwarf``.

pyelftools' own loader is not used for files from anyone: it sizes a GNU ``.zdebug_*``
section by its compressed bytes and inflates it without bound (a 3 MB file, 3 GB of memory),
looks only for ``.zdebug_*`` names once one exists (``gcc -gz=zlib-gnu`` leaves its small
sections, ``.debug_abbrev`` among them, uncompressed), and applies a ``.rela.zdebug_*``
section to the compressed bytes instead of the inflated ones. Here every section is found
under either name, its size counted as inflated (the size its header states) against
``MAX_DEBUG_BYTES`` before anything is inflated, inflated to at most that size, and then
relocated. Only the sections the DIE reader needs are loaded (not line tables, frames or
``.eh_frame``).

``bounded_numbers()`` makes pyelftools' LEB128 decoders refuse a number past 64 bits
(``NumberTooLarge``) as soon as its bytes show it, in constant work per byte: the stock
decoders OR each 7-bit group into an ever larger int, which is quadratic in the number's
length (a 900 KB ``DW_FORM_udata``: 60 s) and yields numbers no message can print.
"""

from __future__ import annotations

import io
import threading
import zlib
from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional, Sequence

__all__ = ["MAX_DEBUG_BYTES", "NumberTooLarge", "bounded_numbers", "uleb128", "debug_size",
           "dwarf_info"]

#: Largest total of debug sections read from one ELF image (decompressed).
MAX_DEBUG_BYTES = 512 * 1024 * 1024

#: Bits a LEB128 number may carry before any further group must be padding. Values are
#: then checked against 64 bits (signed ones may be anything from -2**63 to 2**64 - 1, as
#: producers store unsigned values in DW_FORM_sdata too).
_KEPT_BITS = 70

#: What the DIE reader needs (strings, string offsets, addresses and list tables are read
#: while attributes are decoded), by pyelftools' argument names.
_NEEDED = {"info": "debug_info_sec", "abbrev": "debug_abbrev_sec", "str": "debug_str_sec",
           "line_str": "debug_line_str_sec", "str_offsets": "debug_str_offsets_sec",
           "addr": "debug_addr_sec", "loclists": "debug_loclists_sec",
           "rnglists": "debug_rnglists_sec", "types": "debug_types_sec"}
_UNUSED = ("debug_aranges_sec", "debug_frame_sec", "eh_frame_sec", "debug_loc_sec",
           "debug_ranges_sec", "debug_line_sec", "debug_pubtypes_sec", "debug_pubnames_sec",
           "debug_sup_sec", "gnu_debugaltlink_sec")
#: Sections counted against MAX_DEBUG_BYTES (relocations are applied in memory too).
_COUNTED = (".debug", ".zdebug", ".eh_frame", ".rela.debug", ".rel.debug", ".rela.zdebug",
            ".rel.zdebug")
_GNU_HEADER = 12  # "ZLIB" and the inflated size, 8 bytes big-endian


class NumberTooLarge(Exception):
    """A DWARF number of more than 64 bits (not a ``ConstructError``, so that construct's
    repeaters pass it on instead of retrying)."""

    def __init__(self, where: Optional[int] = None) -> None:
        super().__init__(where)
        self.where = where


class SectionError(Exception):
    """A debug section that cannot be read (its message completes ``LABEL: ``)."""


# --- LEB128 ----------------------------------------------------------------------------------


def uleb128(data: Sequence[int], start: int = 0) -> Optional[int]:
    """The ULEB128 at ``data[start:]`` (a sequence of byte values), None if it never ends;
    ``NumberTooLarge`` past 64 bits, in constant work per byte."""
    value = shift = 0
    for i in range(start, len(data)):
        byte = data[i]
        if shift < _KEPT_BITS:
            value |= (byte & 0x7F) << shift
        elif byte & 0x7F:
            raise NumberTooLarge()
        shift += 7
        if not byte & 0x80:
            if value >> 64:
                raise NumberTooLarge()
            return value
    return None


def _truncated(what: str):
    from elftools.construct import FieldError

    return FieldError(f"unexpected end of stream while parsing a {what} encoded value")


def _parse_uleb128(self, stream, context) -> int:
    # The groups that can carry bits are read at once, then the stream is put back after
    # the number's last byte; only a longer number (padding, or too large) reads on.
    data = stream.read(_KEPT_BITS // 7)
    value = shift = 0
    for i, byte in enumerate(data):
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            stream.seek(i + 1 - len(data), 1)
            if value >> 64:
                raise NumberTooLarge(stream.tell())
            return value
    if shift < _KEPT_BITS:
        raise _truncated("ULEB128")
    while True:
        data = stream.read(1)
        if len(data) != 1:
            raise _truncated("ULEB128")
        if data[0] & 0x7F:
            raise NumberTooLarge(stream.tell())
        shift += 7
        if not data[0] & 0x80:
            if value >> 64:
                raise NumberTooLarge(stream.tell())
            return value


def _parse_sleb128(self, stream, context) -> int:
    data = stream.read(_KEPT_BITS // 7)
    value = shift = 0
    for i, byte in enumerate(data):
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            stream.seek(i + 1 - len(data), 1)
            break
    else:
        if shift < _KEPT_BITS:
            raise _truncated("SLEB128")
        padding = 0x7F if value >> (_KEPT_BITS - 1) & 1 else 0  # the sign, repeated
        while True:
            data = stream.read(1)
            if len(data) != 1:
                raise _truncated("SLEB128")
            byte = data[0]
            if byte & 0x7F != padding:
                raise NumberTooLarge(stream.tell())
            if not byte & 0x80:
                break
    if byte & 0x40:
        value -= 1 << min(shift, _KEPT_BITS)
    if not -(1 << 63) <= value < 1 << 64:
        raise NumberTooLarge(stream.tell())
    return value


_patch_lock = threading.Lock()
_patch_depth = 0
_stock: List = []


@contextmanager
def bounded_numbers() -> Iterator[None]:
    """While inside, pyelftools decodes LEB128 numbers with the bounded decoders above
    (the stock ones are put back when the last reader leaves)."""
    global _patch_depth
    from elftools.common.construct_utils import SLEB128, ULEB128

    with _patch_lock:
        if _patch_depth == 0:
            _stock[:] = [ULEB128._parse, SLEB128._parse]
            setattr(ULEB128, "_parse", _parse_uleb128)
            setattr(SLEB128, "_parse", _parse_sleb128)
        _patch_depth += 1
    try:
        yield
    finally:
        with _patch_lock:
            _patch_depth -= 1
            if _patch_depth == 0:
                setattr(ULEB128, "_parse", _stock[0])
                setattr(SLEB128, "_parse", _stock[1])


# --- sections --------------------------------------------------------------------------------


def _gnu_stated_size(elf, section) -> int:
    """The inflated size a ``.zdebug_*`` section's header states."""
    if section["sh_size"] < _GNU_HEADER:
        raise SectionError(f"malformed ELF (compressed section {section.name} is too short)")
    elf.stream.seek(section["sh_offset"])
    head = elf.stream.read(_GNU_HEADER)
    if len(head) != _GNU_HEADER or head[:4] != b"ZLIB":
        raise SectionError(f"malformed ELF (compressed section {section.name} does not start "
                           f"with ZLIB and its size)")
    return int.from_bytes(head[4:], "big")


def debug_size(elf) -> int:
    """Bytes the debug sections take once inflated (what reading them would hold)."""
    total = 0
    for section in elf.iter_sections():
        name = section.name
        if name.startswith(_COUNTED):
            # SHF_COMPRESSED sections state their inflated size (data_size); GNU ones in
            # their first bytes.
            total += _gnu_stated_size(elf, section) if name.startswith(".zdebug") \
                else section.data_size
    return total


def _inflate_gnu(elf, section) -> bytes:
    size = _gnu_stated_size(elf, section)
    elf.stream.seek(section["sh_offset"] + _GNU_HEADER)
    packed = elf.stream.read(section["sh_size"] - _GNU_HEADER)
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(packed, size + 1)  # one more shows a stream too long
    except zlib.error as e:
        raise SectionError(f"malformed ELF (compressed section {section.name}: {e})") from None
    if len(data) > size:
        raise SectionError(f"malformed ELF (compressed section {section.name} inflates past "
                           f"the {size:,} bytes it states)")
    if len(data) < size or not inflater.eof:
        raise SectionError(f"malformed ELF (compressed section {section.name} inflates to "
                           f"fewer than the {size:,} bytes it states)")
    return data


def _section_data(elf, section) -> bytes:
    if section.name.startswith(".zdebug"):
        return _inflate_gnu(elf, section)
    if section.compressed and section._compression_type != "ELFCOMPRESS_ZLIB":
        raise SectionError(f"debug section {section.name} is compressed with "
                           f"{section._compression_type}, which is not read here (build with "
                           f"-gz=zlib or -gz=none)")
    return section.data()  # SHF_COMPRESSED: inflated to at most the stated size


def _load(elf, section):
    from elftools.dwarf.dwarfinfo import DebugSectionDescriptor
    from elftools.elf.relocation import RelocationHandler

    data = _section_data(elf, section)
    phantom = elf.has_phantom_bytes()
    stream = io.BytesIO(data[::2] if phantom else data)
    handler = RelocationHandler(elf)
    relocations = handler.find_relocations_for_section(section)
    if relocations is not None:
        if phantom:
            raise SectionError(f"relocations of {section.name} in a file with phantom bytes "
                               f"are not read")
        handler.apply_section_relocations(stream, relocations)  # on the inflated bytes
    return DebugSectionDescriptor(stream=stream, name=section.name,
                                  global_offset=section["sh_offset"],
                                  size=len(stream.getbuffer()), address=section["sh_addr"])


def dwarf_info(elf):
    """A pyelftools ``DWARFInfo`` of ``elf``'s debug sections (``.debug_X`` or ``.zdebug_X``),
    read as the module docstring says. The caller checked ``debug_size`` first."""
    from elftools.dwarf.dwarfinfo import DwarfConfig, DWARFInfo

    by_name = {}
    for section in elf.iter_sections():
        by_name.setdefault(section.name, section)
    sections: Dict[str, object] = dict.fromkeys(_UNUSED)
    for short, argument in _NEEDED.items():
        section = by_name.get(f".debug_{short}") or by_name.get(f".zdebug_{short}")
        sections[argument] = _load(elf, section) if section is not None else None
    config = DwarfConfig(little_endian=elf.little_endian,
                         default_address_size=elf.elfclass // 8,
                         machine_arch=elf.get_machine_arch())
    return DWARFInfo(config=config, **sections)
