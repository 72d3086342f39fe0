"""The structural check of a header someone wrote (or committed), before any compiler runs.

The header is read by the one C reader ``import-c`` uses too (``frontends.c``: the
bundled fake libc, one preprocessor run with the target's own macros, pycparser, one way of
spelling member types). Unlike ``import-c``, which stops at the first problem, the check
collects them all. Every schema type must be
declared under its C name as a struct of its emitted shape (``targets.shape``, SPEC §4):
records with their fields in order, variants with ``tag`` and a union ``data`` of
``<Ctor>_v`` arms: the argument itself for a constructor of one argument, a struct of
``_0``, ``_1``… for several.
Members whose names start with ``_sarek_`` are padding and are skipped, and so are static
assertions, enums and helper functions, so hand-written headers may have them or not.

Scalar members must have a spelling that means the schema's scalar on every ABI of the
header's target (``int32_t``/``int``, ``int64_t``/``long long``, ``float``, ``double``,
``uint8_t``/``unsigned char``, ``sarek_layout_float16``; in OpenCL C ``int``/``long``/``uchar``);
the messages say what the header has against what the schema
says, and why a near miss (``long``, ``bool``, OpenCL ``long long``) is wrong. A member of
record type must be the very struct the header declares under the C name the schema's
declaration names (``B.point`` is ``B_point``, even when ``A_point`` has the same fields).

The check also decides what the compilers may probe: a type is left out of the compile when
a probe of it could not compile (a member missing or of the wrong kind), and so is every
type that contains such a type, so that one broken record does not cost the other types
their numbers.

The preprocessor works on the same copies of the headers the compilers see, in a
``headers.CompileFolder``, under the C reader's preprocessor bounds (no device or FIFO opened, time,
memory), and the preprocessed text it may hand to pycparser is bounded too (pycparser reads
about 0.3 MB/s).
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from ..errors import SchemaError, UsageError
from ..frontends.c import CDeclarations, parse, preprocessed, spellings_of
from ..ir.schema import Member, SchemaType, SourceLocation
from ..targets.naming import is_padding
from ..targets.shape import Array, Node, Slot, Struct, Union as ShapeUnion, shape_of
from ..targets.registry import HEADER_SUFFIXES, TARGETS
from ..targets.spellings import NEAR_MISS_SCALARS
from .compare import StructureProblem
from .headers import CompileFolder, HeaderSet, shown
from .structure_kinds import KindsChecks
from .tools import timeout_seconds

__all__ = ["check_headers", "check_header_set", "target_of_header", "HEADER_SUFFIXES",
           "ParsedHeaders", "parse_headers", "MAX_PREPROCESSED"]

#: The most preprocessed text the check parses (about two minutes of pycparser).
MAX_PREPROCESSED = 32 << 20

def target_of_header(path: str) -> str:
    """``c``, ``cuda`` or ``opencl`` from the header's suffix (``UsageError`` otherwise)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in HEADER_SUFFIXES:
        known = ", ".join(sorted(HEADER_SUFFIXES))
        raise UsageError(f"{shown(path)}: cannot tell the header's target from its suffix "
                         f"{suffix or '(none)'!r}; expected one of {known}")
    return HEADER_SUFFIXES[suffix]


class ParsedHeaders(CDeclarations):
    """The declarations of the headers checked, with places shown as the user's files."""

    def __init__(self, readable: Callable[[str], str] = lambda path: path) -> None:
        super().__init__()
        #: Maps a file name in the preprocessor's line markers to the one to show.
        self.readable = readable
        self.locations: Dict[str, str] = {}

    def add(self, ast, default_file: str = "") -> None:
        from pycparser import c_ast

        super().add(ast, default_file)
        for node in ast.ext:
            if isinstance(node, c_ast.Typedef):
                self.locations.setdefault(node.name, self.where(node))

    def typedef(self, name: str):
        """The type a typedef name stands for (struct typedefs included), or ``None``."""
        if name in self.struct_typedefs:
            return self.struct_typedefs[name].node.type  # type: ignore[attr-defined]
        return self.aliases.get(name)

    def where(self, node) -> str:
        """``FILE:LINE:COL`` of a parsed node, naming the user's file."""
        coord = getattr(node, "coord", None)
        if coord is None:
            return ""
        return f"{self.readable(coord.file)}:{coord.line}:{coord.column or 1}"


def _readable_error(e: SchemaError, readable: Callable[[str], str]) -> SchemaError:
    """The same error, its place and message naming the user's files."""
    loc = e.location
    where = None if loc is None else SourceLocation(readable(loc.file), loc.line, loc.col)
    return SchemaError(readable(e.message), where)


def parse_headers(headers: HeaderSet, target: str) -> ParsedHeaders:
    """Preprocess and parse every header with the one C reader (``frontends.c``'s face), as
    the target's compilers see it (``SchemaError`` with the place for bad C). Layout
    attributes are taken out for the parser and left to the compilers, who measure them."""
    texts = []
    with CompileFolder(headers, "sarek-verify-cpp-") as folder:
        parsed = ParsedHeaders(folder.readable)
        include_dirs = [folder.absolute(d) for d in folder.include_dirs]
        for name in headers.includes:
            path = folder.absolute(folder.header(name))
            try:
                text = preprocessed(path, include_dirs, target, MAX_PREPROCESSED,
                                    timeout_seconds(), headers.defines)
            except SchemaError as e:
                raise _readable_error(e, folder.readable) from None
            texts.append((path, text))
        for path, text in texts:
            try:
                ast = parse(text, path, what="cannot parse the header for the structure check")
            except SchemaError as e:
                raise _readable_error(e, folder.readable) from None
            parsed.add(ast, path)
    return parsed


# --- members -------------------------------------------------------------------------------


def _members(body) -> List[object]:
    """The non-padding member declarations of a struct or union body."""
    from pycparser import c_ast

    return [d for d in (body.decls or []) if isinstance(d, c_ast.Decl)
            and d.name is not None and not is_padding(d.name)]


# --- the check -------------------------------------------------------------------------------


class _Checker(KindsChecks):
    def __init__(self, parsed: ParsedHeaders, target: str, by_name: Dict[str, SchemaType],
                 where_missing: str) -> None:
        self.parsed = parsed
        self.target = target
        self.accepted = TARGETS[target].read_spellings
        self.all_accepted = spellings_of(target)
        self.by_name = by_name
        self.problems: List[StructureProblem] = []
        self.probeable = True
        #: Where a type that is not declared at all is reported: the header(s) given.
        self.where_missing = where_missing
        #: C name -> the C names of the records its members contain (directly).
        self.uses: Dict[str, Set[str]] = {}
        self._uses: Set[str] = set()
        self._bodies: Dict[str, object] = {}

    def problem(self, node_or_place, message: str) -> None:
        place = node_or_place if isinstance(node_or_place, str) else self.parsed.where(node_or_place)
        self.problems.append(StructureProblem(place, message))

    def check(self, types: Sequence[SchemaType]) -> List[SchemaType]:
        """Check ``types`` (and the records they contain); the ones the compilers can probe.

        A type is probeable when its own members are all there, in order (``check_type``),
        and so, recursively, are those of every record it contains: a probe of
        ``particle.pos.y`` does not compile if ``point`` lacks ``y``.
        """
        own: Dict[str, bool] = {}
        queue = list(types)
        queued = {st.c_name for st in queue}
        i = 0
        while i < len(queue):  # the given types, then the records they reach
            st = queue[i]
            i += 1
            self._uses = set()
            own[st.c_name] = self.check_type(st)
            self.uses[st.c_name] = self._uses
            for dep in sorted(self._uses - queued):
                if dep in self.by_name:
                    queued.add(dep)
                    queue.append(self.by_name[dep])
        users: Dict[str, List[str]] = {}
        for c, deps in self.uses.items():
            for dep in deps:
                users.setdefault(dep, []).append(c)
        broken = {c for c, ok in own.items() if not ok}
        broken |= {dep for deps in self.uses.values() for dep in deps if dep not in self.by_name}
        because: Dict[str, str] = {}
        stack = list(broken)
        while stack:  # every type that contains a broken one, at any depth, is broken too
            dep = stack.pop()
            for user in users.get(dep, ()):
                if user not in broken:
                    broken.add(user)
                    because[user] = dep
                    stack.append(user)
        for st in types:
            if st.c_name in because and own.get(st.c_name):
                self.problems.append(StructureProblem(
                    self.parsed.locations.get(st.c_name, ""),
                    f"{st.c_name}: left out of the compile: it contains {because[st.c_name]}, "
                    f"whose declaration does not match the schema"))
        return [st for st in types if st.c_name not in broken]

    def check_type(self, st: SchemaType) -> bool:
        """Check one schema type's own members; ``True`` when they can all be probed.

        That is when the header declares every member the schema has, by name and in order:
        a scalar member of the wrong type is reported, and still probed (the compilers then
        say what it costs), but a missing member or type would only break the compile.
        """
        self.probeable = True
        c = st.c_name
        if self.parsed.typedef(c) is None:
            shape = {"record": "its fields", "variant": "tag and data"}.get(st.kind)
            if shape is None:  # an enum
                self.problems.append(StructureProblem(
                    self.where_missing, f"{c}: not declared in the header (schema type "
                    f"{st.qualified_name}, an enum of {st.elttype.base.name}; expected "  # type: ignore[union-attr]
                    f"`typedef {self.accepted[st.elttype.base.name][0]} {c};`)"))  # type: ignore[union-attr]
                return False
            self.problems.append(StructureProblem(
                self.where_missing, f"{c}: not declared in the header (schema type "
                f"{st.qualified_name}, a {st.kind}; expected `typedef struct {c} {{…}} {c};` "
                f"with {shape})"))
            return False
        place = self.parsed.locations.get(c, "")
        if st.is_enum:
            return self.check_enum_type(st, place)
        spelled = self.parsed.spell(self.parsed.typedef(c), self.all_accepted)
        if spelled.kind != "struct" or spelled.body is None:
            what = "an incomplete struct" if spelled.kind == "struct" else spelled.text
            self.problem(place, f"{c}: header declares {what}, schema says a struct ({st.kind})")
            return False
        self.check_struct(c, "", spelled.body, shape_of(st).members, place)
        return self.probeable

    def check_struct(self, c: str, prefix: str, body, nodes: Sequence[Node], place: str) -> None:
        """The members of one struct or union ``body`` against the shape's ``nodes``: by
        name and in order, then each as what it is (a value, a union, a struct)."""
        decls = self.check_names(c, prefix, body, [n.name for n in nodes], place)
        if decls is None:
            return
        for node in nodes:
            decl = decls[node.name]
            if isinstance(node, Array) or (isinstance(node, Slot) and node.member.dims):
                self.check_kinds(c, node, decl)  # SPEC §1b's kinds (structure_kinds)
            elif isinstance(node, Slot):
                self.check_slot(c, node, decl)
            else:
                self.check_aggregate(c, node, decl)

    def check_slot(self, c: str, slot: Slot, decl) -> None:
        if slot.ctor is not None:
            # A union arm that is its constructor's one argument (SPEC §4, as Sarek's own
            # kernels read it): not a struct wrapping it.
            spelled = self.parsed.spell(decl.type, self.all_accepted)
            if spelled.kind == "struct" and spelled.inline:
                self.probeable = False
                self.problem(decl, f"{c}.{slot.path}: header wraps the one argument in a "
                                   f"struct; the arm is the argument itself (as Sarek reads "
                                   f"v.{slot.path})")
                return
        self.check_member_type(c, slot.path, decl, slot.member)

    def check_aggregate(self, c: str, node: Union[ShapeUnion, Struct], decl) -> None:
        """A union (``data``) or a struct (an arm of several arguments) and its members."""
        spelled = self.parsed.spell(decl.type, self.all_accepted)
        if isinstance(node, ShapeUnion):
            wanted, inner = "union", node.arms
            what = (f"a union of the constructors with arguments "
                    f"({', '.join(a.name for a in node.arms)})")
        else:
            wanted, inner = "struct", node.members
            what = "a struct of the constructor's arguments"
        if spelled.kind != wanted or spelled.body is None:
            self.probeable = False
            self.problem(decl, f"{c}.{node.path}: header says {spelled.text}, schema says {what}")
            return
        self.check_struct(c, node.path + ".", spelled.body, inner, self.parsed.where(decl))

    def check_names(self, c: str, prefix: str, body, names: List[str], place: str):
        """Members named ``names`` in this order (padding aside); their decls, or ``None``."""
        decls = _members(body)
        have = [d.name for d in decls]
        if have == names:
            return {d.name: d for d in decls}
        self.probeable = False
        missing = [n for n in names if n not in have]
        extra = [n for n in have if n not in names]
        for n in missing:
            self.problem(place, f"{c}.{prefix}{n}: missing from the header (schema members: "
                                f"{', '.join(names)})")
        for d in decls:
            if d.name in extra:
                self.problem(d, f"{c}.{prefix}{d.name}: in the header but not in the schema")
        if not missing and not extra:
            self.problem(place, f"{c}: members of {prefix.rstrip('.') or c} are in the order "
                                f"{', '.join(have)}; the schema says {', '.join(names)}")
        return None

    def check_member_type(self, c: str, path: str, decl, m: Member) -> None:
        """A member holding a schema value (``m``): a scalar spelt as one on every ABI of the
        target, or the very struct declared under the record's C name."""
        scalar, record = m.scalar, m.record
        if getattr(decl, "bitsize", None) is not None:
            # offsetof cannot name a bit-field: its probes would not compile.
            self.probeable = False
            self.problem(decl, f"{c}.{path}: header declares a bit-field, schema says a whole "
                               f"{scalar.name if scalar is not None else 'record'}")
            return
        self.check_spelled(c, path, self.parsed.spell(decl.type, self.all_accepted), m, decl)

    def check_spelled(self, c: str, path: str, spelled, m: Member, decl) -> None:
        """The header's type (``spelled`` by the C reader; declared at ``decl``) holding one
        of ``m``'s values: a scalar spelt as one on every ABI of the target, or the very
        struct declared under the record's C name (an array's element, too)."""
        scalar, record = m.scalar, m.record
        if scalar is not None:
            if spelled.kind == "scalar" and spelled.text in self.accepted[scalar.name]:
                return
            why = TARGETS[self.target].near_misses.get(spelled.text) \
                if scalar.name in NEAR_MISS_SCALARS else None
            write = f"write {self.accepted[scalar.name][0]}"
            hint = f" ({why}: {write})" if why else f" ({write})"
            self.problem(decl, f"{c}.{path}: header says {spelled.text}, schema says "
                               f"{scalar.name}{hint}")
            return
        if record is not None:
            # By the C name the declaration names, not by structure: two modules may
            # declare equal records, which are distinct C types (as in codegen).
            nested = record.c_name
            self._uses.add(nested)
            expected = self._record_body(nested)
            if expected is None:
                # Not declared as a struct: its own check says so, and this type is left
                # out with it. Only a spelling that names something else is worth a word.
                ok = spelled.text in (nested, f"struct {nested}")
            else:
                ok = spelled.body is expected
            if not ok:
                self.probeable = False
                self.problem(decl, f"{c}.{path}: header says {spelled.text}, schema says "
                                   f"{nested} (record {record.name})")

    def _record_body(self, c_name: str):
        """The struct body the header declares under ``c_name`` (``None`` if it does not)."""
        if c_name not in self._bodies:
            body = None
            if self.parsed.typedef(c_name) is not None:
                spelled = self.parsed.spell(self.parsed.typedef(c_name), self.all_accepted)
                if spelled.kind == "struct":
                    body = spelled.body
            self._bodies[c_name] = body
        return self._bodies[c_name]


def check_header_set(
    headers: HeaderSet,
    types: Sequence[SchemaType],
    target: str,
    all_types: Optional[Sequence[SchemaType]] = None,
) -> Tuple[List[StructureProblem], List[SchemaType]]:
    """Check ``types`` against ``headers`` (the user's, already read; one target).

    ``all_types`` (default ``types``) names nested records. Returns the problems and the
    types that passed (the ones the compilers can probe).
    """
    parsed = parse_headers(headers, target)
    where = ", ".join(shown(headers.origin(n)) for n in headers.includes)
    checker = _Checker(parsed, target, {st.c_name: st for st in (all_types or types)}, where)
    passed = checker.check(types)
    return checker.problems, passed


def check_headers(
    paths: Sequence[str],
    types: Sequence[SchemaType],
    target: Optional[str] = None,
    all_types: Optional[Sequence[SchemaType]] = None,
) -> Tuple[List[StructureProblem], List[SchemaType]]:
    """``check_header_set`` on header files ``paths`` (read here; one target)."""
    target = target or target_of_header(paths[0])
    return check_header_set(HeaderSet.from_paths(paths), types, target, all_types)
