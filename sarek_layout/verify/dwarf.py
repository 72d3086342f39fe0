"""Reading struct layouts from the DWARF of ELF files, for ``verify --object``.

Objects (``.o``), static libraries (``.a``: every ELF member), shared libraries and
executables, of any ELF machine and byte order (pyelftools applies the relocations of
relocatable objects for x86, x86-64, ARM, AArch64, ppc64, s390x…), DWARF 2 to 5, type units
included. ``read_object(path, names)`` returns, per ELF image, every distinct definition of
the structs named ``names`` (a C name reached as a struct tag or through typedefs), as plain
data: size, alignment (only where DWARF records one: ``DW_AT_alignment``, which compilers
emit for alignment specifiers), and each member's offset, alignment and resolved type. The
members of unions, of anonymous structs and of the structs inside a union (a variant's
``data`` and its arms) are read too.

Only the top-level declarations of each compile unit (and of C++ namespaces) are looked at:
struct definitions live there, and function bodies are skipped through ``DW_AT_sibling``.
Files are hostile input: the debug sections' total size (counted inflated, before anything
is inflated: ``verify.dwarf_sections``), every number (64 bits; larger is malformed), the
number of debugging entries examined (those skipped over to find a next sibling included;
none is kept after) and the length of type chains are bounded, and a malformed file is one
``ObjectError`` line (exit 2), never a traceback or a hang. Names from the file system or an
archive are shown escaped (``object_files.shown_name``), and archives are read there too.

This module knows nothing of schemas; ``verify.objects`` compares what it reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Collection, Dict, Iterator, List, Optional, Tuple

from ..errors import ToolchainMissing
from .dwarf_sections import MAX_DEBUG_BYTES, NumberTooLarge, SectionError, bounded_numbers
from .dwarf_sections import debug_size, dwarf_info, uleb128
from .object_files import AR_MAGIC, THIN_MAGIC, ObjectError, Slice, archive_members, shown_name

__all__ = ["ObjectError", "TypeInfo", "MemberInfo", "StructInfo", "ObjectImage", "read_object",
           "MAX_DEBUG_BYTES", "MAX_ENTRIES", "shown_name"]
#: Most debugging entries examined in one file (top-level declarations, members, type hops).
MAX_ENTRIES = 5_000_000
#: Most section headers and compile units one ELF image may have (a malformed count would
#: otherwise be iterated, or every unit kept in memory, before anything else is checked).
MAX_SECTIONS = 1_000_000
MAX_UNITS = 1_000_000
#: Longest typedef/qualifier chain followed (a cycle in a malformed file stops here).
MAX_CHAIN = 64
#: How deep unions and the structs inside them are opened (variant ``data`` -> arm -> args;
#: an array's wrapped element -> its ``v`` -> a vector struct, a level of each per dimension).
MAX_OPEN_DEPTH = 8
#: Largest array element count or size believed (no address space holds more); past it an
#: array's size is unknown, and the product of its dimensions is not computed further.
MAX_ARRAY = 1 << 64
#: Most enumerators of one enum read (Vulkan's largest enum has about 1,400).
MAX_ENUMERATORS = 100_000
#: DIEs that references resolved recently are kept for reuse, at most this many.
_REF_CACHE = 4096

_ELF_MAGIC = b"\x7fELF"

#: DWARF base type encodings (DW_ATE_*) by the words messages use.
_ENCODINGS = {1: "address", 2: "boolean", 3: "complex float", 4: "float", 5: "signed",
              6: "signed char", 7: "unsigned", 8: "unsigned char", 16: "UTF"}

_TRANSPARENT = {"DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
                "DW_TAG_restrict_type", "DW_TAG_atomic_type", "DW_TAG_immutable_type",
                "DW_TAG_shared_type", "DW_TAG_packed_type"}
_STRUCT_TAGS = {"DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type"}
_KINDS = {"DW_TAG_base_type": "base", "DW_TAG_structure_type": "struct",
          "DW_TAG_class_type": "struct", "DW_TAG_union_type": "union",
          "DW_TAG_enumeration_type": "enum", "DW_TAG_array_type": "array",
          "DW_TAG_pointer_type": "pointer", "DW_TAG_reference_type": "pointer",
          "DW_TAG_rvalue_reference_type": "pointer", "DW_TAG_ptr_to_member_type": "pointer"}


@dataclass(frozen=True)
class TypeInfo:
    """A member's type, through typedefs and qualifiers.

    ``names``: the typedef names met on the way, outermost first, then the struct, union or
    base type's own name (``("int32_t", "__int32_t", "int")``). ``members``: for opened
    unions and structs (see the module docstring), their members.
    """

    kind: str  # base | struct | union | enum | array | pointer | void | other
    size: Optional[int]
    encoding: Optional[str] = None  # base types: signed, unsigned, float, boolean…
    names: Tuple[str, ...] = ()
    members: Tuple["MemberInfo", ...] = ()
    align: Optional[int] = None
    #: An array: each dimension's count (``DW_TAG_subrange_type``, outermost first; through
    #: typedefs of arrays: ``rgba c[2]`` is ``(2, 4)``, ``None`` where not a constant) and
    #: the type its innermost dimension holds (a struct's members read).
    dims: Tuple[Optional[int], ...] = ()
    element: Optional["TypeInfo"] = None
    #: An enum: its enumerators' names and values (``DW_TAG_enumerator``), in order.
    enumerators: Tuple[Tuple[str, int], ...] = ()

    @property
    def spelling(self) -> str:
        """How a person reads it: ``int32_t``, ``struct Geometry_point``, ``anonymous union``."""
        if self.names:
            return self.names[0] if self.kind in ("base", "void") or len(self.names) > 1 \
                else f"{self.kind} {self.names[0]}"
        return f"anonymous {self.kind}"


@dataclass(frozen=True)
class MemberInfo:
    name: str  # "" for an anonymous member
    offset: Optional[int]  # bytes from the start of the enclosing struct or union
    type: TypeInfo
    align: Optional[int] = None  # DW_AT_alignment of the member, when given
    bit_field: bool = False


@dataclass(frozen=True)
class StructInfo:
    """One definition of a struct as a compile unit saw it (``unit`` aside, comparable)."""

    name: str
    kind: str  # struct | union
    size: Optional[int]
    align: Optional[int]
    members: Tuple[MemberInfo, ...]


@dataclass
class ObjectImage:
    """One ELF image (a file, or one member of an archive) and the structs found in it."""

    label: str  # "build/geo.o", "libgeo.a(geo.o)"
    machine: str = ""
    big_endian: bool = False
    dwarf_versions: Tuple[int, ...] = ()
    has_dwarf: bool = False
    #: Per wanted C name: each distinct definition and the compile units that have it.
    structs: Dict[str, Dict[StructInfo, List[str]]] = field(default_factory=dict)
    #: The same for a name that is a typedef of a scalar or a C enum (an enum type).
    scalars: Dict[str, Dict[TypeInfo, List[str]]] = field(default_factory=dict)


# --- files ---------------------------------------------------------------------------------


def read_object(path: str, names: Collection[str]) -> List[ObjectImage]:
    """Every ELF image of ``path`` with the definitions of the structs ``names``.

    Raises ``ObjectError`` for a file that cannot be read, is not ELF (or an archive of ELF
    objects), has no DWARF at all (the message says to compile with ``-g``), or is malformed
    or too large; ``ToolchainMissing`` when pyelftools is not installed.
    """
    try:
        import importlib

        importlib.import_module("elftools")  # only to say it is missing, before any work
    except ImportError:
        raise ToolchainMissing("verify --object reads DWARF with pyelftools, which is not "
                               "installed: pip install pyelftools (or sarek-layout[verify])") \
            from None
    import stat

    shown = shown_name(path)
    try:
        # Before opening: opening a FIFO would block until someone writes to it.
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ObjectError(f"{shown}: not a regular file")
        f = open(path, "rb")
    except OSError as e:
        raise ObjectError(f"{shown}: cannot read ({e.strerror or e})") from None
    with f:
        try:
            file_size = os.fstat(f.fileno()).st_size
            magic = f.read(8)
        except OSError as e:
            raise ObjectError(f"{shown}: cannot read ({e.strerror or e})") from None
        budget = _Budget(shown)
        with bounded_numbers():
            if magic.startswith(_ELF_MAGIC):
                images = [_read_image(f, shown, names, budget)]
            elif magic == AR_MAGIC:
                images = []
                for member, start, size in archive_members(f, shown, file_size):
                    view = Slice(f, start, size)
                    if view.read(4) != _ELF_MAGIC:
                        continue
                    view.seek(0)
                    images.append(_read_image(view, f"{shown}({shown_name(member)})", names,
                                              budget))
                if not images:
                    raise ObjectError(f"{shown}: an archive without ELF objects")
            elif magic == THIN_MAGIC:
                raise ObjectError(f"{shown}: a thin archive (its members live elsewhere): pass "
                                  f"the member objects instead")
            else:
                raise ObjectError(f"{shown}: not an ELF object, static library (.a), shared "
                                  f"library or executable")
    if not any(image.has_dwarf for image in images):
        raise ObjectError(f"{shown}: no DWARF debugging information; compile with -g "
                          f"(and do not strip it)")
    return images


class _Budget:
    """Counts the debugging entries examined in one file, and stops a runaway."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.left = MAX_ENTRIES

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise ObjectError(f"{self.path}: more than {MAX_ENTRIES:,} debugging entries to "
                              f"examine; pass the object files that use the types instead")


# --- one ELF image ---------------------------------------------------------------------------


def _read_image(stream, label: str, names: Collection[str], budget: _Budget) -> ObjectImage:
    """One ELF image and the definitions of ``names`` in it; every failure of a malformed
    file is one ``ObjectError`` naming ``label``."""
    from elftools.elf.elffile import ELFFile

    image = ObjectImage(label)
    try:
        elf = ELFFile(stream)
        image.machine = elf.get_machine_arch()
        image.big_endian = not elf.little_endian
        if _has_debug_info(elf, stream, label):
            _read_units(elf, label, names, budget, image)
    except ObjectError:
        raise
    except NumberTooLarge as e:
        where = f" at byte 0x{e.where:x} of a debug section" if e.where is not None else ""
        raise ObjectError(f"{label}: malformed DWARF (a number of more than 64 bits{where})") \
            from None
    except SectionError as e:
        raise ObjectError(f"{label}: {e}") from None
    except Exception as e:  # noqa: BLE001 - pyelftools and construct raise many kinds on bad input
        detail = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        raise ObjectError(f"{label}: malformed ELF or DWARF ({detail})") from None
    return image


def _has_debug_info(elf, stream, label: str) -> bool:
    """Whether the image has DWARF to read, after the checks that come before reading it:
    its section headers within the file and not too many, its debug sections not too large
    (counted inflated), and no type units in COMDAT sections."""
    stream.seek(0, 2)
    stream_size = stream.tell()
    sections = elf.num_sections()
    if sections > MAX_SECTIONS or elf["e_shoff"] + sections * elf["e_shentsize"] > stream_size:
        raise ObjectError(f"{label}: malformed ELF ({sections:,} section headers, past the "
                          f"end of the file or more than {MAX_SECTIONS:,})")
    debug_bytes = debug_size(elf)
    if debug_bytes > MAX_DEBUG_BYTES:
        raise ObjectError(f"{label}: {debug_bytes:,} bytes of debug sections, more than the "
                          f"{MAX_DEBUG_BYTES:,} read; pass the object files that use the "
                          f"types instead")
    if not elf.has_dwarf_info() or elf.get_section_by_name(".debug_info") is None \
            and elf.get_section_by_name(".zdebug_info") is None:
        return False
    if elf["e_type"] == "ET_REL" and any(
            sum(1 for sec in elf.iter_sections() if sec.name == name) > 1
            for name in (".debug_info", ".debug_types", ".zdebug_info", ".zdebug_types")):
        raise ObjectError(f"{label}: type units in COMDAT sections (-fdebug-types-section), "
                          f"which cannot be read from an object file: verify the linked "
                          f"binary, or build without -fdebug-types-section")
    return True


def _read_units(elf, label: str, names: Collection[str], budget: _Budget,
                image: ObjectImage) -> None:
    """Every unit's definitions of ``names``, into ``image``."""
    dwarf = dwarf_info(elf)
    if not dwarf.has_debug_info:
        return
    image.has_dwarf = True
    units = []
    for unit in _units(dwarf):
        units.append(unit)
        if len(units) > MAX_UNITS:
            raise ObjectError(f"{label}: more than {MAX_UNITS:,} compile units; pass the "
                              f"object files that use the types instead")
    reader = _UnitReader(budget, units)
    wanted = tuple(dict.fromkeys(names))
    for unit in units:
        reader.scan(unit, wanted, image)
    image.dwarf_versions = tuple(sorted({u.header["version"] for u in units}))


def _units(dwarf) -> Iterator:
    yield from dwarf.iter_CUs()
    if dwarf.has_debug_types():
        yield from dwarf.iter_TUs()


def _int(attrs, name: str) -> Optional[int]:
    """An attribute that should be a constant; None when absent or not a plain number
    (an expression or a reference, as for variable-length arrays)."""
    attr = attrs.get(name)
    if attr is None or not isinstance(attr.value, int) or isinstance(attr.value, bool):
        return None
    return attr.value


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _name(die) -> str:
    attr = die.attributes.get("DW_AT_name")
    return _text(attr.value) if attr is not None else ""


def _member_offset(die) -> Tuple[Optional[int], bool]:
    """(byte offset, is a bit-field) of a member; a union member without one is at 0."""
    if "DW_AT_bit_size" in die.attributes or "DW_AT_data_bit_offset" in die.attributes:
        bit = _int(die.attributes, "DW_AT_data_bit_offset")
        return (bit // 8 if bit is not None else None), True
    attr = die.attributes.get("DW_AT_data_member_location")
    if attr is None:
        return 0, False
    value = attr.value
    if isinstance(value, int):
        return value, False
    # DWARF 2/3: a location expression, in practice DW_OP_plus_uconst ULEB128.
    if isinstance(value, list) and value and value[0] == 0x23:
        return uleb128(value, 1), False
    return None, False


#: Reference forms whose value is an offset from the start of the unit.
_UNIT_REFS = frozenset({"DW_FORM_ref1", "DW_FORM_ref2", "DW_FORM_ref4", "DW_FORM_ref8",
                        "DW_FORM_ref", "DW_FORM_ref_udata"})


class _UnitReader:
    """Walks the units of one ELF image: finds the wanted structs and reads their members.

    Resolves type-unit signatures itself (``DW_FORM_ref_sig8``): DWARF 5 keeps type units in
    ``.debug_info``, where pyelftools does not look for them. Reads DIEs itself too, not
    through pyelftools' unit cache, which keeps every DIE parsed (hundreds of bytes each, and
    a sorted-list insert) and, to find the sibling after a DIE without ``DW_AT_sibling``,
    parses and keeps all its descendants outside any budget: here each DIE read is counted
    and dropped once passed (referenced types are kept in a small cache).
    """

    def __init__(self, budget: _Budget, units: List) -> None:
        self.budget = budget
        self.path = budget.path
        # DWARF 4 .debug_types headers call it "signature", DWARF 5 "type_signature".
        self.by_signature = {}
        for u in units:
            keys = dict(u.header)
            signature = keys.get("type_signature", keys.get("signature"))
            if signature is not None and "type_offset" in keys:
                self.by_signature[signature] = u
        self.cache: Dict[Tuple[int, int], object] = {}
        self.bounds: Dict[int, Tuple[int, int, Any]] = {}
        from elftools.dwarf.die import DIE

        self.DIE = DIE

    def die_at(self, unit, offset: int):
        """The DIE at section offset ``offset`` of ``unit`` (counted by the caller)."""
        bounds = self.bounds.get(id(unit))
        if bounds is None:
            bounds = self.bounds[id(unit)] = (unit.cu_die_offset, unit.cu_offset + unit.size,
                                              unit.get_top_DIE().stream)
        if not bounds[0] <= offset < bounds[1]:
            raise ObjectError(f"{self.path}: malformed DWARF (a reference to 0x{offset:x}, "
                              f"outside its unit)")
        return self.DIE(unit, bounds[2], offset)

    def ref(self, die, name: str):
        """The DIE an attribute refers to (None when absent)."""
        attr = die.attributes.get(name)
        if attr is None:
            return None
        self.budget.spend()
        unit, form = die.cu, attr.form
        if form in _UNIT_REFS:
            offset = unit.cu_offset + attr.raw_value
        elif form == "DW_FORM_ref_addr":
            offset = attr.raw_value
            unit = unit.dwarfinfo.get_CU_containing(offset)
        elif form == "DW_FORM_ref_sig8":
            unit = self.by_signature.get(attr.value)
            if unit is None:
                return die.get_DIE_from_attribute(name)  # pyelftools' search of .debug_types
            offset = unit.cu_offset + unit.header["type_offset"]
        else:
            return die.get_DIE_from_attribute(name)  # a supplementary file: refused there
        key = (id(unit), offset)
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) >= _REF_CACHE:
                self.cache.clear()
            found = self.cache[key] = self.die_at(unit, offset)
        return found

    def sibling(self, die) -> Optional[int]:
        """Where ``DW_AT_sibling`` says ``die``'s next sibling is (None without one)."""
        sibling = die.attributes.get("DW_AT_sibling")
        if sibling is None or sibling.form not in _UNIT_REFS | {"DW_FORM_ref_addr"}:
            return None
        target = sibling.raw_value + (die.cu.cu_offset if sibling.form in _UNIT_REFS else 0)
        if target <= die.offset:
            raise ObjectError(f"{self.path}: malformed DWARF (a sibling link at "
                              f"0x{die.offset:x} points backwards)")
        return target

    def after(self, die, end: int) -> int:
        """Where ``die``'s next sibling starts: past its children, through ``DW_AT_sibling``
        where it has one, else by reading its descendants (each counted, none kept)."""
        if not die.has_children:
            return die.offset + die.size
        target = self.sibling(die)
        if target is not None:
            return target
        pos, depth = die.offset + die.size, 1
        while depth:  # a loop, not recursion: nesting may be as deep as the file is long
            inner = self.next_die(die.cu, pos, end)
            target = self.sibling(inner) if inner.has_children else None
            if target is not None:
                pos = target
                continue
            pos = inner.offset + inner.size
            if inner.is_null():
                depth -= 1
            elif inner.has_children:
                depth += 1
        return pos

    def next_die(self, unit, pos: int, end: int):
        if pos >= end:
            raise ObjectError(f"{self.path}: malformed DWARF (a list of children runs past "
                              f"the end of its unit at 0x{end:x})")
        self.budget.spend()
        return self.die_at(unit, pos)

    def children(self, die) -> Iterator:
        """``die``'s children, each read once and not kept; a sibling chain must move
        forward."""
        if not die.has_children:
            return
        unit = die.cu
        end = unit.cu_offset + unit.size
        pos = die.offset + die.size
        while True:
            child = self.next_die(unit, pos, end)
            if child.is_null():
                return
            yield child
            pos = self.after(child, end)

    def scan(self, unit, wanted: Tuple[str, ...], image: ObjectImage) -> None:
        """Add the unit's definitions of the ``wanted`` names to ``image``."""
        wanted_set = frozenset(wanted)
        top = unit.get_top_DIE()
        unit_name = _name(top) or f"unit at 0x{unit.cu_offset:x}"
        typedefs: Dict[str, object] = {}
        tags: Dict[str, object] = {}
        scopes = [(top, 0)]
        while scopes:
            scope, depth = scopes.pop()
            for die in self.children(scope):
                tag = die.tag
                if tag == "DW_TAG_namespace" and depth < 8:
                    scopes.append((die, depth + 1))
                    continue
                if tag != "DW_TAG_typedef" and tag not in _STRUCT_TAGS \
                        and tag != "DW_TAG_enumeration_type":
                    continue
                name = _name(die)
                if name not in wanted_set:
                    continue
                if tag == "DW_TAG_typedef":
                    typedefs.setdefault(name, die)
                else:
                    tags.setdefault(name, die)
        for name in wanted:
            # What C code means by the name: the typedef, else the struct tag.
            for die in (typedefs.get(name), tags.get(name)):
                target = self.definition(self.strip(die)[0]) if die is not None else None
                if target is not None and target.tag in ("DW_TAG_base_type",
                                                         "DW_TAG_enumeration_type"):
                    # An enum type (SPEC §1b): a typedef of its base, or a C enum.
                    info = self.type(die, 0, False)
                    image.scalars.setdefault(name, {}).setdefault(info, []).append(unit_name)
                    break
                if target is None or target.tag not in _STRUCT_TAGS \
                        or "DW_AT_declaration" in target.attributes:
                    continue  # absent, not a struct, or only declared in this unit
                info = self.struct(name, target)
                image.structs.setdefault(name, {}).setdefault(info, []).append(unit_name)
                break

    def strip(self, die) -> Tuple[object, Tuple[str, ...], Optional[int]]:
        """Follow typedefs and qualifiers: ``(the type they name or None for void, the
        typedef names met, the first DW_AT_alignment met)``."""
        names: List[str] = []
        align = None
        for _ in range(MAX_CHAIN):
            if die is None or die.tag not in _TRANSPARENT:
                return die, tuple(names), align
            if die.tag == "DW_TAG_typedef" and _name(die):
                names.append(_name(die))
            if align is None:
                align = _int(die.attributes, "DW_AT_alignment")
            die = self.ref(die, "DW_AT_type")
        raise ObjectError(f"{self.path}: malformed DWARF (a type chain longer than "
                          f"{MAX_CHAIN}, or a cycle)")

    def definition(self, die):
        """A struct declaration's definition, where DWARF links one (type units)."""
        if die is not None and "DW_AT_declaration" in die.attributes \
                and "DW_AT_signature" in die.attributes:
            return self.ref(die, "DW_AT_signature")
        return die

    def array_dims(self, die) -> Tuple[Optional[int], ...]:
        """Each dimension's count (``None``: a flexible or variable-length one), past
        ``MAX_ARRAY`` unknown too."""
        dims: List[Optional[int]] = []
        for sub in self.children(die):
            if sub.tag != "DW_TAG_subrange_type":
                continue
            n = _int(sub.attributes, "DW_AT_count")
            upper = _int(sub.attributes, "DW_AT_upper_bound")
            if n is None and upper is not None:
                n = upper + 1
            dims.append(n if n is not None and 0 <= n <= MAX_ARRAY else None)
        return tuple(dims)

    @staticmethod
    def array_size(dims: Tuple[Optional[int], ...], element: Optional[int]) -> Optional[int]:
        """The size of ``dims`` of ``element`` bytes; past MAX_ARRAY the product stops (its
        size is unknown: no type is that large), so that a thousand dimensions never make a
        thousand-digit number."""
        count: Optional[int] = 1
        for n in dims:
            if n is None:
                return None  # a flexible or variable-length array
            if n == 0:
                return 0
            if count is not None:
                count = count * n if count * n <= MAX_ARRAY else None
        if count is None or element is None:
            return None
        return count * element if count * element <= MAX_ARRAY else None

    def enumerators(self, die) -> Tuple[Tuple[str, int], ...]:
        out: List[Tuple[str, int]] = []
        for child in self.children(die):
            if child.tag == "DW_TAG_enumerator" and len(out) < MAX_ENUMERATORS:
                value = _int(child.attributes, "DW_AT_const_value")
                if value is not None:
                    out.append((_name(child), value))
        return tuple(out)

    def type(self, die, depth: int, open_structs: bool) -> TypeInfo:
        """The ``TypeInfo`` of a DW_AT_type target (``die`` may be None: void)."""
        target, names, align = self.strip(die)
        target = self.definition(target)
        if target is None:
            return TypeInfo("void", None, names=names + ("void",), align=align)
        kind = _KINDS.get(target.tag, "other")
        own = _name(target)
        all_names = names + ((own,) if own else ())
        attrs = target.attributes
        size = _int(attrs, "DW_AT_byte_size")
        if align is None:
            align = _int(attrs, "DW_AT_alignment")
        if kind == "base":
            code = _int(attrs, "DW_AT_encoding")
            encoding = _ENCODINGS.get(code, "other") if code is not None else None
            return TypeInfo("base", size, encoding, all_names, align=align)
        if kind == "pointer" and size is None:
            size = target.cu.header["address_size"]
        if kind == "array":
            element = self.type(self.ref(target, "DW_AT_type"), depth, True)
            dims = self.array_dims(target)
            if element.kind == "array":  # an array of a typedef of an array
                dims, element = dims + element.dims, element.element  # type: ignore[assignment]
            if size is None:
                size = self.array_size(dims, element.size if element is not None else None)
            return TypeInfo("array", size, element.encoding if element is not None else None,
                            all_names or (f"{element.spelling if element else '?'}[]",),
                            align=align, dims=dims, element=element)
        if kind == "enum":
            return TypeInfo("enum", size, None, all_names, align=align,
                            enumerators=self.enumerators(target))
        members: Tuple[MemberInfo, ...] = ()
        if kind in ("struct", "union") and depth < MAX_OPEN_DEPTH and (
                kind == "union" or open_structs or not own or self.small(target)):
            members = self.members(target, depth + 1, inside_union=kind == "union")
        return TypeInfo(kind, size, None, all_names, members, align)

    def small(self, die) -> bool:
        """A struct of at most four members: a vector type (CUDA's ``float4`` is a struct of
        ``x``, ``y``, ``z``, ``w``), read where it is used; a record is read as its own type."""
        count = 0
        for child in self.children(die):
            count += child.tag == "DW_TAG_member"
            if count > 4:
                return False
        return True

    def members(self, die, depth: int, inside_union: bool) -> Tuple[MemberInfo, ...]:
        out = []
        for child in self.children(die):
            if child.tag != "DW_TAG_member":
                continue
            offset, bit_field = _member_offset(child)
            t = self.type(self.ref(child, "DW_AT_type"), depth, inside_union)
            align = _int(child.attributes, "DW_AT_alignment")
            out.append(MemberInfo(_name(child), offset, t, align, bit_field))
        return tuple(out)

    def struct(self, name: str, die) -> StructInfo:
        attrs = die.attributes
        kind = "union" if die.tag == "DW_TAG_union_type" else "struct"
        return StructInfo(name, kind, _int(attrs, "DW_AT_byte_size"),
                          _int(attrs, "DW_AT_alignment"), self.members(die, 0, kind == "union"))
