"""The structural check of a header someone wrote (or committed), before any compiler runs.

The header is preprocessed with ``cpp -nostdinc`` and a tiny folder of stand-in libc headers
of our own (pycparser ships none), then parsed with pycparser. Every schema type must be
declared under its C name as a struct in the SPEC §4 shape: records with their fields in
order, variants with ``tag`` and a union ``data`` of ``<Ctor>_v`` arms holding ``_0``, ``_1``…
Members whose names start with ``_sarek_`` are padding and are skipped, and so are static
assertions, enums and helper functions, so hand-written headers may have them or not.

Scalar members must have a spelling that means the schema's scalar on every ABI of the
header's target (``int32_t``/``int``, ``int64_t``/``long long``, ``float``, ``double``; in
OpenCL C ``int``/``long``); the messages say what the header has against what the schema
says, and why a near miss (``long``, ``bool``, OpenCL ``long long``) is wrong. A member of
record type must be the very struct the header declares under the C name the schema's
declaration names (``B.point`` is ``B_point``, even when ``A_point`` has the same fields).

The check also decides what the compilers may probe: a type is left out of the compile when
a probe of it could not compile (a member missing or of the wrong kind), and so is every
type that contains such a type, so that one broken record does not cost the other types
their numbers.

The preprocessor works on the same copies of the headers the compilers see, in a
``headers.CompileFolder``, under ``tools.run_tool``'s bounds, and the preprocessed text it
may hand to pycparser is bounded too (pycparser reads about 0.3 MB/s).
"""

from __future__ import annotations

import os
import re
import shutil
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ..errors import SchemaError, ToolchainMissing, UsageError
from ..ir.schema import NamedType, SchemaType, SourceLocation, c_name_of
from ..ir.types import Scalar, TRecord
from .compare import StructureProblem
from .headers import CompileFolder, HeaderSet, shown
from .tools import memory_limit_mb, run_tool

__all__ = ["check_headers", "check_header_set", "target_of_header", "HEADER_SUFFIXES",
           "ParsedHeaders", "parse_headers", "MAX_PREPROCESSED"]

#: The most preprocessed text the check parses (about two minutes of pycparser).
MAX_PREPROCESSED = 32 << 20
#: The preprocessor needs about 0.5 GB for the 95 MB conformance header.
PREPROCESS_MEMORY_MB = 4096

#: Header suffix -> target whose toolchains compile it.
HEADER_SUFFIXES = {
    ".h": "c", ".hh": "c", ".hpp": "c", ".hxx": "c",
    ".cuh": "cuda", ".cu": "cuda",
    ".clh": "opencl", ".cl": "opencl",
}

PADDING_PREFIX = "_sarek_"

_FAKE_LIBC = {
    "stdint.h": (
        "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
        "typedef long long int64_t; typedef unsigned char uint8_t; typedef unsigned short uint16_t;\n"
        "typedef unsigned int uint32_t; typedef unsigned long long uint64_t;\n"
        "typedef long intptr_t; typedef unsigned long uintptr_t;\n"
    ),
    "stddef.h": "typedef unsigned long size_t; typedef long ptrdiff_t;\n#define NULL 0\n",
    "assert.h": "#define static_assert _Static_assert\n#define assert(x)\n",
    "stdbool.h": "#define bool _Bool\n#define true 1\n#define false 0\n",
    "string.h": ("typedef unsigned long size_t;\nvoid *memset(void *, int, size_t);\n"
                 "void *memcpy(void *, const void *, size_t);\n"),
}

_OPENCL_PRELUDE = (
    "typedef unsigned char uchar; typedef unsigned short ushort; typedef unsigned int uint;\n"
    "typedef unsigned long ulong; typedef unsigned long size_t; typedef short half;\n"
)

_COMMON_DEFINES = [
    "-D__attribute__(x)=", "-D__extension__=", "-D__restrict=", "-D__inline=inline",
    "-D__builtin_offsetof=offsetof", "-D__alignof__=_Alignof", "-D__asm__(x)=",
]

_TARGET_DEFINES = {
    "c": [],
    "cuda": ["-D__CUDACC__=1", "-D__host__=", "-D__device__=", "-D__global__=",
             "-D__forceinline__=inline", "-D__align__(x)=_Alignas(x)",
             "-Dstatic_assert=_Static_assert", "-Dalignas=_Alignas", "-Dalignof=_Alignof",
             "-Dconstexpr=const"],
    "opencl": ["-D__OPENCL_C_VERSION__=120", "-D__OPENCL_VERSION__=120", "-Dcl_khr_fp64=1",
               "-D__kernel=", "-D__global=", "-D__constant=const", "-D__local=",
               "-D__private=", "-Dkernel=", "-Dglobal=", "-Dconstant=const"],
}

#: schema scalar -> spellings that mean it on every ABI of the target.
_ACCEPTED = {
    "c": {"int32": {"int32_t", "int"}, "bool": {"int32_t", "int"}, "unit": {"int32_t", "int"},
          "int64": {"int64_t", "long long"}, "float32": {"float"}, "float64": {"double"}},
    "opencl": {"int32": {"int"}, "bool": {"int"}, "unit": {"int"}, "int64": {"long"},
               "float32": {"float"}, "float64": {"double"}},
}
_ACCEPTED["cuda"] = _ACCEPTED["c"]

#: Near misses worth explaining: (target, what the header says) -> why it is wrong.
_WHY = {
    ("c", "long"): "long is 4 bytes on i386 and armhf",
    ("cuda", "long"): "long is 4 bytes on 32-bit hosts",
    ("opencl", "long long"): "long long is 16 bytes in OpenCL C",
    ("c", "_Bool"): "C bool is 1 byte, a Sarek bool is 4",
    ("cuda", "_Bool"): "C++ bool is 1 byte, a Sarek bool is 4",
    ("opencl", "_Bool"): "OpenCL C bool has no storable size",
}

#: The spelling to suggest for each schema scalar.
_SUGGEST = {
    "c": {"int32": "int32_t", "bool": "int32_t", "unit": "int32_t", "int64": "int64_t",
          "float32": "float", "float64": "double"},
    "opencl": {"int32": "int", "bool": "int", "unit": "int", "int64": "long",
               "float32": "float", "float64": "double"},
}
_SUGGEST["cuda"] = _SUGGEST["c"]


def target_of_header(path: str) -> str:
    """``c``, ``cuda`` or ``opencl`` from the header's suffix (``UsageError`` otherwise)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in HEADER_SUFFIXES:
        known = ", ".join(sorted(HEADER_SUFFIXES))
        raise UsageError(f"{shown(path)}: cannot tell the header's target from its suffix "
                         f"{suffix or '(none)'!r}; expected one of {known}")
    return HEADER_SUFFIXES[suffix]


def _preprocessor() -> List[str]:
    for cmd in (["cpp"], ["gcc", "-E"], ["clang", "-E"]):
        if shutil.which(cmd[0]):
            return cmd
    raise ToolchainMissing("the header structure check needs a C preprocessor (cpp, gcc or "
                           "clang); apt-get install -y cpp")


_FAKE_DIR = "sarek_fake_libc"


def _lay_out_fake_libc(folder: CompileFolder) -> None:
    os.mkdir(folder.absolute(_FAKE_DIR))
    for name, text in {**_FAKE_LIBC, "opencl_prelude.h": _OPENCL_PRELUDE}.items():
        with open(folder.absolute(f"{_FAKE_DIR}/{name}"), "w") as f:
            f.write(text)


def _preprocess(folder: CompileFolder, name: str, target: str) -> str:
    """Header ``name`` of ``folder``, preprocessed (``SchemaError`` when that fails)."""
    where = SourceLocation(folder.headers.origin(name))
    argv = [*_preprocessor(), "-std=c11", "-nostdinc", "-undef", f"-I{_FAKE_DIR}",
            *folder.include_flags(), *_COMMON_DEFINES, *_TARGET_DEFINES[target]]
    if target == "opencl":
        argv += ["-include", f"{_FAKE_DIR}/opencl_prelude.h"]
    run = run_tool([*argv, folder.header(name)], cwd=folder.path, max_stdout=MAX_PREPROCESSED,
                   memory_mb=min(PREPROCESS_MEMORY_MB, memory_limit_mb()))
    if run.problem is not None and run.problem.startswith("stopped: its output"):
        raise SchemaError(f"the header is too large for the structure check: more than "
                          f"{MAX_PREPROCESSED >> 20} MiB after preprocessing", where)
    if not run.ok:
        lines = [ln for ln in folder.readable(run.stderr).splitlines() if ln.strip()]
        first = run.problem or (lines or ["preprocessing failed"])[0]
        raise SchemaError(f"cannot preprocess the header: {first.replace(_FAKE_DIR + '/', '')}",
                          where)
    return run.stdout


class ParsedHeaders:
    """The struct typedefs, struct tags and scalar typedefs of one or more parsed headers."""

    def __init__(self, readable: Callable[[str], str] = lambda path: path) -> None:
        self.typedefs: Dict[str, object] = {}  # name -> c_ast type node under the Typedef
        self.tags: Dict[str, object] = {}  # struct tag -> c_ast.Struct with its members
        self.locations: Dict[str, str] = {}
        #: Maps a file name in the preprocessor's line markers to the one to show.
        self.readable = readable

    def add(self, ast) -> None:
        from pycparser import c_ast

        for node in ast.ext:
            if isinstance(node, c_ast.Typedef):
                self.typedefs[node.name] = node.type
                self.locations[node.name] = self.where(node)
                self._note_tag(getattr(node.type, "type", None))
            elif isinstance(node, c_ast.Decl):
                self._note_tag(node.type)

    def _note_tag(self, t) -> None:
        from pycparser import c_ast

        if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.name and t.decls is not None:
            self.tags[t.name] = t

    def where(self, node) -> str:
        """``FILE:LINE:COL`` of a parsed node, naming the user's file."""
        coord = getattr(node, "coord", None)
        if coord is None:
            return ""
        return f"{self.readable(coord.file)}:{coord.line}:{coord.column or 1}"


def parse_headers(headers: HeaderSet, target: str) -> ParsedHeaders:
    """Preprocess and parse every header (``SchemaError`` with the place for bad C)."""
    from pycparser import CParser
    from pycparser.c_parser import ParseError

    with CompileFolder(headers, "sarek-verify-cpp-") as folder:
        _lay_out_fake_libc(folder)
        texts = [(name, _preprocess(folder, name, target)) for name in headers.includes]
        parsed = ParsedHeaders(folder.readable)
    for name, text in texts:
        parser = CParser()
        try:
            ast = parser.parse(text, f"headers/{name}")
        except ParseError as e:
            what = "cannot parse the header for the structure check"
            m = re.match(r"^(.*?):(\d+):(\d+): (.*)$", str(e))
            if m:
                raise SchemaError(f"{what}: {m.group(4)}",
                                  SourceLocation(parsed.readable(m.group(1)), int(m.group(2)),
                                                 int(m.group(3)))) from None
            # Some pycparser errors carry only the file name: take the line the lexer was on.
            lexer = getattr(parser, "clex", None)
            line = getattr(lexer, "_lineno", 0) or 0
            where = getattr(lexer, "filename", None) or f"headers/{name}"
            message = str(e).split(": ", 1)[-1]
            raise SchemaError(f"{what}: {message}",
                              SourceLocation(parsed.readable(where), line, 1)) from None
        parsed.add(ast)
    return parsed


# --- spelling a member's type ----------------------------------------------------------------


def _canonical(names: Sequence[str]) -> str:
    """``['long', 'long', 'int']`` → ``long long``; ``['signed']`` → ``int``."""
    words = list(names)
    unsigned = "unsigned" in words
    words = [w for w in words if w not in ("signed", "unsigned")]
    longs = words.count("long")
    if longs or "short" in words:
        words = [w for w in words if w != "int"]
    if not words:
        words = ["int"]
    base = " ".join(words) if not longs else " ".join(["long"] * longs + [w for w in words if w != "long"])
    return ("unsigned " + base) if unsigned else base


class _Spelled:
    """A member type as the header spells it: a scalar name, a struct, or something else."""

    def __init__(self, text: str, struct=None, kind: str = "scalar") -> None:
        self.text = text
        self.struct = struct  # c_ast.Struct / c_ast.Union with members, when known
        self.kind = kind  # "scalar" | "struct" | "union" | "other"


def _spell(t, parsed: ParsedHeaders, accepted: Iterable[str] = ()) -> _Spelled:
    """Spell the type of a member declaration, resolving the header's own typedefs."""
    from pycparser import c_ast

    if isinstance(t, c_ast.ArrayDecl):
        inner = _spell(t.type, parsed, accepted)
        dim = getattr(t.dim, "value", "")
        return _Spelled(f"{inner.text}[{dim}]", kind="other")
    if isinstance(t, c_ast.PtrDecl):
        return _Spelled(f"{_spell(t.type, parsed, accepted).text} *", kind="other")
    if isinstance(t, c_ast.TypeDecl):
        t = t.type
    if isinstance(t, (c_ast.Struct, c_ast.Union)):
        kind = "struct" if isinstance(t, c_ast.Struct) else "union"
        body = t if t.decls is not None else parsed.tags.get(t.name or "")
        return _Spelled(f"{kind} {t.name}" if t.name else kind, body, kind)
    if isinstance(t, c_ast.IdentifierType):
        text = _canonical(t.names)
        seen = set()
        # Follow the header's own typedefs (myfloat -> float), but stop at a name the target
        # accepts as it is (int32_t) and at schema struct typedefs (Geometry_point).
        while text in parsed.typedefs and text not in accepted and text not in seen:
            seen.add(text)
            target = parsed.typedefs[text]
            resolved = _spell(target, parsed, accepted)
            if resolved.kind in ("struct", "union"):
                return _Spelled(text, resolved.struct, resolved.kind)
            text = resolved.text
        return _Spelled(text)
    return _Spelled(type(t).__name__, kind="other")


def _members(body) -> List[object]:
    """The non-padding member declarations of a struct or union body."""
    from pycparser import c_ast

    return [d for d in (body.decls or []) if isinstance(d, c_ast.Decl)
            and d.name is not None and not d.name.startswith(PADDING_PREFIX)]


# --- the check -------------------------------------------------------------------------------


def _declared_c_name(st: SchemaType, expr) -> Optional[str]:
    """The C name of the type a member's declaration names (``None`` for a scalar).

    From the declaration, not the elttype: two modules may declare structurally equal
    records, which compare equal as elttypes but are distinct C types (as in codegen).
    """
    if not isinstance(expr, NamedType):
        return None
    return c_name_of(expr.module if expr.module is not None else st.module, expr.name)


class _Checker:
    def __init__(self, parsed: ParsedHeaders, target: str, by_name: Dict[str, SchemaType],
                 where_missing: str) -> None:
        self.parsed = parsed
        self.target = target
        self.accepted = _ACCEPTED[target]
        self.all_accepted = set().union(*self.accepted.values())
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
        if c not in self.parsed.typedefs:
            shape = "its fields" if isinstance(st.elttype, TRecord) else "tag and data"
            self.problems.append(StructureProblem(
                self.where_missing, f"{c}: not declared in the header (schema type "
                f"{st.qualified_name}, a {st.kind}; expected `typedef struct {c} {{…}} {c};` "
                f"with {shape})"))
            return False
        spelled = _spell(self.parsed.typedefs[c], self.parsed, self.all_accepted)
        place = self.parsed.locations.get(c, "")
        if spelled.kind != "struct" or spelled.struct is None:
            what = "an incomplete struct" if spelled.kind == "struct" else spelled.text
            self.problem(place, f"{c}: header declares {what}, schema says a struct ({st.kind})")
            return False
        body = spelled.struct
        if isinstance(st.elttype, TRecord):
            fields = [(name, t, _declared_c_name(st, d.type))
                      for (name, t), d in zip(st.elttype.fields, st.decl.fields)]  # type: ignore[union-attr]
            self.check_members(c, "", body, fields, place)
        else:
            self.check_variant(st, body, place)
        return self.probeable

    def check_variant(self, st: SchemaType, body, place: str) -> None:
        c = st.c_name
        ctors = st.elttype.ctors  # type: ignore[union-attr]
        arms = [(f"{name}_v", [(f"_{i}", a, _declared_c_name(st, e))
                               for i, (a, e) in enumerate(zip(args, decl.args))])
                for (name, args), decl in zip(ctors, st.decl.ctors) if args]  # type: ignore[union-attr]
        from ..ir.types import TInt32

        expected: List[str] = ["tag"] + (["data"] if arms else [])
        found = self.check_names(c, "", body, expected, place)
        if found is None:
            return
        self.check_member_type(c, "tag", found["tag"], TInt32, None)
        if not arms:
            return
        data = found["data"]
        spelled = _spell(data.type, self.parsed, self.all_accepted)
        if spelled.kind != "union" or spelled.struct is None:
            self.probeable = False
            self.problem(data, f"{c}.data: header says {spelled.text}, schema says a union of the "
                               f"constructors with arguments ({', '.join(a for a, _ in arms)})")
            return
        arm_decls = self.check_names(c, "data.", spelled.struct, [a for a, _ in arms],
                                     self.parsed.where(data))
        if arm_decls is None:
            return
        for arm, args in arms:
            decl = arm_decls[arm]
            arm_type = _spell(decl.type, self.parsed, self.all_accepted)
            if arm_type.kind != "struct" or arm_type.struct is None:
                self.probeable = False
                self.problem(decl, f"{c}.data.{arm}: header says {arm_type.text}, schema says a "
                                   f"struct of the constructor's arguments")
                continue
            self.check_members(c, f"data.{arm}.", arm_type.struct, args, self.parsed.where(decl))

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

    def check_members(self, c: str, prefix: str, body,
                      fields: List[Tuple[str, object, Optional[str]]], place: str) -> None:
        """``fields`` are (name, elttype, C name of the record the declaration names)."""
        decls = self.check_names(c, prefix, body, [n for n, _, _ in fields], place)
        if decls is None:
            return
        for name, t, record in fields:
            self.check_member_type(c, prefix + name, decls[name], t, record)

    def check_member_type(self, c: str, path: str, decl, t, record: Optional[str]) -> None:
        if getattr(decl, "bitsize", None) is not None:
            # offsetof cannot name a bit-field: its probes would not compile.
            self.probeable = False
            self.problem(decl, f"{c}.{path}: header declares a bit-field, schema says a whole "
                               f"{t.name if isinstance(t, Scalar) else 'record'}")
            return
        spelled = _spell(decl.type, self.parsed, self.all_accepted)
        if isinstance(t, Scalar):
            if spelled.kind == "scalar" and spelled.text in self.accepted[t.name]:
                return
            why = _WHY.get((self.target, spelled.text)) if t.name not in ("float32", "float64") \
                else None
            write = f"write {_SUGGEST[self.target][t.name]}"
            hint = f" ({why}: {write})" if why else f" ({write})"
            self.problem(decl, f"{c}.{path}: header says {spelled.text}, schema says {t.name}{hint}")
            return
        if isinstance(t, TRecord):
            nested = record or t.name
            self._uses.add(nested)
            expected = self._record_body(nested)
            if expected is None:
                # Not declared as a struct: its own check says so, and this type is left
                # out with it. Only a spelling that names something else is worth a word.
                ok = spelled.text in (nested, f"struct {nested}")
            else:
                ok = spelled.struct is expected
            if not ok:
                self.probeable = False
                self.problem(decl, f"{c}.{path}: header says {spelled.text}, schema says "
                                   f"{nested} (record {t.name})")

    def _record_body(self, c_name: str):
        """The struct body the header declares under ``c_name`` (``None`` if it does not)."""
        if c_name not in self._bodies:
            body = None
            if c_name in self.parsed.typedefs:
                spelled = _spell(self.parsed.typedefs[c_name], self.parsed, self.all_accepted)
                if spelled.kind == "struct":
                    body = spelled.struct
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
