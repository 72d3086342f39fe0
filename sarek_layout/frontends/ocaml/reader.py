"""OCaml sources (SPEC §3): the ``[@@sarek.type]`` declarations of an ordinary Sarek file.

A Sarek source holds kernels, ``let`` bindings, modules, comments and other types besides the
element types. This reader tokenises the whole file (``lexer``), walks its blocks
(brackets and ``struct``/``sig``/``begin``/``object`` … ``end``), finds the ``type`` items of
the file's top level and of every ``struct … end`` (as Sarek's PPX does: its rule runs on
every type declaration of a structure, at any depth), splits each item at its ``and``
keywords, and parses strictly (``decl``) only the declarations whose item attributes
include ``[@@sarek.type]`` or ``[@@sarek.type_private]``. Everything else is skipped by its
extent, never parsed, so any OCaml may surround the declarations.

A type of an inner module belongs to the file's module, as Sarek registers it
(``scope``): ``t`` in ``module M`` of ``foo.ml`` is ``Foo.t`` (C name ``Foo_t``); two
such types of one name are a duplicate, and ``M.t`` written in the file is rewritten to that
type. A declaration in a signature (``sig … end``) is not a Sarek type (Sarek reads
structures only): its ``[@@sarek.type]`` is accepted when the structure's definition carries
one too, refused otherwise.

Refused, each with the position of the offending token: what ``decl`` refuses, types
with no Sarek layout (``char``, ``string``…), a reference to a type of the same file that
lacks the attribute, a ``[@@sarek.type]`` Sarek would not read, a misspelt one
(``attributes``), and a file with no Sarek type at all (the user gave it for a
reason). Every independent refusal of the file is reported (``SchemaErrors``, in the order of
the file), except after a lexical or bracket error, which leaves nothing to go on with. Name
checks, unknown types and the layout rules are left to ``resolve``, as for every front end.

The module is the file's stem, capitalised (``geometry_lib.ml`` → ``Geometry_lib``), which is
how Sarek's own backends mangle ``Geometry_lib.point`` into ``Geometry_lib_point``.
"""

from __future__ import annotations

from array import array
from dataclasses import replace
from typing import Dict, List, Optional, Set, Tuple

from ...errors import SchemaError, quoted, raise_collected
from ...ir.schema import (
    ContainerType,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
)
from ...ir.types import SCALARS, Scalar, scalar_named
from .attributes import (
    ELSEWHERE,
    IN_TYPE,
    ITEM_LEVEL,
    SAREK_ATTRIBUTES,
    NearMisses,
    misplaced_message,
    near_miss_message,
)
from .decl import DeclParser
from .lexer import (
    KEYWORD,
    LBRACKET,
    LIDENT,
    OP,
    RBRACKET,
    UIDENT,
    OTHER,
    LineMap,
    Token,
    Tokens,
    offsets_for,
    tokenize,
)
from .scope import FILE_MODULE, InnerModules
from ..source_files import default_module_name, read_schema_bytes

__all__ = ["read_ocaml", "SAREK_ATTRIBUTES", "NO_LAYOUT_TYPES"]

#: The scalars a Sarek ``.ml`` may name (the extension scalars are not Sarek element types).
SAREK_SCALARS = tuple(s.name for s in SCALARS.values() if not s.extension)


def _sarek_stand_in(extension: Scalar) -> str:
    """What a Sarek source writes instead of an extension scalar: the smallest Sarek integer
    that holds every value of it, else the Sarek integer of its size (same bits, signed)."""
    ints = [s for s in SCALARS.values()
            if not s.extension and s.kind == "int" and s.int_range is not None]
    low, high = extension.int_range or (0, 0)
    holding = [s for s in ints if s.int_range[0] <= low and s.int_range[1] >= high]
    if holding:
        return f"use {min(holding, key=lambda s: s.size).name}"
    same = [s for s in ints if s.size == extension.size]
    return f"use {same[0].name} (the same bits, read as signed)" if same else "use int64"


#: OCaml built-in types that have no Sarek element layout, with what to use instead; and the
#: extension scalars (``int8``…, issue 22), which Sarek has no type for: they exist only in
#: JSON, TOML and C schemas, so a Sarek source that names one is told so.
NO_LAYOUT_TYPES = {
    "char": "use int32",
    "string": "strings have no fixed size",
    "bytes": "bytes have no fixed size",
    "nativeint": "its size depends on the platform; use int32 or int64",
    "exn": "exceptions are not data",
    **{s.name: (f"a sarek-layout extension scalar, not a Sarek element type: JSON, TOML and "
                f"C schemas only; in a Sarek source {_sarek_stand_in(s)}")
       for s in SCALARS.values() if s.extension},
}

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_BLOCK_KEYWORDS = frozenset({"struct", "sig", "object", "begin"})
# Keywords that start a new item of a structure or signature (they end a type item).
_ITEM_KEYWORDS = frozenset(
    {"let", "type", "module", "open", "include", "exception", "external", "class", "val"}
)
# A ``type`` right after one of these is not a type item (``module type``, ``with type``,
# ``let f : type a. …``, ``class type``).
_NOT_ITEM_AFTER = frozenset({"module", "with", "and", ":", "class"})

#: Parts of an attribute id read (``sarek.type`` has two).
_MAX_ATTRIBUTE_PARTS = 8

# What encloses a token: the file's top level, a structure, a signature, anything else
# (brackets, ``begin``/``object`` … ``end``). Type items exist in the first three.
_TOP, _STRUCT, _SIG, _OTHER = range(4)


class _Blocks:
    """The keyword blocks open during the walk (``struct``, ``sig``, ``begin``, ``object``;
    brackets need none: the token depths say when the walk is inside one), column-wise so
    that ``begin begin begin …`` costs a few bytes a block. For each: its kind, the depth of
    its items, the structure it is in, and the module name a ``module`` item has just bound
    (with the depth of that item, for the ``struct`` that follows at the same depth)."""

    __slots__ = ("kinds", "depths", "modules", "pending", "pending_depths", "in_module_item")

    def __init__(self, source: str) -> None:
        self.kinds = bytearray([_TOP])
        self.depths = offsets_for(source)
        self.depths.append(0)
        self.modules = offsets_for(source)
        self.modules.append(FILE_MODULE)
        self.pending: List[Optional[str]] = [None]
        self.pending_depths = offsets_for(source)
        self.pending_depths.append(-1)
        self.in_module_item = bytearray([0])

    def push(self, kind: int, depth: int, module: int) -> None:
        self.kinds.append(kind)
        self.depths.append(depth)
        self.modules.append(module)
        self.pending.append(None)
        self.pending_depths.append(-1)
        self.in_module_item.append(0)

    def pop(self) -> None:
        for column in (self.kinds, self.depths, self.modules, self.pending,
                       self.pending_depths, self.in_module_item):
            column.pop()

    def bind(self, name: Optional[str], depth: int) -> None:
        self.pending[-1] = name
        self.pending_depths[-1] = depth

    def take(self, depth: int) -> Optional[str]:
        """The module name bound for a ``struct`` at ``depth`` (then forgotten)."""
        if self.pending_depths[-1] != depth:
            return None
        name = self.pending[-1]
        self.bind(None, -1)
        return name


def _read_source(path: str) -> str:
    raw = read_schema_bytes(path)
    if b"\0" in raw:
        # The OCaml lexer refuses a NUL byte outside strings; text files never hold one.
        raise SchemaError(
            f"binary file (NUL byte at offset {raw.index(0)}); expected an OCaml source",
            SourceLocation(path),
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # OCaml reads bytes; Latin-1 keeps one character per byte, so columns stay right.
        return raw.decode("latin-1")


def read_ocaml(path: str) -> ModuleDecl:
    """Read the ``[@@sarek.type]`` declarations of the OCaml source ``path``."""
    text = _read_source(path)
    lines = LineMap(path, text)
    try:
        return FileParser(path, lines, tokenize(text, lines)).module()
    except RecursionError:  # a backstop: the parser limits its own nesting
        raise SchemaError("OCaml source nested too deeply", SourceLocation(path)) from None



class FileParser:
    """The file-level pass: blocks, type items, attributes, references. It reads the
    column-wise ``Tokens`` by index, so that a file of a million tokens makes no million
    objects; it keeps a few bytes per open block and a few integers per structure."""

    def __init__(self, path: str, lines: LineMap, tokens: Tokens) -> None:
        self.path = path
        self.lines = lines
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.depth = self._depths()
        self.modules = InnerModules()
        self.near_misses = NearMisses()
        self.errors: List[SchemaError] = []
        #: The Sarek declarations read, and the structure each is in.
        self.decls: List[TypeDecl] = []
        self.decl_modules: List[int] = []
        #: Names of attributed declarations ``decl`` refused (so not reported again).
        self.failed: Set[str] = set()
        #: Declarations without the attribute, in structures: name -> its name token.
        self.plain: Dict[str, int] = {}
        #: ``[@@sarek.type]`` on a declaration of a signature: (type name, attribute token).
        self.in_signatures: List[Tuple[str, int]] = []

    def loc(self, tok: Token) -> SourceLocation:
        return self.lines.loc(tok.offset)

    def loc_of(self, i: int) -> SourceLocation:
        return self.lines.loc(self.tokens.starts[i])

    def is_keyword(self, i: int, text: str) -> bool:
        return self.kinds[i] == KEYWORD and self.tokens.is_text(i, text)

    # -- structure ------------------------------------------------------------------------

    def _depths(self) -> array:
        """Nesting depth in front of every token; refuses unbalanced brackets."""
        tokens, kinds = self.tokens, self.kinds
        depths = offsets_for(tokens.source)
        stack = offsets_for(tokens.source)  # indices of the open brackets and blocks
        push, pop, record = stack.append, stack.pop, depths.append
        for i in range(len(kinds)):
            record(len(stack))
            kind = kinds[i]
            if kind == LBRACKET or (kind == KEYWORD and tokens.text(i) in _BLOCK_KEYWORDS):
                push(i)
            elif kind == RBRACKET or (kind == KEYWORD and tokens.is_text(i, "end")):
                text = tokens.text(i)
                if not stack:
                    raise SchemaError(f"unmatched {quoted(text)}", self.loc_of(i))
                opened = pop()
                opener = tokens.text(opened)
                expected = _OPENERS.get(opener, "end")
                if expected != text:
                    raise SchemaError(
                        f"{quoted(text)} does not close {quoted(opener)} opened at "
                        f"{self.loc_of(opened)} (expected {quoted(expected)})",
                        self.loc_of(i),
                    )
        if stack:
            opener = tokens.text(stack[-1])
            closer = _OPENERS.get(opener, "end")
            raise SchemaError(
                f"unclosed {quoted(opener)} (missing {quoted(closer)})", self.loc_of(stack[-1])
            )
        return depths

    def attribute_at(self, i: int) -> Optional[Tuple[str, str]]:
        """``(ats, id)`` when token ``i`` opens an attribute: ``("@@", "sarek.type")``."""
        tokens, kinds = self.tokens, self.kinds
        n = len(kinds)
        if kinds[i] != LBRACKET or i + 1 >= n or tokens.first_char(i) != "[":
            return None
        if kinds[i + 1] != OP or tokens.starts[i + 1] != tokens.starts[i] + 1:
            return None
        ats = tokens.text(i + 1)
        if ats not in ("@", "@@", "@@@"):
            return None
        parts: List[str] = []
        j = i + 2
        while j < n and kinds[j] in (LIDENT, UIDENT, KEYWORD):
            if len(parts) == _MAX_ATTRIBUTE_PARTS:
                # Only ``sarek.type`` matters; a path of a million parts is not it.
                parts.append("...")
                break
            parts.append(tokens.text(j))
            if j + 1 < n and tokens.is_text(j + 1, "."):
                j += 2
            else:
                break
        return ats, ".".join(parts)

    def attribute_ats(self, i: int) -> str:
        """``"@"``, ``"@@"`` or ``"@@@"`` when token ``i`` opens an attribute, else ``""``."""
        if self.kinds[i] != LBRACKET:  # most tokens: no call, no tuple
            return ""
        attr = self.attribute_at(i)
        return attr[0] if attr is not None else ""

    def matching(self, i: int) -> int:
        """Index of the token closing the bracket opened at ``i``."""
        depth = self.depth
        d = depth[i]
        j = i + 1
        n = len(depth)
        while j < n and depth[j] > d:
            j += 1
        return j - 1

    def _skip_attributes(self, i: int, end: int, ats: str) -> int:
        while i < end and self.attribute_ats(i) == ats:
            i = self.matching(i) + 1
        return i

    def _item_end(self, i: int, d: int) -> Tuple[int, List[int]]:
        """End of the type item at depth ``d`` whose first declaration starts at ``i``, and
        its ``and``s: the next item of the same structure or signature, or its ``end``."""
        tokens, kinds, depth = self.tokens, self.kinds, self.depth
        ands: List[int] = []
        n = len(kinds)
        while i < n:
            if depth[i] == d:
                kind = kinds[i]
                if kind == KEYWORD:
                    word = tokens.text(i)
                    if word in _ITEM_KEYWORDS or word == "end":
                        return i, ands
                    if word == "and":
                        ands.append(i)
                elif kind == RBRACKET or (kind == OTHER and tokens.is_text(i, ";;")):
                    return i, ands
                elif kind == LBRACKET and tokens.first_char(i) == "[":
                    attr = self.attribute_at(i)
                    if attr is not None and attr[0] == "@@@":
                        return i, ands
                    if i + 1 < n and kinds[i + 1] == OP and tokens.text(i + 1).startswith("%%"):
                        return i, ands
            i += 1
        return n, ands

    # -- the walk -------------------------------------------------------------------------

    def module(self) -> ModuleDecl:
        self._walk()
        decls = self._drop_inner_duplicates()
        decls = self._check_references(decls)
        self._check_signatures(decls)
        if self.errors:
            # In the order of the file, whichever check found them.
            raise_collected(sorted(self.errors, key=_position))
        if not decls:
            raise SchemaError(
                "this OCaml file declares no Sarek type: no type declaration carries "
                "[@@sarek.type] (or [@@sarek.type_private]); mark the element types, or do "
                "not pass the file",
                SourceLocation(self.path),
            )
        return ModuleDecl(
            default_module_name(self.path),
            self.path,
            "ocaml",
            tuple(decls),
            SourceLocation(self.path, 1, 1),
        )

    def _walk(self) -> None:
        """Every token once: blocks opened and closed, module names bound, type items read
        (and jumped over), every other attribute checked."""
        tokens, kinds, depth = self.tokens, self.kinds, self.depth
        blocks = _Blocks(tokens.source)
        n = len(kinds)
        i = 0
        while i < n:
            kind = kinds[i]
            d = depth[i]
            # Directly among the items of the innermost block, not inside a bracket in it.
            here = d == blocks.depths[-1]
            if kind == KEYWORD:
                jump = self._keyword(i, d, here, blocks)
                if jump is not None:
                    i = jump
                    continue
            elif kind == LBRACKET:
                if tokens.first_char(i) == "[":
                    in_items = here and blocks.kinds[-1] != _OTHER
                    self._check_attribute(i, ITEM_LEVEL if in_items else ELSEWHERE)
            elif kind == OTHER and here and tokens.is_text(i, ";;"):
                blocks.bind(None, -1)
                blocks.in_module_item[-1] = 0
            i += 1

    def _keyword(self, i: int, d: int, here: bool, blocks: "_Blocks") -> Optional[int]:
        """The keyword at ``i`` (depth ``d``; ``here``: among the innermost block's items):
        blocks opened or closed, module names bound; a type item read, and where it ends
        returned (``None``: go on with the next token)."""
        word = self.tokens.text(i)
        if word == "type":
            block = blocks.kinds[-1]
            if here and block != _OTHER and not (
                i > 0 and self.tokens.text(i - 1) in _NOT_ITEM_AFTER
            ):
                end = self._type_item(i, block, blocks.modules[-1])
                blocks.bind(None, -1)
                blocks.in_module_item[-1] = 0
                return end
        elif word == "struct":
            inner = self.modules.add(blocks.take(d), blocks.modules[-1])
            blocks.push(_STRUCT, d + 1, inner)
        elif word == "sig":
            blocks.push(_SIG, d + 1, blocks.modules[-1])
        elif word in _BLOCK_KEYWORDS:
            blocks.push(_OTHER, d + 1, blocks.modules[-1])
        elif word == "end":
            blocks.pop()
        elif word == "module":  # ``let module M = struct`` may be in brackets
            blocks.bind(self._module_name(i + 1), d)
            if here:
                blocks.in_module_item[-1] = 1
        elif word == "and":
            if here and blocks.in_module_item[-1]:  # module rec A … and B …
                blocks.bind(self._module_name(i + 1), d)
        elif word in _ITEM_KEYWORDS:
            if blocks.pending_depths[-1] == d:
                blocks.bind(None, -1)
            if here:
                blocks.in_module_item[-1] = 0
        return None

    def _module_name(self, i: int) -> Optional[str]:
        """The module a ``module`` (or ``and``) at ``i - 1`` binds, if it binds one."""
        n = len(self.kinds)
        if i < n and self.is_keyword(i, "rec"):
            i += 1
        if i < n and self.kinds[i] == UIDENT:
            return self.tokens.text(i)
        return None  # ``module type S``, ``module _``, ``and x = …`` of a let

    def _type_item(self, i: int, block: int, module: int) -> int:
        """Read the type item whose ``type`` keyword is at ``i``, directly in a ``block`` of
        structure ``module``; return where it ends."""
        kinds, depth = self.kinds, self.depth
        d = depth[i]
        n = len(kinds)
        start = self._skip_attributes(i + 1, n, "@")
        self._check_attributes_in(i + 1, start, claimed=())
        if start < n and self.is_keyword(start, "nonrec"):
            start += 1
        end, ands = self._item_end(start, d)
        for a, b in zip([start] + [x + 1 for x in ands], ands + [end]):
            sarek = [
                k for k in range(a, b)
                if kinds[k] == LBRACKET and depth[k] == d and self._is_sarek_attribute(k)
            ]
            if sarek and block == _SIG:
                self.in_signatures.append((self._declared_text(a, b), sarek[0]))
            elif sarek:
                try:
                    decl = DeclParser(self, a, b).parse()
                except SchemaError as e:
                    # Without its traceback: a kept one holds the parser's frames alive.
                    self.errors.append(e.with_traceback(None))
                    self.failed.add(self._declared_text(a, b))
                    continue  # one report for the declaration (a stray attribute in it
                    # is often what the parser stopped at)
                self.decls.append(decl)
                self.decl_modules.append(module)
            elif block != _SIG:
                name = self._declared_name(a, b)
                if name is not None:
                    self.plain.setdefault(self.tokens.text(name), name)
            self._check_attributes_in(a, b, claimed=sarek)
        return end

    def _is_sarek_attribute(self, i: int) -> bool:
        attr = self.attribute_at(i)
        return attr is not None and attr[0] == "@@" and attr[1] in SAREK_ATTRIBUTES

    def _declared_name(self, a: int, b: int) -> Optional[int]:
        """The name token of the declaration in ``[a, b)`` (``t`` of ``type ('a, 'b) t``)."""
        return next((k for k in range(a, b) if self.kinds[k] == LIDENT), None)

    def _declared_text(self, a: int, b: int) -> str:
        name = self._declared_name(a, b)
        return "?" if name is None else self.tokens.text(name)

    # -- attributes -----------------------------------------------------------------------

    def _check_attributes_in(self, a: int, b: int, claimed) -> None:
        """The attributes of a type item other than the ``claimed`` Sarek ones (an
        unclaimed ``[@@sarek.type]`` there is inside the definition)."""
        kinds = self.kinds
        for k in range(a, b):
            if kinds[k] == LBRACKET and k not in claimed:
                self._check_attribute(k, IN_TYPE)

    def _check_attribute(self, i: int, where: str) -> None:
        """Refuse ``[@@sarek.type]`` where Sarek would not read it, and near misses."""
        attr = self.attribute_at(i)
        if attr is None:
            return
        ats, name = attr
        if name in SAREK_ATTRIBUTES:
            message = misplaced_message(ats, name, where)
        else:
            target = self.near_misses.target(name)
            if target is None:
                return
            message = near_miss_message(ats, name, target)
        self.errors.append(SchemaError(message, self.loc_of(i)))

    def _check_signatures(self, decls: List[TypeDecl]) -> None:
        """A ``[@@sarek.type]`` in a signature is fine when the definition is a Sarek type
        too; alone, it would make none (Sarek reads structures only)."""
        sarek = {d.name for d in decls} | self.failed
        for name, attribute in self.in_signatures:
            if name not in sarek:
                self.errors.append(SchemaError(
                    f"[@@sarek.type] on {quoted(name)} in a signature makes no Sarek type: "
                    f"Sarek reads the type declarations of structures only, and this file "
                    f"declares no Sarek type {quoted(name)}; put [@@sarek.type] on its "
                    f"definition in the structure",
                    self.loc_of(attribute),
                ))

    # -- the declarations as Sarek registers them --------------------------------------------

    def _drop_inner_duplicates(self) -> List[TypeDecl]:
        """Two Sarek types of one name, one in an inner module: both would be
        ``<File>.<name>``. (Two at the top level are left to ``resolve``, as in every form.)"""
        first: Dict[str, int] = {}
        kept: List[TypeDecl] = []
        kept_modules: List[int] = []
        module = default_module_name(self.path)
        for index, (decl, where) in enumerate(zip(self.decls, self.decl_modules)):
            if decl.name in first:
                other = first[decl.name]
                if where != FILE_MODULE or self.decl_modules[other] != FILE_MODULE:
                    self.errors.append(SchemaError(
                        f"duplicate type {quoted(decl.name)} (first defined at "
                        f"{self.decls[other].location}{self._in_module(self.decl_modules[other])}): "
                        f"Sarek registers a type of an inner module under the file's module, "
                        f"so both are {module}.{decl.name} (C name "
                        f"{module}_{decl.name}); rename one of them",
                        decl.location,
                    ))
                    continue
            else:
                first[decl.name] = index
            kept.append(decl)
            kept_modules.append(where)
        self.decls, self.decl_modules = kept, kept_modules
        return kept

    def _in_module(self, index: int) -> str:
        return "" if index == FILE_MODULE else f", in module {self.modules.path(index)}"

    def _check_references(self, decls: List[TypeDecl]) -> List[TypeDecl]:
        """Every type name the declarations use, as the file means it: ``M.t`` of an inner
        module ``M`` becomes the file's own ``t``; built-in types with no layout and types
        declared without the attribute are refused here, where the reason is known."""
        sarek: Dict[str, int] = {}
        for index, decl in enumerate(decls):
            sarek.setdefault(decl.name, index)
        checked = []
        for decl in decls:
            # A new declaration only where a reference was rewritten (few are): a record of
            # thousands of fields is not copied.
            if isinstance(decl, RecordDecl):
                types = [self._reference(f.type, sarek) for f in decl.fields]
                if any(t is not f.type for t, f in zip(types, decl.fields)):
                    decl = replace(decl, fields=tuple(
                        f if t is f.type else replace(f, type=t)
                        for t, f in zip(types, decl.fields)))
            else:
                args = [[self._reference(a, sarek) for a in c.args] for c in decl.ctors]
                if any(x is not y for new, c in zip(args, decl.ctors) for x, y in zip(new, c.args)):
                    decl = replace(decl, ctors=tuple(
                        replace(c, args=tuple(new)) for new, c in zip(args, decl.ctors)))
            checked.append(decl)
        return checked

    def _reference(self, expr: TypeExpr, sarek: Dict[str, int]) -> TypeExpr:
        """``expr`` as it refers (rewritten for an inner module), or itself after a refusal
        (collected: the other references are independent)."""
        if isinstance(expr, ContainerType):
            elem = self._reference(expr.elem, sarek)
            return expr if elem is expr.elem else replace(expr, elem=elem)
        try:
            return self._named_reference(expr, sarek)
        except SchemaError as e:
            self.errors.append(e.with_traceback(None))
            return expr

    def _named_reference(self, expr: NamedType, sarek: Dict[str, int]) -> NamedType:
        name = expr.name
        if expr.module is not None:
            parts = expr.module.split(".")
            if not self.modules.has_name(parts[0]):
                if len(parts) > 1:
                    raise SchemaError(
                        f"nested module path {str(expr)[:200]} names no module of this file; "
                        f"refer to a type of another schema file as Module.name",
                        expr.location,
                    )
                return expr  # a type of another schema file, or an unknown module: resolve
            index = sarek.get(name)
            if index is not None and self.modules.ends_with(self.decl_modules[index], parts):
                return NamedType(name, None, expr.location)  # the file's own type
            if name in self.failed:
                return expr  # refused where it is declared: not again here
            if name in self.plain:
                raise self._without_attribute(str(expr), name, expr.location)
            raise SchemaError(
                f"unknown type {quoted(str(expr))}: module {expr.module} of this file declares no "
                f"Sarek type {quoted(name)}",
                expr.location,
            )
        if name in sarek or name in self.failed:
            return expr
        if name in NO_LAYOUT_TYPES:
            raise SchemaError(
                f"type {quoted(name)} has no Sarek layout ({NO_LAYOUT_TYPES[name]}); "
                f"element types are {', '.join(SAREK_SCALARS)}, records and variants",
                expr.location,
            )
        if name in self.plain and scalar_named(name) is None:
            raise self._without_attribute(name, name, expr.location)
        return expr

    def _without_attribute(self, written: str, name: str, where: SourceLocation) -> SchemaError:
        return SchemaError(
            f"type {quoted(written)} is declared at {self.loc_of(self.plain[name])} without "
            f"[@@sarek.type]; add the attribute to use it in a Sarek type",
            where,
        )


def _position(error: SchemaError) -> Tuple[int, int]:
    location = error.location
    return (0, 0) if location is None else (location.line, location.col)
