"""The breaking-change rules of ``sarek-layout diff``, as data.

One ``Rule`` per kind of change the comparison can find, with its classification and the
reason a person reads in the documentation. ``docs/diff.md`` prints the same table (a test
keeps the two in step), and ``diff`` tags every change it reports with a rule's ``id``.

The classification answers one question: *does code or data built on OLD still read every
value correctly?* Both directions count:

* a consumer built against OLD reading bytes written with NEW (deployed code), and
* a consumer built against NEW reading bytes written with OLD (stored data),

under the usual convention for additive change: a member or constructor that only NEW has
is not an error (an OLD reader never asks for it and sees an unknown tag for a new
constructor; a NEW reader reads a new member as 0 from OLD bytes, since writers zero their
padding), while anything OLD has that NEW lost or moved is. ``tests/abi/test_diff_c_program.py``
checks these claims with C programs built against both headers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

from ..targets.naming import MAKE_PREFIX, PAD_MEMBER

__all__ = ["BREAKING", "COMPATIBLE", "Rule", "RULES", "rule"]

BREAKING = "breaking"
COMPATIBLE = "compatible"


@dataclass(frozen=True)
class Rule:
    """One kind of change: its id (in reports and JSON), classification and reason."""

    id: str
    severity: str  # BREAKING | COMPATIBLE
    title: str
    why: str


_RULES: Tuple[Rule, ...] = (
    # --- whole types ----------------------------------------------------------------------
    Rule("type-removed", BREAKING, "a type of OLD is not in NEW (removed or renamed)",
         "code built against OLD reads a type nobody writes any more; a renamed type is "
         "this plus type-added (the report suggests the new name when the layout is equal)"),
    Rule("type-added", COMPATIBLE, "a type only NEW has",
         "no OLD reader or writer knows it"),
    Rule("kind-changed", BREAKING, "a record became a variant or the reverse",
         "every byte means something else"),
    Rule("size-changed", BREAKING, "the size of a type changed",
         "the stride of every array of it changes, and every record containing it moves"),
    Rule("align-changed", BREAKING, "the alignment of a type changed",
         "records and buffers containing it place it differently"),
    Rule("rules-changed", COMPATIBLE,
         "the rule set of a type changed (`c` -> `std430`; same fields)",
         "the rule set is not in the bytes: each offset, stride, size and alignment it moves "
         "is reported on its own line (breaking), and a change that moves nothing reads the "
         "same"),
    # --- members (record fields and constructor arguments _0, _1, ...) --------------------
    Rule("member-removed", BREAKING, "a member of OLD is not in NEW",
         "an OLD reader reads bytes NEW no longer writes"),
    Rule("member-renamed", BREAKING,
         "a member keeps its place, offset and type under another name",
         "the bytes are where they were, but the name is the member's identity: the header "
         "and every reader's code change, and a rename cannot be told from a replacement"),
    Rule("member-moved", BREAKING, "a member's offset changed",
         "an OLD reader reads it at the old offset"),
    Rule("member-type-changed", BREAKING,
         "a member's scalar type changed (bool and int32 included), or its elements' (an "
         "array's, a vector's, a matrix's)",
         "the same bytes mean another value: an int32 read as float32, an int64 truncated, "
         "a bool reader turns the int32 5 into true, and an int32 -1 read as a uint32 is "
         "4294967295"),
    Rule("member-kind-changed", BREAKING,
         "a member changed between a scalar, an enum and a record (of the same repetitions "
         "or not)",
         "its bytes are read as something else (an enum's numbers as plain integers, or the "
         "reverse)"),
    Rule("nested-record-changed", BREAKING,
         "the record type of a member has a breaking change",
         "the member's own members are misread (reported in full under that record)"),
    Rule("nested-record-grew", COMPATIBLE,
         "the record type of a member only grew (members added at its end), and here the "
         "new bytes fall in bytes OLD left unused (a hole, tail padding, or payload bytes "
         "this constructor did not use)",
         "an OLD reader finds every old member of it where it was; the record's own "
         "size-changed line still reports what moves in arrays of it"),
    Rule("member-record-replaced", COMPATIBLE,
         "a member's record type is another record with the same layout and member names",
         "every byte reads the same; only code that names the record type changes"),
    # --- fixed arrays, vectors and matrices (SPEC §1b) ------------------------------------
    Rule("member-dims-changed", BREAKING,
         "a member gained or lost a dimension (a scalar became an array, a vector an array of "
         "vectors, `float32[16]` became `float32[4][4]`)",
         "its elements are indexed otherwise: element i of one is not element i of the other"),
    Rule("array-count-changed", BREAKING,
         "a fixed array's element count changed, other than `elements-added`",
         "a count that shrank drops elements OLD readers read; one that grew over other "
         "members or past the type's end moves them (`float32[4]` -> `float32[8]` at the end "
         "of a record also changes its size)"),
    Rule("vector-width-changed", BREAKING,
         "a vector's width changed (`vec3` -> `vec4`), other than `elements-added`",
         "a narrower vector drops components OLD readers read; a wider one overlaps the "
         "bytes after it"),
    Rule("matrix-shape-changed", BREAKING,
         "a matrix's columns or rows changed, other than `elements-added`",
         "its columns move (the column stride follows the rows) or some are dropped: an "
         "element is read from another element's bytes"),
    Rule("stride-changed", BREAKING,
         "an array's, a vector's or a matrix's stride changed with the same counts (its rule "
         "set, or its element's size or alignment, changed)",
         "every element but the first is read at its OLD place, where another element or "
         "padding now is"),
    Rule("elements-added", COMPATIBLE,
         "a fixed array, vector or matrix gained elements (a count, a vector's width, a "
         "matrix's columns or rows grew) at the same strides, the new ones in bytes OLD left "
         "unused here (its stride padding, a hole, the tail padding or unused payload)",
         "an OLD reader finds every element where it was; a NEW reader reads the new ones as 0 "
         "from OLD bytes, as for `member-added` (code that loops over the count changes)"),
    Rule("member-form-changed", COMPATIBLE,
         "a member changed between a fixed array, a vector and a matrix of the same counts, "
         "strides and elements (`float32[3]` <-> `vec3<float32>` under the `c` rules)",
         "every byte reads the same; only code that names its type changes"),
    # --- enums (SPEC §1b) ----------------------------------------------------------------
    Rule("enum-value-removed", BREAKING, "a value of an OLD enum is not in NEW",
         "stored data may hold its number: a NEW reader meets a number it has no name for"),
    Rule("enum-value-renumbered", BREAKING, "an enum value keeps its name under another number",
         "stored data holds the old number: a NEW reader takes it for another value or none"),
    Rule("enum-value-renamed", BREAKING, "an enum value keeps its number under another name",
         "the number reads the same, but the name is the value's identity in every target's "
         "constants: code using the old constant no longer builds, and a rename cannot be "
         "told from a replacement"),
    Rule("enum-value-added", COMPATIBLE,
         "an enum value only NEW has, with a number OLD did not use (the base has room for "
         "it: a number out of its range cannot be declared), or another name of a number "
         "whose OLD value NEW keeps",
         "an OLD reader meets an unknown number, never another value, as for `ctor-added`; "
         "a new name for a kept number reads as that value"),
    Rule("enum-value-inserted", BREAKING,
         "an enum value only NEW has, with a number OLD gave a value NEW no longer gives it",
         "an OLD reader takes it for the value that had the number"),
    Rule("enum-base-resized", BREAKING, "an enum's base scalar changed size (`int32` -> `uint8`)",
         "every member of the enum changes size: it and the members after it are read from "
         "other bytes (the size-changed line of the enum says so too)"),
    Rule("enum-base-signedness-changed", COMPATIBLE,
         "an enum's base scalar changed signedness only (`int32` -> `uint32`)",
         "every value keeps its bytes: a value the new base cannot hold cannot be declared, "
         "and is reported as removed or renumbered"),
    Rule("member-enum-changed", BREAKING, "the enum type of a member has a breaking change",
         "the member's values are misread (listed in full under that enum)"),
    Rule("member-enum-replaced", COMPATIBLE,
         "a member's enum type is another enum that reads every OLD value alike",
         "every number reads as the same value; only code that names the enum type changes"),
    # --- members (continued) --------------------------------------------------------------
    Rule("member-added", COMPATIBLE,
         "a member only NEW has, placed in bytes that were padding in OLD",
         "OLD readers never read it; NEW readers read it as 0 from OLD bytes (writers "
         f"zero padding: the generated {MAKE_PREFIX} helpers and the codecs do)"),
    Rule("member-added-outside-padding", BREAKING,
         "a member only NEW has, beyond OLD's size or over bytes an OLD member used",
         "the type grows (arrays of it and records containing it move) or OLD members moved"),
    # --- variants -------------------------------------------------------------------------
    Rule("payload-moved", BREAKING, "a variant's payload offset changed",
         "every argument moves"),
    Rule("ctor-removed", BREAKING, "a constructor of OLD is not in NEW",
         "stored values of it can no longer be read, and later constructors usually "
         "renumber"),
    Rule("ctor-renamed", BREAKING,
         "a constructor keeps its tag and arguments under another name",
         "a value's constructor is its identity: OLD readers name it wrongly"),
    Rule("ctor-renumbered", BREAKING, "a constructor's tag changed (reordered or inserted before)",
         "an OLD reader takes the tag for another constructor"),
    Rule("ctor-added", COMPATIBLE, "a constructor only NEW has, after all of OLD's",
         "its tag is new: an OLD reader sees an unknown tag, never another constructor "
         "(a larger payload is reported as size-changed)"),
    Rule("ctor-inserted", BREAKING, "a constructor only NEW has, with a tag OLD used",
         "an OLD reader takes it for the constructor that had that tag"),
    # --- never reported ---------------------------------------------------------------------
    Rule("padding-renamed", COMPATIBLE,
         f"explicit padding renamed or renumbered (`{PAD_MEMBER}<N>` in a C header schema)",
         "padding carries no data and is not part of the schema: never reported"),
)

#: Every rule by id, in table order.
RULES: Dict[str, Rule] = {r.id: r for r in _RULES}


def rule(rule_id: str) -> Rule:
    return RULES[rule_id]
