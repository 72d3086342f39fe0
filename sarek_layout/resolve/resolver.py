"""Resolve stage: from declarations to a resolved, laid-out ``Schema``, the checks every
front end shares.

Front ends only parse. Everything SPEC §3 refuses that does not depend on the input syntax is
decided here, once, in a fixed order so that the same input always gives the same first
error: names (identifiers, the tool's own prefixes, duplicates), references (unknown types,
unknown module), recursion, nesting depth, C-name collisions, and finally the layout rules.
Whether a target can emit a name (a keyword, a predefined macro, a name its compiler declares)
is judged for the targets emitted, when they are (``targets.names.check_names``).

Every refusal of a type is collected, not only the first: the checks go on with the other
types and all are raised together (``SchemaErrors``, in the order above). A type refused is
*broken*; a type that uses a broken one is not checked further, so one root cause is reported
once (``b`` holding an unknown type is refused; ``c`` holding ``b`` is not reported again).
A problem with a module itself (its name, a module given twice) stops at once.

Module ``""`` (no C prefix) is one namespace, whatever the number of files that declare it: in
C every name without a prefix is in the one global namespace, so module-less files (C headers
read together, the schemas ``import-c`` writes for them) may use each other's types by bare
name, and a name declared in two of them is a duplicate. A bare name that a named module does
not declare is looked up in module ``""`` too (a C header with a prefix may use a type of one
without).

Walks are iterative and types are built and laid out in dependency order, so a chain of
thousands of nested records needs no deep Python recursion and each record is laid out once.
"""

from __future__ import annotations

import re
from typing import Dict, List, Sequence, Set, Tuple, Union

from ..errors import (LayoutError, SchemaError, UnsupportedField, layout_error_message, quoted,
                      raise_collected)
from ..targets.names import LAYOUT_ID_SUFFIXES, MAX_NAME_LENGTH, identifier_problem
from ..targets.naming import ARM_SUFFIX, arm_name, enum_constant, make_name
from ..ir.schema import (
    ArrayType,
    ContainerType,
    EnumDecl,
    MatrixType,
    ModuleDecl,
    NamedType,
    RecordDecl,
    Schema,
    SchemaType,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
    VectorType,
    c_name_of,
)
from ..ir.types import ALIASES as _ALIASES
from ..ir.types import (ELEMENT_SCALARS, SCALARS, ElementType, Scalar, TArray, TEnum, TFixedArray,
                        TFloat32, TMatrix, TRecord, TVariant, TVec, TVector)
from ..layout.core import Layout as CoreLayout
from ..layout.core import ScalarLayout, record_layout, variant_layout
from ..layout.members import members_of
from .declarations import check_shape as _check_shape, scalar_spelt as _scalar_spelt

__all__ = ["resolve", "MAX_NESTING"]

#: The first element of a resolved fixed array, ``(FIXED, count, inner)``.
FIXED = "[]"

#: A bare ``vecN``, ``matN`` or ``matCxR`` (SPEC §1b): the float32 vector or matrix, unless
#: the schema declares a type of that name (Sarek programs declare records ``vec3``).
_BARE_VECTOR_MATRIX = re.compile(r"(?:vec([234])|mat([234])(?:x([234]))?)\Z")

#: Deepest chain of records inside records accepted (real GPU element types nest a few levels).
MAX_NESTING = 100

#: Longest enum value name. Real C enums name their values beyond the 63 characters C
#: guarantees significant (Vulkan's ``VK_STRUCTURE_TYPE_…`` up to 84), and every compiler
#: that builds those headers reads them: an enum value may be this long.
MAX_ENUM_VALUE_LENGTH = 255


Key = Tuple[str, str]  # (module name, type name)


def _check_name(
    what: str, name: object, location: SourceLocation, file_scope: bool = False,
) -> None:
    """``name`` must be an identifier that no target's own names use. Whether each target can
    emit it (and the C names it is part of) is judged when a target is emitted, for that
    target (``targets.names.check_names``)."""
    problem = identifier_problem(name, file_scope=file_scope)
    if problem is not None and what == "enum value name" and isinstance(name, str) \
            and MAX_NAME_LENGTH < len(name) <= MAX_ENUM_VALUE_LENGTH:
        # the same judgement, of the name's first MAX_NAME_LENGTH characters and the rest
        rest = name[MAX_NAME_LENGTH:]
        problem = identifier_problem(name[:MAX_NAME_LENGTH], file_scope=file_scope) or (
            None if rest.isascii() and (rest.replace("_", "a").isalnum()) else
            "is not a valid identifier (letters, digits and '_', not starting with a digit)")
    if problem is not None:
        raise SchemaError(f"{what} {quoted(name)} {problem}; choose another name", location)


def _check_module(
    module: ModuleDecl, seen_modules: Dict[str, ModuleDecl],
    types_of_modules: Dict[str, Dict[str, TypeDecl]], errors: List[SchemaError],
    broken: Set[int], misnamed: Set[int],
) -> None:
    """Names and shapes of ``module``'s declarations, every refusal added to ``errors``: the
    ``id`` of a malformed declaration goes in ``broken``, of one with a bad name in
    ``misnamed``. A problem with the module itself is raised at once (with ``errors``).
    ``types_of_modules`` holds the types seen so far by module name: module ``""`` may be
    declared by several files, which share its names."""
    if module.name:
        problem = identifier_problem(module.name, file_scope=True)
        if problem is not None:
            raise_collected(errors + [SchemaError(
                f"module name {quoted(module.name)} {problem}; set \"module\" to a valid identifier",
                module.location,
            )])
    if module.name and module.name in seen_modules:
        other = seen_modules[module.name]
        raise_collected(errors + [SchemaError(
            f"module {module.name!r} is also defined by {other.path}; "
            f"give one of them another \"module\" name",
            module.location,
        )])
    seen_modules.setdefault(module.name, module)

    seen_types = types_of_modules.setdefault(module.name, {})
    fine_names: Set[str] = set()
    for decl in module.decls:
        # A type with a name that cannot be emitted is refused, but stays whole: its layout
        # and its users' are still checked (not its C names: that would say it twice). A
        # malformed one (a duplicate, nothing in it) is broken: it is not laid out, and its
        # users are not reported again.
        bad_name = _collect(errors, _check_name, "type name", decl.name, decl.location,
                            file_scope=True)
        malformed = _collect(errors, _check_shape, decl, seen_types)
        if decl.name not in seen_types:
            seen_types[decl.name] = decl
        members, what = _named_members(decl)
        seen: Dict[str, SourceLocation] = {}
        for member in members:
            name = member.name
            # Member names repeat across a module's types (x, y, f0…): a name already found
            # fine is fine again (the check depends on the name alone), so it is judged once.
            if type(name) is not str or name not in fine_names:
                bad = _collect(errors, _check_name, f"{what} name", name, member.location)
                if not bad and type(name) is str:
                    fine_names.add(name)
                bad_name |= bad
            if member.name in seen:
                malformed = True
                errors.append(SchemaError(
                    f"duplicate {what} {member.name!r} in {decl.name!r} (first at {seen[member.name]})",
                    member.location,
                ))
            seen.setdefault(member.name, member.location)
        if malformed:
            broken.add(id(decl))
        if bad_name:
            misnamed.add(id(decl))


def _collect(errors: List[SchemaError], check, *args, **kwargs) -> bool:
    """Run ``check``; a refusal is added to ``errors``. True when there was one."""
    try:
        check(*args, **kwargs)
    except SchemaError as e:
        errors.append(e.with_traceback(None))  # a kept traceback holds frames alive
        return True
    return False


def _named_members(decl: TypeDecl):
    """The named parts of ``decl`` (fields, constructors or enum values) and what they are."""
    if isinstance(decl, RecordDecl):
        return decl.fields, "field"
    if isinstance(decl, EnumDecl):
        return decl.values, "enum value"
    return decl.ctors, "constructor"


class _Resolver:
    def __init__(
        self, modules: Sequence[ModuleDecl], errors: List[SchemaError], broken_decls: Set[int],
        misnamed_decls: Set[int],
    ) -> None:
        self.modules = list(modules)
        self.errors = errors
        self.by_module: Dict[str, Dict[str, TypeDecl]] = {}
        self.module_of: Dict[Key, ModuleDecl] = {}
        #: Types refused (or using a refused one): not checked further, never laid out.
        self.broken: Set[Key] = set()
        #: Types with a name refused already: their C names are not judged again.
        self.misnamed: Set[Key] = set()
        #: Every type once, in declaration order (a duplicate, already refused, is left out).
        self.order: List[Key] = []
        #: Each module's input form (``ocaml`` sources cannot spell SPEC §1b's kinds).
        self.formats: Dict[str, str] = {m.name: m.format for m in self.modules}
        for module in self.modules:
            table = self.by_module.setdefault(module.name, {})
            for decl in module.decls:
                key = (module.name, decl.name)
                if decl.name in table:
                    continue
                table[decl.name] = decl
                self.module_of[key] = module
                self.order.append(key)
                if id(decl) in broken_decls:
                    self.broken.add(key)
                if id(decl) in misnamed_decls:
                    self.misnamed.add(key)

    def refuse(self, key: Key, error: SchemaError) -> None:
        self.errors.append(error)
        self.broken.add(key)

    # -- references -----------------------------------------------------------------------

    def _unknown(self, expr: NamedType, module: str) -> SchemaError:
        candidates = list(SCALARS) + list(_ALIASES) + list(self.by_module.get(module, {}))
        candidates += list(self.by_module.get("", {})) if module else []
        for other, table in self.by_module.items():
            if other != module and other:
                candidates.extend(f"{other}.{n}" for n in table)
        import difflib  # only for a refusal's hint (not at every start)

        spelt = _scalar_spelt(expr.name) if expr.module is None else None
        close = [spelt] if spelt else difflib.get_close_matches(str(expr), candidates, n=1,
                                                                 cutoff=0.75)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return SchemaError(f"unknown type {quoted(str(expr))}{hint}", expr.location)

    def resolve_expr(self, expr: TypeExpr, module: str) -> Union[ElementType, Key, tuple]:
        """A scalar, a vector or matrix elttype, a ``(module, name)`` key,
        ``("array"|"vector", inner)`` (Sarek's), or ``(FIXED, count, inner)``."""
        if isinstance(expr, ArrayType):
            elem = expr.elem
            if type(elem) is NamedType and elem.module is None and elem.name in ELEMENT_SCALARS:
                return (FIXED, expr.count, ELEMENT_SCALARS[elem.name])  # ``char[32]``
            return (FIXED, expr.count, self.resolve_expr(elem, module))
        if isinstance(expr, VectorType):
            return TVector(SCALARS[expr.elem], expr.n)
        if isinstance(expr, MatrixType):
            return TMatrix(SCALARS[expr.elem], expr.cols, expr.rows)
        if isinstance(expr, ContainerType):
            return (expr.kind, self.resolve_expr(expr.elem, module))
        if expr.module is None:
            if expr.name in SCALARS:
                return SCALARS[expr.name]
            if expr.name in _ALIASES:
                return _ALIASES[expr.name]
            if expr.name in self.by_module.get(module, {}):
                return (module, expr.name)
            if module and expr.name in self.by_module.get("", {}):
                return ("", expr.name)  # the module-less namespace, as C's global one
            if expr.name in ELEMENT_SCALARS:
                raise SchemaError(
                    f"{quoted(expr.name)} is only a byte string's element: write the string as "
                    f"a fixed array, `{expr.name}[32]` (a one-byte integer is int8 or uint8)",
                    expr.location)
            builtin = _BARE_VECTOR_MATRIX.match(expr.name)
            if builtin is not None and self.formats.get(module) != "ocaml":
                # ``vec3``, ``mat4``: no type of the schema has the name (a Sarek source
                # cannot mean the extension: there it stays an unknown type)
                n, cols, rows = builtin.groups()
                if n:
                    return TVector(TFloat32, int(n))
                return TMatrix(TFloat32, int(cols), int(rows or cols))
            raise self._unknown(expr, module)
        if expr.module not in self.by_module:
            known = ", ".join(sorted(m for m in self.by_module if m)) or "none"
            raise SchemaError(
                f"unknown module {expr.module!r} in type {str(expr)!r} (modules given: {known}); "
                f"pass its schema file on the same command line",
                expr.location,
            )
        if expr.name not in self.by_module[expr.module]:
            raise self._unknown(expr, module)
        return (expr.module, expr.name)

    # -- the whole schema -----------------------------------------------------------------

    def run(self) -> Schema:
        """The four phases, in the order their refusals are reported."""
        resolved, deps = self._resolve_references()
        post_order = self._dependency_order([k for k in self.order if k in deps], deps)
        self._check_names(resolved, deps)
        types = self._build_types(post_order, resolved, deps)
        raise_collected(self.errors)
        return Schema(tuple(self.modules), tuple(types[k] for k in self.order))

    def _resolve_references(self) -> Tuple[Dict[Key, list], Dict[Key, List[Key]]]:
        """Phase 1: every reference resolved (each member's expressions as scalars, keys or
        containers), and each type's direct dependencies."""
        resolved: Dict[Key, list] = {}
        deps: Dict[Key, List[Key]] = {}
        for key in self.order:
            if key in self.broken:
                continue
            decl = self.by_module[key[0]][key[1]]
            refs: list = []
            for exprs in _member_exprs(decl):
                refs.append([])
                for e in exprs:
                    # A bare scalar name (most members) is a look-up; the rest is resolved.
                    scalar = _BARE_SCALARS.get(e.name) if type(e) is NamedType and e.module is None else None
                    if scalar is not None:
                        refs[-1].append(scalar)
                        continue
                    try:
                        refs[-1].append(self.resolve_expr(e, key[0]))
                    except SchemaError as error:  # each unknown name is its own mistake
                        self.refuse(key, error.with_traceback(None))
            if key in self.broken:
                continue
            resolved[key] = refs
            found: List[Key] = []
            for exprs in refs:
                for r in exprs:
                    if type(r) is not Scalar:
                        _collect_keys(r, found)
            deps[key] = list(dict.fromkeys(found)) if found else []
        return resolved, deps

    # Phase 2 is ``_dependency_order``: recursion, nesting depth, and a dependency order.

    def _check_names(self, resolved: Dict[Key, list], deps: Dict[Key, List[Key]]) -> None:
        """Phase 3: C names must be unique once mangled, enum constants and helpers
        included, and no member may be named like a type of its struct."""
        named = [k for k in self.order if k not in self.misnamed and k not in self.broken]
        self._check_c_names(named)
        # Only a type that uses another type can have a member named like it.
        self._check_member_names([k for k in named if resolved.get(k) and deps.get(k)],
                                 resolved)

    def _build_types(self, post_order: List[Key], resolved: Dict[Key, list],
                     deps: Dict[Key, List[Key]]) -> Dict[Key, SchemaType]:
        """Phase 4: elttypes built, laid out and their members filled in, innermost first."""
        elttypes: Dict[Key, ElementType] = {}
        types: Dict[Key, SchemaType] = {}
        for key in post_order:
            uses = deps[key]
            if key in self.broken or (uses and any(d in self.broken for d in uses)):
                self.broken.add(key)  # a knock-on of a type refused above: not reported
                continue
            decl = self.by_module[key[0]][key[1]]
            members = resolved[key]
            t = _elttype(decl, members, elttypes, decl.rules or self.module_of[key].rules)
            elttypes[key] = t
            try:
                if isinstance(t, TRecord):
                    layout: CoreLayout = record_layout(t.name, t.fields, t.rules)
                elif isinstance(t, TVariant):
                    layout = variant_layout(t.name, t.ctors, t.rules)
                else:
                    layout = ScalarLayout(t.base.size, t.base.align)  # type: ignore[union-attr]
            except LayoutError as e:
                self.refuse(key, SchemaError(
                    _refusal(e.error), _member_location(decl, e.error.field)
                ))
                continue
            member_types = [[r if type(r) is Scalar else _member_type(r, elttypes, types)
                             for r in refs] for refs in members]
            own_members, items, arms = members_of(decl, layout, member_types)
            types[key] = SchemaType(
                module=key[0],
                name=key[1],
                c_name=c_name_of(*key),
                elttype=t,
                layout=layout,
                decl=decl,
                source=self.module_of[key],
                depends_on=tuple([c_name_of(*d) for d in uses]) if uses else (),
                members=own_members,
                items=items,
                arms=arms,
            )
        return types

    def _dependency_order(self, order: List[Key], deps: Dict[Key, List[Key]]) -> List[Key]:
        """``order`` (types whose references resolved) with every type after the types it
        uses. A cycle is refused once, at the type it returns to, and breaks every type on
        it; a type using a broken one is dropped silently (a knock-on)."""
        state: Dict[Key, int] = {}  # 1 = on the stack, 2 = done
        depth: Dict[Key, int] = {}
        post: List[Key] = []
        broken = self.broken
        for root in order:
            if root in state:
                continue
            stack = [(root, iter(deps[root]))]
            state[root] = 1
            while stack:
                key, it = stack[-1]
                for dep in it:
                    if dep in broken or dep not in deps:
                        continue  # refused already: its users are dropped when they finish
                    if state.get(dep) == 1:
                        cycle = [k for k, _ in stack]
                        cycle = cycle[cycle.index(dep):] + [dep]
                        decl = self.by_module[dep[0]][dep[1]]
                        path = " -> ".join(_display(k) for k in cycle)
                        self.refuse(dep, SchemaError(
                            f"recursive type {_display(dep)!r} ({path}): element types must have a "
                            f"fixed size; store an index into another buffer instead",
                            decl.location,
                        ))
                        broken.update(cycle)
                        continue
                    if dep not in state:
                        state[dep] = 1
                        stack.append((dep, iter(deps[dep])))
                        break
                else:
                    stack.pop()
                    state[key] = 2
                    if key in broken or any(d in broken or d not in deps for d in deps[key]):
                        broken.add(key)
                        continue
                    depth[key] = 1 + max((depth[d] for d in deps[key]), default=0)
                    if depth[key] > MAX_NESTING:
                        decl = self.by_module[key[0]][key[1]]
                        self.refuse(key, SchemaError(
                            f"type {_display(key)!r} nests types {depth[key]} levels deep; "
                            f"the limit is {MAX_NESTING}",
                            decl.location,
                        ))
                        continue
                    post.append(key)
        return post

    def _check_c_names(self, order: List[Key]) -> None:
        """Every C name of ``order``'s types unique (whether each target can emit it is
        ``targets.names.check_names``'s question, asked for the targets emitted). One cause is
        reported once: a constructor's enum constant and ``make_`` helper share it."""
        taken: Dict[str, str] = {}
        errors = self.errors
        refused: Set[Key] = set()

        def claim(c_name: str, owner: str, location: SourceLocation) -> bool:
            if c_name in taken and taken[c_name] != owner:
                errors.append(SchemaError(
                    f"C name {c_name!r} of {owner} collides with {taken[c_name]}; "
                    f"rename one of them",
                    location,
                ))
                return False
            taken[c_name] = owner
            return True

        for key in order:
            decl = self.by_module[key[0]][key[1]]
            c_name, owner = c_name_of(*key), f"type {_display(key)!r}"
            if not claim(c_name, owner, decl.location):
                refused.add(key)
                continue
            # Every target defines the type's layout fingerprint and its check beside it
            # (``<c_name>_LAYOUT_ID`` and ``_LAYOUT_OK``: macros in the C family, which would
            # rewrite an enum constant or a type of that name). A type ``t_`` (``t__LAYOUT_ID``,
            # with the '__' C++ reserves but no compiler diagnoses in a macro name) stays valid.
            owner += " (its layout fingerprint macro)"  # one string for both macros
            for suffix in LAYOUT_ID_SUFFIXES:
                claim(c_name + suffix, owner, decl.location)
        for key in order:
            decl = self.by_module[key[0]][key[1]]
            if key not in refused and isinstance(decl, EnumDecl):
                # Every target names an enum's values <c_name>_<Value> (SPEC §1b).
                c_name = c_name_of(*key)
                for value in decl.values:
                    claim(enum_constant(c_name, value.name),
                          f"enum value {_display(key)}.{value.name}", value.location)
            if key not in refused and isinstance(decl, VariantDecl):
                c_name = c_name_of(*key)
                for ctor in decl.ctors:
                    owner = f"constructor {_display(key)}.{ctor.name}"
                    if claim(f"{c_name}_{ctor.name}", owner, ctor.location):
                        claim(make_name(c_name, ctor.name), owner, ctor.location)

    def _check_member_names(self, order: List[Key], resolved: Dict[Key, list]) -> None:
        """No struct member may be named like a type used in the same struct.

        C++ refuses it (``point point;`` "changes meaning of 'point'"; a variant's member
        ``tag`` hides a type ``tag`` used in its union). Only possible where C names are bare
        (module ``""``) or spelled out (a field named ``Geo_point``).
        """
        for key in order:
            decl = self.by_module[key[0]][key[1]]
            used = {
                c_name_of(*k): i
                for i, exprs in enumerate(resolved[key])
                for r in exprs
                for k in [_innermost(r)]
                if isinstance(k, tuple)
            }
            if isinstance(decl, RecordDecl):
                clashes = [(f.name, f.location) for f in decl.fields if f.name in used]
                fix = "rename the field or the type"
            else:
                members = ["tag", "data"] + [arm_name(c.name) for c in decl.ctors]
                clashes = [(m, decl.ctors[used[m]].location) for m in members if m in used]
                fix = f"rename the type (a variant's struct has the members tag, data, <Ctor>{ARM_SUFFIX})"
            if clashes:
                name, location = clashes[0]
                self.errors.append(SchemaError(
                    f"type {_display(key)!r} has a member {name!r} and uses the type {name!r} "
                    f"in the same struct, which C++ refuses (the member would change what "
                    f"{name!r} means there); {fix}",
                    location,
                ))


def _display(key: Key) -> str:
    return f"{key[0]}.{key[1]}" if key[0] else key[1]


def _member_exprs(decl: TypeDecl):
    """The type expressions of each field (one) or constructor (its arguments)."""
    if isinstance(decl, RecordDecl):
        return [(f.type,) for f in decl.fields]
    if isinstance(decl, EnumDecl):
        return []
    return [c.args for c in decl.ctors]


#: What a bare scalar name means (``float32``, the alias ``int``…): aliases never shadow a
#: scalar name, and scalar names are looked up first (``resolve_expr``).
_BARE_SCALARS: Dict[str, Scalar] = {**_ALIASES, **SCALARS}


def _innermost(r):
    """The element a resolved member expression repeats: a scalar, an elttype or a key."""
    while isinstance(r, tuple) and r and r[0] in ("array", "vector", FIXED):
        r = r[-1]
    return r


def _collect_keys(r, out: List[Key]) -> None:
    r = _innermost(r)
    if isinstance(r, tuple):
        out.append(r)


def _elttype(decl: TypeDecl, members: list, elttypes: Dict[Key, ElementType],
             rules: str) -> ElementType:
    """The elttype of ``decl``, whose members resolved to ``members``, laid out by ``rules``."""
    if isinstance(decl, RecordDecl):
        fields = [(f.name, r if type(r) is Scalar else _build(r, elttypes))
                  for f, (r,) in zip(decl.fields, members)]
        # TRecord is hash-consed: structurally equal records (two modules' identical
        # `point`) are one object. Nothing maps an elttype back to a schema type:
        # members name their types.
        return TRecord(decl.name, fields, rules)
    if isinstance(decl, EnumDecl):
        base = SCALARS.get(decl.base) or _ALIASES[decl.base]
        return TEnum(decl.name, base, tuple((v.name, v.value) for v in decl.values))
    return TVariant(
        decl.name,
        [(c.name, [_build(r, elttypes) for r in members[i]]) for i, c in enumerate(decl.ctors)],
        rules,
    )


def _member_type(r, elttypes: Dict[Key, ElementType], types: Dict[Key, SchemaType]):
    """What ``members_of`` needs of a member that is not a bare scalar: its elttype and the
    schema type (a record or an enum) it repeats, if any."""
    inner = _innermost(r)
    named = types[inner] if isinstance(inner, tuple) else None
    if named is not None and r is inner and not named.is_enum:
        return named  # a record member: the common case, as before
    return (_build(r, elttypes), named)


def _refusal(error) -> str:
    """A layout error's message; Sarek's ``T array``/``T vector`` also points at SPEC §1b's
    fixed arrays (the core keeps upstream's own wording)."""
    message = layout_error_message(error)
    if isinstance(error, UnsupportedField):
        message += (" (a fixed number of elements is a fixed array, written like "
                    "`float32[4]`: SPEC §1b)")
    return message


def _build(r, elttypes: Dict[Key, ElementType]) -> ElementType:
    if isinstance(r, tuple) and r and r[0] == FIXED:
        return TFixedArray(_build(r[2], elttypes), r[1])
    if isinstance(r, tuple) and r and r[0] in ("array", "vector"):
        inner = _build(r[1], elttypes)
        return TArray(inner) if r[0] == "array" else TVec(inner)
    if isinstance(r, tuple):
        return elttypes[r]
    return r


def _member_location(decl: TypeDecl, field_path: str) -> SourceLocation:
    """Where a layout error's field path (``inner.v``, ``Pair._1``, ``pts[].x``) points in
    ``decl``."""
    parts = field_path.replace("[]", "").split(".")
    if isinstance(decl, RecordDecl):
        for f in decl.fields:
            if f.name == parts[0]:
                return f.type.location
        return decl.location
    for c in decl.ctors:
        if c.name == parts[0]:
            if len(parts) > 1 and parts[1].startswith("_") and parts[1][1:].isdigit():
                index = int(parts[1][1:])
                if index < len(c.args):
                    return c.args[index].location
            return c.location
    return decl.location


def resolve(modules: Sequence[ModuleDecl]) -> Schema:
    """Check and resolve ``modules`` together. Raises ``SchemaError`` for one refusal and
    ``SchemaErrors`` (a ``SchemaError`` too) for several, in the order the checks run."""
    seen: Dict[str, ModuleDecl] = {}
    types_of_modules: Dict[str, Dict[str, TypeDecl]] = {}
    errors: List[SchemaError] = []
    broken: Set[int] = set()
    misnamed: Set[int] = set()
    for module in modules:
        _check_module(module, seen, types_of_modules, errors, broken, misnamed)
    return _Resolver(modules, errors, broken, misnamed).run()

