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
         "a member's scalar type changed (bool and int32 included)",
         "the same bytes mean another value: an int32 read as float32, an int64 truncated, "
         "a bool reader turns the int32 5 into true, and an int32 -1 read as a uint32 is "
         "4294967295"),
    Rule("member-kind-changed", BREAKING, "a member changed between a scalar and a record",
         "its bytes are read as something else"),
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
