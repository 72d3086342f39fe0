"""The view records of the union-less GPU API targets (``glsl``, ``wgsl``): what
``shader_views`` decides and the templates print, as names and numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

__all__ = ["SMember", "Slot", "SWalk", "SArg", "SField", "SCtor", "SType", "SModuleView", "SEnum"]


@dataclass(frozen=True)
class SMember:
    """A struct member: ``kind`` ``scalar`` (``type`` = schema scalar name), ``record``
    (``type`` = the record's emitted name), ``padding`` (``words`` 32-bit words), ``packed``
    (one ``uint`` word holding the scalars smaller than a word in ``parts``, with any padding
    bytes beside them), ``data`` (a variant's payload: ``words`` elements of
    ``word``/``word2``/``word4``, per ``wide`` and ``quad``) or ``kind`` (a fixed array,
    vector or matrix: ``type`` its spelling, GLSL's element type with ``suffix`` after the
    name, ``walk`` its loops)."""

    name: str
    kind: str
    type: str
    offset: int
    size: int
    words: int = 0
    wide: bool = False
    #: ``packed``: the scalars in the word (``Slot.source`` is the field, or the argument).
    parts: Tuple["Slot", ...] = ()
    #: A record's ``scalar``, ``record`` or ``packed`` member: where it is in the record's
    #: words (``packed``: its ``word``).
    slot: Optional["Slot"] = None
    #: ``padding``: one word per member (``uint _sarek_padN;``), as std140 needs: an array of
    #: words there is 16 bytes a word.
    single: bool = False
    #: ``data``: payload elements of four words (``uvec4``), for a payload at offset 16.
    quad: bool = False
    #: ``kind``: GLSL's array suffix (``[4][3]``) and the schema's spelling
    #: (``vec3<float32>[4]``).
    suffix: str = ""
    spelling: str = ""
    #: Its alignment in the language (a scalar, record or kind member; 0: a word's).
    natural: int = 0


@dataclass(frozen=True)
class Slot:
    """A scalar or record placed in an array of 32-bit words: ``word`` is its first word,
    ``words`` how many; ``source`` is what it is read from or written to (a field name, a
    parameter)."""

    source: str
    kind: str
    type: str
    word: int
    words: int
    #: A record's word conversions (empty for a scalar).
    from_words: str = ""
    to_words: str = ""
    #: A scalar smaller than a word: its bit offset in ``word`` and its width (8, 16); 0 for
    #: a scalar of whole words or a record.
    shift: int = 0
    bits: int = 0
    #: A scalar's integer kind, from the scalar table: ``signed`` for an integer smaller than
    #: a word stored in two's complement (int8, int16: read back sign-extended), ``unsigned``
    #: for an unsigned integer (uint8, uint16, uint32, uint64: the language's unsigned type).
    signed: bool = False
    unsigned: bool = False
    #: Whether its words are copied one by one (a scalar's always are), else with a loop.
    unrolled: bool = True
    #: A member of SPEC §1b's kinds (``kind`` ``kind``; ``type`` is its value type): the
    #: loops that reach each of its scalars or records.
    walk: Optional["SWalk"] = None


@dataclass(frozen=True)
class SWalk:
    """The loops over a kind member's elements (``shader_kinds.KLevel``): ``counts`` of
    ``loops`` nested loops (indexes ``_sarek_i0``…), ``index`` the designator they give
    (``[_sarek_i0][_sarek_i1]``, ``.v`` after a wrapped element), ``offset`` the word of the
    element from the member's first (``_sarek_i0 * 4u + _sarek_i1``), and ``leaf`` the
    element's slot (a scalar, or a record of whole words), at word 0."""

    counts: Tuple[int, ...]
    index: str
    offset: str
    leaf: Slot
    #: A small member's elements one by one (designator, first word from the member's):
    #: spelled with constant indices instead of loops (empty: loops).
    elements: Tuple[Tuple[str, int], ...] = ()


@dataclass(frozen=True)
class SEnum:
    """An enum (SPEC §1b): one constant per value, of its base's type."""

    kind: str  # "enum"
    qualified_name: str
    c_name: str
    base: str
    type: str
    #: (constant name, value as a literal of ``type``), in declaration order.
    values: Tuple[Tuple[str, str], ...]


@dataclass(frozen=True)
class SArg:
    """One constructor argument: its parameter name, accessor, and where its words are.

    ``refs`` spells the payload words it occupies as ``(index, component)`` of ``data``:
    ``(3, "")`` is ``data[3]``; ``(1, "y")`` is ``data[1].y`` (payload of two-word elements).
    Empty when ``slot.unrolled`` is false: the templates copy those ``slot.words`` words from
    ``slot.word`` in a loop (they can be millions).
    """

    name: str
    accessor: str
    kind: str
    type: str
    slot: Slot
    refs: Tuple[Tuple[int, str], ...]
    #: ``refs`` spelled as expressions of the accessor's parameter (``naming.VALUE_PARAM``:
    #: ``<param>.data[3]``, ``<param>.data[1].y``): built once here, not word by word in the
    #: templates.
    reads: Tuple[str, ...] = ()


@dataclass(frozen=True)
class SField:
    """A record field smaller than a word: read by the accessor ``accessor`` from the packed
    member ``member`` (``slot`` says its bit offset and width)."""

    name: str
    accessor: str
    type: str
    member: str
    slot: Slot


@dataclass(frozen=True)
class SCtor:
    name: str
    tag: int
    const_name: str
    make_name: str
    args: Tuple[SArg, ...]
    payload_size: int
    #: GLSL: the overlay struct of this arm (every member at its absolute offset).
    arm_struct: str = ""
    arm_members: Tuple[SMember, ...] = ()


@dataclass(frozen=True)
class SType:
    kind: str  # "record" | "variant"
    name: str
    qualified_name: str
    c_name: str
    size: int
    align: int
    members: Tuple[SMember, ...]
    #: 32-bit words in one element (size / 4).
    words: int
    #: Whether ``words`` (a record's) or ``payload_words`` (a variant's) are zeroed and copied
    #: word by word, else with loops.
    unrolled: bool = True
    make_name: str = ""
    # records: their fields in words, and the word conversions of the record
    slots: Tuple[Slot, ...] = ()
    from_words: str = ""
    to_words: str = ""
    #: Fields kept inside packed words, read by accessors.
    fields: Tuple[SField, ...] = ()
    # variants
    payload_offset: int = 0
    #: Payload words (size - payload offset) / 4, and the ``data`` member (None: no payload).
    payload_words: int = 0
    data: Optional[SMember] = None
    ctors: Tuple[SCtor, ...] = ()
    #: The layout fingerprint (``0x`` + 16 hex digits), its two 32-bit words (low first,
    #: ``0x`` + 8 hex digits) and the names of its constant and of its check function.
    layout_id: str = ""
    layout_words: Tuple[str, str] = ("", "")
    layout_id_name: str = ""
    layout_ok_name: str = ""
    #: GLSL: the 64-bit constant, where the file enables 64-bit integers (``uses_int64``).
    layout_id64_name: str = ""
    #: A member of SPEC §1b's kinds: a record's word conversions are statements then.
    has_kinds: bool = False
    #: WGSL's element structs (``struct name { @size(size) v: type }``), declared before it.
    wrappers: Tuple[Tuple[str, str, int], ...] = ()
    #: The rule set (SPEC §1b) and the block a buffer of it needs (``shader_kinds.block_of``:
    #: GLSL's block layout; WGSL's ``uniform`` space, or ``std430`` for storage).
    rules: str = "c"
    block: str = "std430"


@dataclass(frozen=True)
class SModuleView:
    tool: str
    version: str
    module: str
    source: str
    types: Tuple[object, ...]  # SType and SEnum
    uses_int64: bool
    uses_float64: bool
    #: Some range of words is copied with a loop (a type of more than ``unroll_bytes``).
    has_loops: bool = False
    #: ``UNROLL_WORDS`` in bytes (for the banner).
    unroll_bytes: int = 0
    #: WGSL cannot include: the files (of the same target) to concatenate before this one.
    needs: Tuple[str, ...] = ()
    #: A scalar smaller than a word (uint8, float16, int8, int16, uint16) is stored somewhere
    #: (the file then says how they are kept).
    uses_small: bool = False
    #: A type is laid out by GL_EXT_scalar_block_layout's rules (GLSL enables it).
    uses_scalar_blocks: bool = False


