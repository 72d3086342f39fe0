"""Schema declarations written back as text: JSON, TOML, OCaml or C (SPEC §3's four forms).

Each writer takes a ``ModuleDecl`` (what any front end produced) and returns text that the
matching reader reads back to the same declarations, type expressions spelled as written
(``point``, ``Geometry.point``, ``float32 vector``). Used by ``import-c`` (C → TOML/JSON) and
by the tests that check that all forms mean the same thing.

Limits, each a ``ValueError`` (never silently different text):
* OCaml: the module is the file's stem, so it cannot be ``""``; type and field names must
  start with a lowercase letter, constructor names with a capital, and none may be an OCaml
  keyword; the extension scalars (``int8``, ``int16``, ``uint16``, ``uint32``, ``uint64``) are
  no Sarek element types, so a module using one cannot be written as a Sarek source.
* C: the text is a plain declaration of the types (natural C layout, which is Sarek's on
  x86-64), not the ABI-pinned header ``generate`` writes; ``array``/``vector`` members cannot
  be written, and ``bool``/``unit`` become ``int32_t`` (C has no 4-byte bool), so they read
  back as ``int32``; ``float16`` members are ``sarek_layout_float16``, whose typedef the text
  declares as generated headers do. Fixed arrays are C arrays (``float m[4][4]``, ``char
  name[32]``); an enum of base int32 is ``typedef enum <C name> { <C name>_<Value> = v, … }
  <C name>;`` (C gives an enum an int's size: another base cannot be written); a type of the
  ``cuda`` rules writes its vectors as CUDA's vector types (``float4``, from
  ``<vector_types.h>``), which the C reader reads back as vectors of that rule set (the
  structs connected to such a type by holding are ``cuda`` too, ``frontends.c.namespace``);
  matrices, and vectors under other rules, cannot be written (C has no such types). The
  module is the header's stem: write the file as ``file_name(m, "c")``.
"""

from __future__ import annotations

import json
from typing import Callable, Dict, List, Optional, Tuple

from .ir.schema import (
    ArrayType,
    ContainerType,
    EnumDecl,
    MatrixType,
    ModuleDecl,
    NamedType,
    RecordDecl,
    TypeDecl,
    TypeExpr,
    VariantDecl,
    VectorType,
    c_name_of,
)
from .targets.naming import FLOAT16_TYPEDEF, arm_name
from .ir.types import TInt32, scalar_named

#: The rule set whose vectors C spells as CUDA's vector types, and the header declaring them.
_CUDA_RULES = "cuda"
_CUDA_VECTOR_TYPES = "vector_types.h"

__all__ = ["to_json", "to_toml", "to_ocaml", "to_c", "file_name", "WRITERS", "SUFFIXES"]

#: Format name -> file suffix.
SUFFIXES = {"json": ".json", "toml": ".toml", "ocaml": ".ml", "c": ".h"}


def file_name(module: str, fmt: str) -> str:
    """A file name whose default module (the stem, capitalised) is ``module``.

    ``Geometry`` → ``geometry.ml``; JSON and TOML name their module inside, so any name would
    do, but the same stem keeps the forms side by side. ``""`` (no module) gives ``types``.
    """
    stem = (module[:1].lower() + module[1:]) if module else "types"
    return stem + SUFFIXES[fmt]


def _members(decl: TypeDecl) -> List[TypeExpr]:
    if isinstance(decl, RecordDecl):
        return [f.type for f in decl.fields]
    if isinstance(decl, EnumDecl):
        return []
    return [a for c in decl.ctors for a in c.args]


#: The member kinds of SPEC §1b: extensions, with no Sarek ``.ml`` spelling.
_EXTENSION_EXPRS = (ArrayType, VectorType, MatrixType)


# --- JSON and TOML ---------------------------------------------------------------------------


def _json_entry(decl: TypeDecl) -> Dict[str, object]:
    entry: Dict[str, object]
    if isinstance(decl, RecordDecl):
        entry = {"record": decl.name, "fields": [[f.name, str(f.type)] for f in decl.fields]}
    elif isinstance(decl, EnumDecl):
        entry = {"enum": decl.name, "base": decl.base,
                 "values": [[v.name, v.value] for v in decl.values]}
    else:
        entry = {
            "variant": decl.name,
            "constructors": [[c.name, [str(a) for a in c.args]] for c in decl.ctors],
        }
    if decl.rules is not None:
        entry["rules"] = decl.rules
    return entry


def to_json(module: ModuleDecl) -> str:
    """The canonical JSON form: one line per type."""
    lines = ["{", f'  "module": {json.dumps(module.name)},']
    if module.rules != "c":
        lines.append(f'  "rules": {json.dumps(module.rules)},')
    lines.append('  "types": [')
    entries = [json.dumps(_json_entry(d)) for d in module.decls]
    lines.extend(f"    {e}{',' if i + 1 < len(entries) else ''}" for i, e in enumerate(entries))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def to_toml(module: ModuleDecl, comment: Optional[str] = None) -> str:
    """The TOML form: ``module`` then one ``[[types]]`` table per type, members one a line."""
    lines = []
    if comment:
        lines.extend(f"# {line}".rstrip() for line in comment.splitlines())
    lines.append(f"module = {_toml_str(module.name)}")
    if module.rules != "c":
        lines.append(f"rules = {_toml_str(module.rules)}")
    for decl in module.decls:
        lines += ["", "[[types]]"]
        if isinstance(decl, RecordDecl):
            lines.append(f"record = {_toml_str(decl.name)}")
            items = [f"[{_toml_str(f.name)}, {_toml_str(str(f.type))}]" for f in decl.fields]
            key = "fields"
        elif isinstance(decl, EnumDecl):
            lines.append(f"enum = {_toml_str(decl.name)}")
            lines.append(f"base = {_toml_str(decl.base)}")
            items = [f"[{_toml_str(v.name)}, {v.value}]" for v in decl.values]
            key = "values"
        else:
            lines.append(f"variant = {_toml_str(decl.name)}")
            items = []
            for c in decl.ctors:
                if c.args:
                    args = ", ".join(_toml_str(str(a)) for a in c.args)
                    items.append(f"[{_toml_str(c.name)}, [{args}]]")
                else:
                    items.append(f"[{_toml_str(c.name)}]")
            key = "constructors"
        if decl.rules is not None:
            lines.append(f"rules = {_toml_str(decl.rules)}")
        if items:
            lines.append(f"{key} = [")
            lines.extend(f"  {item}," for item in items)
            lines.append("]")
        else:
            lines.append(f"{key} = []")
    return "\n".join(lines) + "\n"


# --- OCaml -----------------------------------------------------------------------------------

_OCAML_KEYWORDS = frozenset(
    """and as assert asr begin class constraint do done downto else end exception external
    false for fun function functor if in include inherit initializer land lazy let lor lsl lsr
    lxor match method mod module mutable new nonrec object of open or private rec sig struct
    then to true try type val virtual when while with effect""".split()
)


def _ocaml_name(name: str, kind: str, capital: bool) -> str:
    ok = bool(name) and name.isidentifier() and name.isascii() and name not in _OCAML_KEYWORDS
    if ok:
        first = name[0]
        ok = first.isupper() if capital else (first.islower() or (first == "_" and len(name) > 1))
    if not ok:
        case = "a capital letter" if capital else "a lowercase letter"
        raise ValueError(
            f"{kind} {name!r} cannot be written in OCaml (it must start with {case} and not "
            f"be a keyword)"
        )
    return name


def _ocaml_type(expr: TypeExpr, where: str = "") -> str:
    if isinstance(expr, _EXTENSION_EXPRS):
        raise ValueError(
            f"{where or 'a member'} is {expr}, a member kind of sarek-layout's extensions (SPEC "
            f"§1b) that Sarek has no element type for: a schema using it cannot be written as a "
            f"Sarek .ml (write it as JSON, TOML or C)")
    if isinstance(expr, ContainerType):
        return f"{_ocaml_type(expr.elem, where)} {expr.kind}"
    if expr.module is not None:
        _ocaml_name(expr.module, "module", capital=True)
    scalar = scalar_named(expr.name) if expr.module is None else None
    if scalar is not None and scalar.extension:
        raise ValueError(
            f"{where or 'a member'} is {scalar.name}, a sarek-layout extension scalar and not a "
            f"Sarek element type: a schema using it cannot be written as a Sarek .ml (write it "
            f"as JSON, TOML or C)")
    return str(expr)


def to_ocaml(module: ModuleDecl, comment: Optional[str] = None) -> str:
    """An OCaml source: one ``[@@sarek.type]`` declaration per type."""
    if not module.name:
        raise ValueError(
            "an OCaml source always defines a module (its file's stem); module '' cannot be written"
        )
    lines = []
    if comment:
        lines.append(f"(* {comment} *)")
        lines.append("")
    if module.rules != "c":
        raise ValueError(
            f"module {module.name} is laid out by the {module.rules} rules, a sarek-layout "
            f"extension (SPEC §1b): Sarek lays out by its own, so it cannot be written as a "
            f"Sarek .ml (write it as JSON, TOML or C)")
    for decl in module.decls:
        if isinstance(decl, EnumDecl) or decl.rules not in (None, "c"):
            what = "an enum" if isinstance(decl, EnumDecl) else f"laid out by the {decl.rules} rules"
            raise ValueError(
                f"type {decl.name!r} is {what}, a sarek-layout extension (SPEC §1b) Sarek has "
                f"no element type for: it cannot be written as a Sarek .ml (write it as JSON, "
                f"TOML or C)")
        name = _ocaml_name(decl.name, "type name", capital=False)
        if isinstance(decl, RecordDecl):
            lines.append(f"type {name} = {{")
            for f in decl.fields:
                lines.append(
                    f"  {_ocaml_name(f.name, 'field name', capital=False)} : "
                    f"{_ocaml_type(f.type, f'{decl.name}.{f.name}')};"
                )
            lines.append("}")
        else:
            if not decl.ctors:
                raise ValueError(
                    f"variant {decl.name!r} has no constructors; OCaml cannot write it"
                )
            lines.append(f"type {name} =")
            for c in decl.ctors:
                ctor = _ocaml_name(c.name, "constructor name", capital=True)
                if c.args:
                    ctor += " of " + " * ".join(_ocaml_type(a, f"{decl.name}.{c.name}._{i}")
                                                for i, a in enumerate(c.args))
                lines.append(f"  | {ctor}")
        lines.append("[@@sarek.type]")
        lines.append("")
    return "\n".join(lines)


# --- C ---------------------------------------------------------------------------------------


def _c_order(module: ModuleDecl) -> List[TypeDecl]:
    """Declarations ordered so that each follows the same-module types it contains."""
    by_name = {d.name: d for d in module.decls}
    done: set = set()
    ordered: List[TypeDecl] = []
    for root in module.decls:
        stack = [(root, iter(_members(root)))]
        if root.name in done:
            continue
        on_stack = {root.name}
        while stack:
            decl, it = stack[-1]
            for expr in it:
                if (
                    isinstance(expr, NamedType)
                    and expr.module in (None, module.name)
                    and expr.name in by_name
                    and expr.name not in done
                    and expr.name not in on_stack
                ):
                    child = by_name[expr.name]
                    on_stack.add(child.name)
                    stack.append((child, iter(_members(child))))
                    break
            else:
                stack.pop()
                done.add(decl.name)
                ordered.append(decl)
    return ordered


def _c_member(module: ModuleDecl, expr: TypeExpr, name: str, where: str, rules: str) -> str:
    """The declaration of the member ``name`` of type ``expr``: ``float m[4][4]``."""
    dims = ""
    while isinstance(expr, ArrayType):
        dims += f"[{expr.count}]"
        expr = expr.elem
    return f"{_c_member_type(module, expr, where, rules)} {name}{dims}"


def _cuda_vector_spelling(expr: VectorType, where: str) -> str:
    """CUDA's name of the vector ``expr`` (``vec4<float32>`` is ``float4``)."""
    from .frontends.c.vectors import CUDA_COMPONENTS

    for stem, component in CUDA_COMPONENTS.items():
        if component.name == expr.elem:
            return f"{stem}{expr.n}"
    raise ValueError(f"{where} is {expr}, which CUDA has no vector type for")


def _c_member_type(module: ModuleDecl, expr: TypeExpr, where: str, rules: str = "c") -> str:
    """How a C header spells a member (or an array's element) of type ``expr``
    (``ValueError`` for a container, which has no C member form)."""
    if isinstance(expr, ContainerType):
        raise ValueError(f"{where} is a {expr.kind}, which has no C member form")
    if isinstance(expr, VectorType) and rules == _CUDA_RULES:
        return _cuda_vector_spelling(expr, where)
    if isinstance(expr, _EXTENSION_EXPRS):
        raise ValueError(f"{where} is {expr}, which C has no type for (a vector is written, "
                         f"as CUDA's, only in a type of the cuda rules); write the schema as JSON "
                         f"or TOML")
    scalar = scalar_named(expr.name) if expr.module is None else None
    if scalar is not None:
        from .targets.dialects import C

        return C.scalar[scalar.name]
    if expr.module is None or expr.module == module.name:
        return c_name_of(module.name, expr.name)
    return c_name_of(expr.module, expr.name)


def _c_includes(module: ModuleDecl) -> Tuple[List[str], bool]:
    """The headers ``module`` includes (CUDA's vector types, the other modules it uses), and
    whether it stores a float16."""
    includes: List[str] = []
    uses_float16 = False
    for decl in module.decls:
        for expr in _members(decl):
            while isinstance(expr, (ContainerType, ArrayType)):
                expr = expr.elem
            if isinstance(expr, VectorType) and _CUDA_VECTOR_TYPES not in includes:
                includes.insert(0, _CUDA_VECTOR_TYPES)
            if not isinstance(expr, NamedType):
                continue
            scalar = scalar_named(expr.name) if expr.module is None else None
            uses_float16 = uses_float16 or (scalar is not None and scalar.half_float)
            if expr.module not in (None, module.name):
                include = file_name(expr.module, "c")
                if include not in includes:
                    includes.append(include)
    return includes, uses_float16


def _c_enum(module: ModuleDecl, decl: EnumDecl) -> str:
    """``typedef enum <C name> { <C name>_<Value> = v, … } <C name>;`` (SPEC §1b's names)."""
    c_name = c_name_of(module.name, decl.name)
    if decl.base not in (TInt32.name, "int"):
        raise ValueError(f"enum {decl.name!r} has base {decl.base}: C gives an enum the size of "
                         f"an int, so only an int32 enum can be written in C")
    values = ", ".join(f"{c_name}_{v.name} = {v.value}" for v in decl.values)
    return f"typedef enum {c_name} {{ {values} }} {c_name};"


def _c_body(module: ModuleDecl, decl: TypeDecl) -> List[str]:
    """The struct of ``decl`` (and a variant's enum constants)."""
    c_name = c_name_of(module.name, decl.name)
    rules = decl.rules or module.rules
    lines = [f"struct {c_name} {{"]
    if isinstance(decl, RecordDecl):
        for f in decl.fields:
            member = _c_member(module, f.type, f.name, f"field {f.name!r} of {decl.name!r}", rules)
            lines.append(f"    {member};")
    else:
        lines.append("    int32_t tag;")
        arms = [c for c in decl.ctors if c.args]
        if arms:
            lines.append("    union {")
            for c in arms:
                if len(c.args) == 1:  # the one argument is the arm itself (SPEC §4)
                    spelled = _c_member(module, c.args[0], arm_name(c.name),
                                        f"argument 0 of {c.name!r}", rules)
                    lines.append(f"        {spelled};")
                    continue
                lines.append("        struct {")
                for i, a in enumerate(c.args):
                    spelled = _c_member(module, a, f"_{i}", f"argument {i} of {c.name!r}", rules)
                    lines.append(f"            {spelled};")
                lines.append(f"        }} {arm_name(c.name)};")
            lines.append("    } data;")
    lines.append("};")
    if isinstance(decl, VariantDecl):
        constants = ", ".join(f"{c_name}_{c.name} = {i}" for i, c in enumerate(decl.ctors))
        lines.append(f"enum {{ {constants} }};")
    return lines


def to_c(module: ModuleDecl, comment: Optional[str] = None) -> str:
    """A C header declaring the types as ``typedef struct``s (variants in SPEC §4's shape) and
    ``typedef enum``s."""
    for decl in module.decls:
        if (decl.rules or module.rules) not in ("c", _CUDA_RULES):
            raise ValueError(f"type {decl.name!r} is laid out by the {decl.rules or module.rules} "
                             f"rules, which C does not follow (write the schema as JSON or TOML)")
    includes, uses_float16 = _c_includes(module)
    guard = f"SAREK_SCHEMA_{(module.name or 'TYPES').upper()}_H"
    lines = []
    if comment:
        lines += [f"/* {comment} */"]
    lines += [f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>"]
    lines += [f'#include "{inc}"' for inc in includes]
    lines.append("")
    if uses_float16:
        # The typedef generated headers declare: float16 members hold binary16 bits.
        lines += ["#ifndef SAREK_LAYOUT_FLOAT16", "#define SAREK_LAYOUT_FLOAT16",
                  f"typedef uint16_t {FLOAT16_TYPEDEF};", "#endif", ""]
    # Typedefs first, in declaration order (the order the reader reports; an enum is defined
    # there whole, C has no incomplete enum), then the struct bodies in dependency order, as
    # C needs a member's type complete before its use.
    lines += [
        _c_enum(module, d) if isinstance(d, EnumDecl) else
        f"typedef struct {c_name_of(module.name, d.name)} {c_name_of(module.name, d.name)};"
        for d in module.decls
    ]
    lines.append("")
    for decl in _c_order(module):
        if not isinstance(decl, EnumDecl):
            lines += _c_body(module, decl)
            lines.append("")
    lines.append(f"#endif /* {guard} */")
    return "\n".join(lines) + "\n"


#: Format name -> writer.
WRITERS: Dict[str, Callable[[ModuleDecl], str]] = {
    "json": to_json,
    "toml": to_toml,
    "ocaml": to_ocaml,
    "c": to_c,
}
