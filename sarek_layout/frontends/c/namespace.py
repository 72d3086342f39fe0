"""The C headers of one command, read together: one namespace of typedef names, as in C.

Each header given is its own translation unit (``header.read_unit``: preprocessed with what
it includes, parsed) and becomes one schema (``ModuleDecl``). What they share is decided here,
for all of them at once, in time linear in what was read:

* **Include path.** The ``-I`` folders, then the folders of the headers given: a header
  may include another one given by its bare name, wherever that one lies.
* **Modules** (``modules.decide_module``): the command line, else the header's
  ``sarek-layout: module`` comment, else its typedef names. Several headers of module ``""``
  are one namespace, as every module-less schema is (``resolve``).
* **One definition per name.** A typedef name whose struct is defined at two places with
  different members is refused, naming both places, as a C compiler would refuse a program
  that includes both. The same definition reached twice (a header included by two headers,
  or twice without an include guard) is one type; so is an identical definition written
  twice in headers that are not given (C accepts compatible types across translation
  units). Two headers given that both declare a type are a duplicate (``resolve``).
* **Who holds a type.** A typedef struct of a header given belongs to that header's schema.
  One of a header that is *not* given, but that a given header's types use, is copied into
  the schema of the first header given (in command-line order) that uses it and whose
  module can spell its C name unchanged (``modules.name_in_module``: any name in module
  ``""``, ``M_<name>`` in module ``M``); its own types come along, recursively. When none
  can, the header that declares it must be given too: the refusal says so. So
  ``import-c top.h -I inc`` is one schema holding ``top.h``'s types and the included ones
  they use, whose generated header declares them all under the same C names.
* **References.** A member names a type of its own schema, or of module ``""`` (a bare
  name: ``resolve`` looks a name up in module ``""`` when the schema's own module does not
  have it), bare, and one of another module as ``Module.name``.
* **Rule sets.** A struct with a member of one of CUDA's vector types (``vectors``), at any
  depth of arrays, is laid out by the ``cuda`` rules, and so is every struct connected to it
  by holding (the structs it holds, the ones holding it, theirs…): SPEC §1b refuses a type
  of one rule set inside a type of another, and the ``cuda`` rules are C's for everything
  but vectors, so no byte of those structs changes. The other types keep Sarek's own ``c``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ...errors import SchemaError, quoted, raise_collected
from ...targets.names import FLOAT16_TYPEDEF
from ...ir.schema import ArrayType, ModuleDecl, NamedType, RecordDecl, SourceLocation, VariantDecl, \
    VectorType
from .modules import CHeaderOptions, decide_module, name_in_module
from .header import _Reader, read_unit
from .refusals import Imported, Key
from .vectors import CUDA_RULES

__all__ = ["read_headers", "read_header", "import_headers"]

#: Where a struct's members are defined: (real path, line, column).
Place = Tuple[str, int, int]


def read_headers(paths: Sequence[str], options: CHeaderOptions = CHeaderOptions()) -> List[ModuleDecl]:
    """The schemas of the C headers ``paths``, read together (see the module docs): a
    header given as a schema must be importable whole, so every refused type's root cause
    is raised together (``SchemaErrors``)."""
    imported = import_headers(paths, options)
    raise_collected(imported.root_errors())
    return imported.modules


def import_headers(paths: Sequence[str], options: CHeaderOptions = CHeaderOptions()) -> Imported:
    """The C headers ``paths`` read together, each type imported or refused on its own
    (``refusals.Imported``; ``import-c``)."""
    return _Namespace(list(paths), options).imported()


class _Namespace:
    def __init__(self, paths: List[str], options: CHeaderOptions) -> None:
        # os.path.realpath once per file name: cpp names the same files again and again.
        self.real = functools.lru_cache(maxsize=None)(os.path.realpath)
        self.index_of: Dict[str, int] = {}
        for i, path in enumerate(paths):
            key = self.real(path)
            if key in self.index_of:
                raise SchemaError(
                    f"is given twice (also as {paths[self.index_of[key]]}); give each header once",
                    SourceLocation(path))
            self.index_of[key] = i
        # Each header may include the others by their bare names (``top.h`` including
        # ``"vec.h"`` when ``inc/vec.h`` is given too): the folders of the headers given are
        # searched after the ``-I`` folders.
        include_dirs = list(dict.fromkeys(
            list(options.include_dirs) + [os.path.dirname(p) or os.curdir for p in paths]))
        self.units = [read_unit(p, include_dirs, options.defines) for p in paths]
        #: typedef name -> the unit whose schema holds it, for types of headers not given.
        self.holder: Dict[str, int] = {}
        for unit in self.units:
            self._own_types(unit, options)
        self._one_definition_each()
        self._copy_types_of_headers_not_given()
        for unit in self.units:
            unit.refer = self._referrer(unit)

    def imported(self) -> Imported:
        """Each type of each schema, imported or refused, and what each uses."""
        outcome: Dict[Key, object] = {}
        uses: Dict[Key, List[Tuple[Key, object]]] = {}
        for index, unit in enumerate(self.units):
            for c_name, decl in unit.decls().items():
                key = (index, c_name)
                outcome[key] = decl
                uses[key] = [((self._holder(unit, used), used), member)
                             for used, member in unit.references(c_name)]
        _cuda_rules(outcome, uses)
        return Imported(self.units, outcome, uses)

    def _holder(self, unit: _Reader, c_name: str) -> int:
        """The header whose schema holds the type ``c_name`` that ``unit`` uses."""
        td = unit.h.types[c_name]
        given = self.index_of.get(self.real(td.file))
        if given is not None:
            return given
        return self.holder.get(c_name, self._index(unit))

    # -- each header's own types and module ---------------------------------------------------

    def _own_types(self, unit: _Reader, options: CHeaderOptions) -> None:
        own_file = self.real(unit.path)
        own = [c for c in unit.defined_typedefs()
               if self.real(unit.h.types[c].file) == own_file]
        if not own:
            raise SchemaError(
                "no struct declarations in this header; sarek-layout reads element "
                "types from its structs (typedef struct or struct tag) of fixed-width integers "
                f"(int8_t … uint64_t), float, double and {FLOAT16_TYPEDEF} members",
                SourceLocation(unit.path),
            )
        unit.module_name, unit.names = decide_module(unit.path, own, options,
                                                     unit.typedef_location)

    # -- one definition per typedef name ------------------------------------------------------

    def _one_definition_each(self) -> None:
        """A typedef name defined with different members at two places is refused, naming
        both; each definition's members are compared only when a second place turns up."""
        from pycparser import c_ast

        first: Dict[str, Tuple[Place, _Reader, object, object]] = {}
        for unit in self.units:
            for node in unit.ast.ext:
                if not (isinstance(node, c_ast.Typedef) and isinstance(node.type, c_ast.TypeDecl)
                        and isinstance(node.type.type, c_ast.Struct)):
                    continue
                struct = node.type.type
                body = struct if struct.decls is not None else (
                    unit.h.bodies.get(struct.name) if struct.name else None)
                if body is None or body.coord is None:
                    continue  # only declared: nothing to differ
                place = (self.real(unit.file_of(body.coord.file)), body.coord.line,
                         body.coord.column)
                seen = first.get(node.name)
                if seen is None:
                    first[node.name] = (place, unit, node, body)
                    continue
                if seen[0] == place or _members_text(seen[3]) == _members_text(body):
                    continue
                earlier = seen[1].loc(seen[2], node.name)
                raise SchemaError(
                    f"typedef {quoted(node.name)} is defined again with different members (first "
                    f"at {earlier}); all typedef names of the headers read share one namespace, "
                    f"as in a C program that includes them all: rename one or keep one definition",
                    unit.loc(node, node.name),
                )

    # -- types of headers not given -------------------------------------------------------

    def _copy_types_of_headers_not_given(self) -> None:
        """Give each type of a header not given, used by a given header's types, to the first
        given header that uses it and can hold it under its C name (see the module docs)."""
        unheld: Dict[str, Tuple[_Reader, object]] = {}  # name -> first use that could not hold it
        for unit in self.units:
            todo = list(unit.names)
            visited = set(todo)
            while todo:
                for c_name, member in unit.references(todo.pop()):
                    if c_name in visited:
                        continue
                    visited.add(c_name)
                    td = unit.h.types[c_name]
                    if unit.h.body_of(td) is None or self.real(td.file) in self.index_of:
                        continue  # refused where used / a given header's own type
                    if c_name in self.holder:
                        continue  # held (and followed) by a header before this one
                    name = name_in_module(unit.module_name, c_name)
                    if name is None:
                        unheld.setdefault(c_name, (unit, member))
                        continue
                    self.holder[c_name] = self._index(unit)
                    unit.names[c_name] = name
                    todo.append(c_name)
        # A type no given header can hold refuses the types using it (at each use), not the
        # command: the other types still import.
        self.unheld = {c_name: unit for c_name, (unit, _) in unheld.items()
                       if c_name not in self.holder}

    def _unheld_error(self, unit: _Reader, c_name: str, where: SourceLocation,
                      member_name: Optional[str]) -> SchemaError:
        td = unit.h.types[c_name]
        return SchemaError(
            f"member {quoted(member_name)} has type {quoted(c_name)} "
            f"(declared at {unit.typedef_location(c_name)}), which cannot be part of the "
            f"schema of {unit.path}: its module is {unit.module_name!r}, so the type's C "
            f"name would become {unit.module_name}_{c_name}; give {td.file} on the "
            f"command line too, so that its types form a schema of their own",
            where,
        )

    def _index(self, unit: _Reader) -> int:
        return self.index_of[self.real(unit.path)]

    # -- references ---------------------------------------------------------------------------

    def _referrer(self, unit: _Reader):
        """How ``unit``'s members name the typedef struct ``c_name``."""
        c_name_of_own = {name: c for c, name in unit.names.items()}  # built once: linear

        def refer(c_name: str, where: SourceLocation,
                  member_name: Optional[str] = None) -> NamedType:
            td = unit.h.types[c_name]
            given = self.index_of.get(self.real(td.file))
            holder: Optional[_Reader] = None
            if given is not None:
                holder = self.units[given]
                if c_name not in holder.names:
                    raise SchemaError(
                        f"type {quoted(c_name)} is declared in {td.file} as {unit.path} includes "
                        f"it, but not when {td.file} is read on its own (a macro set "
                        f"differently?); every header given is read as its own translation unit",
                        where,
                    )
            elif c_name in self.holder:
                holder = self.units[self.holder[c_name]]
            elif c_name in unit.names:
                holder = unit
            if holder is None:  # no given header can hold it (_copy_types_of_headers_not_given)
                raise self._unheld_error(unit, c_name, where, member_name)
            name = holder.names[c_name]
            if holder is unit or holder.module_name == unit.module_name:
                return NamedType(name, None, where)
            if holder.module_name == "":
                # A bare name means the schema's own type first: one of the same name would
                # hide the module-less one.
                own = c_name_of_own.get(name)
                if own is not None:
                    raise SchemaError(
                        f"type {quoted(c_name)} (module \"\") cannot be named from module "
                        f"{unit.module_name!r}, whose own type {quoted(own)} has the same schema "
                        f"name {quoted(name)}; rename one of them",
                        where,
                    )
                return NamedType(name, None, where)
            return NamedType(name, holder.module_name, where)

        return refer


def _holds_vector(decl) -> bool:
    exprs = [f.type for f in decl.fields] if isinstance(decl, RecordDecl) else [
        a for c in decl.ctors for a in c.args]
    for expr in exprs:
        while isinstance(expr, ArrayType):
            expr = expr.elem
        if isinstance(expr, VectorType):
            return True
    return False


def _cuda_rules(outcome: Dict[Key, object], uses: Dict[Key, List[Tuple[Key, object]]]) -> None:
    """The structs connected by holding to one with a CUDA vector member get the ``cuda``
    rules (module docs): one pass of union-find over the references, linear in them."""
    parent: Dict[Key, Key] = {k: k for k, d in outcome.items()
                              if isinstance(d, (RecordDecl, VariantDecl))}

    def root(k: Key) -> Key:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for user, used in uses.items():
        if user in parent:
            for key, _ in used:
                if key in parent:
                    parent[root(key)] = root(user)
    cuda = {root(k) for k in parent if _holds_vector(outcome[k])}
    if cuda:
        for k in parent:
            if root(k) in cuda:
                outcome[k] = dataclasses.replace(outcome[k], rules=CUDA_RULES)  # type: ignore[type-var]


def _members_text(body) -> Tuple[str, ...]:
    """A struct's members as C text (macros expanded), to compare two definitions."""
    from pycparser import c_generator

    generator = c_generator.CGenerator()
    try:
        return tuple(generator.visit(d) for d in body.decls or ())
    except RecursionError:  # nested too deeply to print: never the same as anything
        return (repr(id(body)),)


def read_header(
    path: str, include_dirs: Iterable[str] = (), defines: Iterable[str] = ()
) -> ModuleDecl:
    """Read the ``typedef struct`` declarations of the C header ``path`` into a ``ModuleDecl``
    (``read_headers`` of this one header)."""
    return read_headers([path], CHeaderOptions(tuple(include_dirs), tuple(defines)))[0]
