"""OCaml sources (SPEC §3): the ``[@@sarek.type]`` declarations of an ordinary Sarek file.

A Sarek source holds kernels, ``let`` bindings, modules, comments and other types besides the
element types. This reader tokenises the whole file (``ocaml_lexer``), finds the *top-level*
``type`` items by bracket and ``struct``/``sig``/``begin``/``object``…``end`` depth, splits
each item at its ``and`` keywords, and parses strictly only the declarations whose item
attributes include ``[@@sarek.type]`` or ``[@@sarek.type_private]``. Everything else is
skipped by its extent, never parsed, so any OCaml may surround the declarations.

Accepted: records (``mutable`` fields, attributes on fields), variants with or without a
leading ``|``, constant constructors, ``of a * b`` arguments, ``and`` chains, ``private``,
type expressions ``name``, ``Module.name``, ``t array``, ``t vector``. Refused with the
position of the offending token: parameterised types, type variables, inline records,
``of (a * b)``, tuples, functions, polymorphic variants, GADT syntax, objects, abstract types,
abbreviations, extensible types, types with no Sarek layout (``char``, ``string``…), a
reference to a type of the same file that lacks the attribute, and a ``[@@sarek.type]``
that is not on a top-level type declaration. Name checks, unknown types and the
layout rules are left to ``resolve``, as for every front end.

The module is the file's stem, capitalised (``geometry_lib.ml`` → ``Geometry_lib``), which is
how Sarek's own backends mangle ``Geometry_lib.point`` into ``Geometry_lib_point``.
"""

from __future__ import annotations

from array import array
from typing import Dict, List, Optional, Set, Tuple

from ..errors import SchemaError, quoted
from ..ir.schema import (
    ContainerType,
    CtorDecl,
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
)
from ..ir.types import SCALARS
from .jsontoml import default_module_name
from .ocaml_lexer import (
    KEYWORD,
    LBRACKET,
    LIDENT,
    OP,
    RBRACKET,
    TYVAR,
    UIDENT,
    OTHER,
    LineMap,
    Token,
    Tokens,
    offsets_for,
    tokenize,
)
from .source_files import read_schema_bytes

__all__ = ["read_ocaml", "SAREK_ATTRIBUTES", "NO_LAYOUT_TYPES"]

#: Item attributes that make a type declaration part of the schema.
SAREK_ATTRIBUTES = frozenset({"sarek.type", "sarek.type_private"})

#: OCaml built-in types that have no Sarek element layout, with what to use instead.
NO_LAYOUT_TYPES = {
    "char": "use int32",
    "string": "strings have no fixed size",
    "bytes": "bytes have no fixed size",
    "nativeint": "its size depends on the platform; use int32 or int64",
    "exn": "exceptions are not data",
    "int8": "use int32",
    "int16": "use int32",
    "uint8": "use int32",
    "uint16": "use int32",
}

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_BLOCK_KEYWORDS = frozenset({"struct", "sig", "object", "begin"})
# Keywords that start a new structure item when met at depth 0 (they end a type item).
_ITEM_KEYWORDS = frozenset(
    {"let", "type", "module", "open", "include", "exception", "external", "class", "val"}
)
# A depth-0 ``type`` right after one of these is not a type item (``module type``, ``with
# type``, ``let f : type a. …``, ``class type``).
_NOT_ITEM_AFTER = frozenset({"module", "with", "and", ":", "class"})


#: Deepest parenthesised type expression read (real ones have one or two levels).
_MAX_PARENS = 100

#: Parts of an attribute id read (``sarek.type`` has two).
_MAX_ATTRIBUTE_PARTS = 8


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
        return _FileParser(path, lines, tokenize(text, lines)).module()
    except RecursionError:  # a backstop: the parser limits its own nesting
        raise SchemaError("OCaml source nested too deeply", SourceLocation(path)) from None


def _describe(tok: Optional[Token]) -> str:
    return "the end of the declaration" if tok is None else quoted(tok.text)


class _FileParser:
    """The file-level pass: bracket depths, type items, attributes. It reads the column-wise
    ``Tokens`` by index, so that a file of a million tokens makes no million objects."""

    def __init__(self, path: str, lines: LineMap, tokens: Tokens) -> None:
        self.path = path
        self.lines = lines
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.depth = self._depths()

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
        parts = []
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

    def attribute_id(self, i: int) -> str:
        attr = self.attribute_at(i)
        return attr[1] if attr is not None else ""

    def _item_end(self, i: int) -> Tuple[int, List[int]]:
        """End of the type item whose first declaration starts at ``i``, and its ``and``s."""
        tokens, kinds, depth = self.tokens, self.kinds, self.depth
        ands = []
        n = len(kinds)
        while i < n:
            if depth[i] == 0:
                kind = kinds[i]
                if kind == KEYWORD:
                    word = tokens.text(i)
                    if word in _ITEM_KEYWORDS:
                        return i, ands
                    if word == "and":
                        ands.append(i)
                elif kind == OTHER and tokens.is_text(i, ";;"):
                    return i, ands
                elif kind == LBRACKET and tokens.first_char(i) == "[":
                    attr = self.attribute_at(i)
                    if attr is not None and attr[0] == "@@@":
                        return i, ands
                    if i + 1 < n and kinds[i + 1] == OP and tokens.text(i + 1).startswith("%%"):
                        return i, ands
            i += 1
        return n, ands

    def module(self) -> ModuleDecl:
        tokens, kinds, depth = self.tokens, self.kinds, self.depth
        decls: List[TypeDecl] = []
        plain: Dict[str, int] = {}  # declarations without the attribute: name -> token index
        claimed: Set[int] = set()
        i = 0
        n = len(kinds)
        while i < n:
            if (
                depth[i] == 0
                and self.is_keyword(i, "type")
                and not (i > 0 and tokens.text(i - 1) in _NOT_ITEM_AFTER)
            ):
                start = i + 1
                start = self._skip_attributes(start, n, "@")
                if start < n and self.is_keyword(start, "nonrec"):
                    start += 1
                end, ands = self._item_end(start)
                bounds = [start] + [a + 1 for a in ands]
                ends = ands + [end]
                for a, b in zip(bounds, ends):
                    attrs = [
                        k
                        for k in range(a, b)
                        if depth[k] == 0
                        and self.attribute_ats(k) == "@@"
                    ]
                    sarek = [k for k in attrs if self.attribute_id(k) in SAREK_ATTRIBUTES]
                    if sarek:
                        claimed.update(sarek)
                        decls.append(_DeclParser(self, a, b).parse())
                    else:
                        name = next((k for k in range(a, b) if kinds[k] == LIDENT), None)
                        if name is not None:
                            plain.setdefault(tokens.text(name), name)
                i = end
                continue
            i += 1
        self._check_unclaimed(claimed)
        module_decl = ModuleDecl(
            default_module_name(self.path),
            self.path,
            "ocaml",
            tuple(decls),
            SourceLocation(self.path, 1, 1),
        )
        self._check_references(module_decl, plain)
        return module_decl

    def _skip_attributes(self, i: int, end: int, ats: str) -> int:
        while i < end and self.attribute_ats(i) == ats:
            i = self.matching(i) + 1
        return i

    def matching(self, i: int) -> int:
        """Index of the token closing the bracket opened at ``i``."""
        depth = self.depth
        d = depth[i]
        j = i + 1
        n = len(depth)
        while j < n and depth[j] > d:
            j += 1
        return j - 1

    def _check_unclaimed(self, claimed: Set[int]) -> None:
        kinds = self.kinds
        for i in range(len(kinds)):
            if kinds[i] != LBRACKET:
                continue
            attr = self.attribute_at(i)
            if attr is None or attr[1] not in SAREK_ATTRIBUTES or i in claimed:
                continue
            ats, name = attr
            where = self.loc_of(i)
            if ats == "@":
                raise SchemaError(
                    f"[@{name}] has one '@', so it attaches to a field, constructor or type "
                    f"expression; write [@@{name}] after the type declaration",
                    where,
                )
            if ats == "@@@":
                raise SchemaError(
                    f"floating attribute [@@@{name}] marks no declaration; write [@@{name}] "
                    f"after a type declaration",
                    where,
                )
            context = (
                "it is not on a type declaration"
                if self.depth[i] == 0
                else "this one is nested inside a module, a signature or an expression"
            )
            raise SchemaError(
                f"[@@{name}] is read only on top-level type declarations, and {context}; "
                f"move the type to the top level of the file",
                where,
            )

    def _check_references(self, module: ModuleDecl, plain: Dict[str, int]) -> None:
        declared = {d.name for d in module.decls}
        for decl in module.decls:
            exprs: List[TypeExpr] = (
                [f.type for f in decl.fields]
                if isinstance(decl, RecordDecl)
                else [a for c in decl.ctors for a in c.args]
            )
            for expr in exprs:
                while isinstance(expr, ContainerType):
                    expr = expr.elem
                if expr.module is not None or expr.name in declared:
                    continue
                if expr.name in NO_LAYOUT_TYPES:
                    raise SchemaError(
                        f"type {quoted(expr.name)} has no Sarek layout ({NO_LAYOUT_TYPES[expr.name]}); "
                        f"element types are int32, int64, float32, float64, bool, unit, "
                        f"records and variants",
                        expr.location,
                    )
                if (
                    expr.name in plain
                    and expr.name not in SCALARS
                    and expr.name not in ("int", "float")
                ):
                    raise SchemaError(
                        f"type {quoted(expr.name)} is declared at {self.loc_of(plain[expr.name])} without "
                        f"[@@sarek.type]; add the attribute to use it in a Sarek type",
                        expr.location,
                    )


class _DeclParser:
    """Strict parser of one type declaration (tokens ``[start, end)`` of the file)."""

    def __init__(self, file: _FileParser, start: int, end: int) -> None:
        self.file = file
        self.toks = file.tokens
        self.i = start
        self.end = end
        self.name = "?"
        self.paren_depth = 0
        # The token last looked at: the parser peeks at each token several times, and
        # ``Tokens`` makes a new object per look.
        self._seen_at = -1
        self._seen: Optional[Token] = None

    # -- cursor ---------------------------------------------------------------------------

    def peek(self, k: int = 0) -> Optional[Token]:
        j = self.i + k
        if j >= self.end:
            return None
        if j != self._seen_at:
            self._seen_at, self._seen = j, self.toks[j]
        return self._seen

    def peek_text(self, k: int = 0) -> Optional[str]:
        tok = self.peek(k)
        return None if tok is None else tok.text

    def peek_kind(self, k: int = 0) -> Optional[int]:
        tok = self.peek(k)
        return None if tok is None else tok.kind

    def at(self, text: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text == text

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise self.error("unexpected end of the declaration")
        self.i += 1
        return tok

    def loc(self, tok: Optional[Token]) -> SourceLocation:
        if tok is None:
            last = self.toks[self.end - 1] if self.end > 0 else None
            if last is None:
                return SourceLocation(self.file.path, 1, 1)
            return self.file.lines.loc(last.offset + len(last.text))
        return self.file.loc(tok)

    def error(self, message: str, tok: Optional[Token] = None) -> SchemaError:
        return SchemaError(message, self.loc(tok if tok is not None else self.peek()))

    def expect(self, text: str, what: str) -> Token:
        tok = self.peek()
        if tok is None or tok.text != text:
            raise self.error(f"expected {quoted(text)} {what}, found {_describe(tok)}")
        return self.next()

    def at_item_attribute(self) -> bool:
        return self.i < self.end and self.file.attribute_ats(self.i) == "@@"

    def skip_attributes(self) -> None:
        """Skip ``[@…]`` attributes (on fields, constructors and type expressions)."""
        while self.i < self.end and self.file.attribute_ats(self.i) == "@":
            self.i = self.file.matching(self.i) + 1

    # -- declaration ----------------------------------------------------------------------

    def parse(self) -> TypeDecl:
        tok = self.peek()
        if tok is not None and (
            tok.kind == TYVAR or tok.text in ("(", "_", "+", "-", "!", "+!", "-!", "!+", "!-")
        ):
            name = next(
                (
                    self.toks.text(k)
                    for k in range(self.i, self.end)
                    if self.toks.kinds[k] == LIDENT and not self.toks.is_text(k, "_")
                ),
                "?",
            )
            raise self.error(
                f"parameterised type {quoted(name)} is not supported; Sarek element types must be "
                f"concrete (declare one type per instance)",
                tok,
            )
        name_tok = self.next()
        if name_tok.kind != LIDENT:
            raise self.error(
                f"expected a type name (starting with a lowercase letter), found {quoted(name_tok.text)}",
                name_tok,
            )
        self.name = name_tok.text
        location = self.loc(name_tok)
        tok = self.peek()
        if tok is None or self.at_item_attribute():
            raise self.error(
                f"abstract type {quoted(self.name)} has no definition; [@@sarek.type] needs a record "
                f"or a variant",
                name_tok,
            )
        if tok.text == "+=":
            raise self.error(f"extensible variant {quoted(self.name)} is not supported", tok)
        if tok.text != "=":
            raise self.error(
                f"expected '=' after the type name {quoted(self.name)}, found {quoted(tok.text)}",
                tok,
            )
        self.next()
        decl = self.body(name_tok, location, allow_manifest=True)
        tok = self.peek()
        if tok is not None and tok.text == "constraint":
            raise self.error(
                "type constraints are not supported (element types have no parameters)", tok
            )
        while self.at_item_attribute():
            self.i = self.file.matching(self.i) + 1
        if self.peek() is not None:
            raise self.error(
                f"unexpected {quoted(self.peek_text())} after the declaration of {quoted(self.name)}"
            )
        return decl

    def body(self, name_tok: Token, location: SourceLocation, allow_manifest: bool) -> TypeDecl:
        if self.at("private"):
            self.next()
        tok = self.peek()
        if tok is None:
            raise self.error(f"expected the definition of {quoted(self.name)}")
        if tok.text == "..":
            raise self.error(f"extensible variant {quoted(self.name)} is not supported", tok)
        if tok.text == "{":
            return RecordDecl(self.name, self.record(), location)
        if tok.text == "|" or (tok.kind == UIDENT and not self._is_path(self.i)):
            return VariantDecl(self.name, self.variant(), location)
        if tok.text in ("true", "false") or (tok.text == "(" and self.peek_text(1) == ")"):
            raise self.error(
                f"constructor {quoted(tok.text)} is not supported; use a capitalised name", tok
            )
        if tok.text == "[":
            raise self.error(
                f"polymorphic variant type {quoted(self.name)} is not supported; declare an ordinary "
                f"variant (type t = A | B)",
                tok,
            )
        # A manifest: either an abbreviation (refused) or a re-export ``= M.t = {…}``.
        self.type_app("abbreviation")
        after = self.peek()
        if allow_manifest and after is not None and after.text == "=":
            self.next()
            return self.body(name_tok, location, allow_manifest=False)
        if after is not None and after.text in ("|", "of"):
            raise self.error(
                f"expected a constructor name (capitalised) in variant {quoted(self.name)}, found "
                f"{quoted(tok.text)}",
                tok,
            )
        if not (
            after is None or self.at_item_attribute() or after.text in ("constraint", "*", "->")
        ):
            raise self.error(
                f"unexpected {quoted(after.text)} after the definition of {quoted(self.name)}",
                after,
            )
        raise SchemaError(
            f"type abbreviation {quoted(self.name)} cannot be a Sarek type; [@@sarek.type] needs a "
            f"record or a variant (scalar names such as float32 are built in)",
            location,
        )

    def _is_path(self, i: int) -> bool:
        return i + 1 < self.end and self.toks[i + 1].text == "."

    # -- records --------------------------------------------------------------------------

    def record(self) -> Tuple[FieldDecl, ...]:
        self.expect("{", "to open the record")
        fields: List[FieldDecl] = []
        while True:
            self.skip_attributes()
            if self.at("}"):
                self.next()
                return tuple(fields)
            if self.at("mutable"):
                self.next()
            tok = self.next()
            if tok.kind != LIDENT or tok.text == "_":
                raise self.error(
                    f"expected a field name (starting with a lowercase letter) in record "
                    f"{quoted(self.name)}, found {quoted(tok.text)}",
                    tok,
                )
            self.skip_attributes()
            self.expect(":", f"after the field name {quoted(tok.text)}")
            start = self.peek()
            texpr = self.type_app(f"field {quoted(tok.text)}")
            self.skip_attributes()
            after = self.peek()
            if after is not None and after.text == "*":
                raise self.error(
                    f"field {quoted(tok.text)} has a tuple type, which has no Sarek layout; declare a "
                    f"record type for it",
                    start,
                )
            if after is not None and after.text == "->":
                raise self.error(
                    f"field {quoted(tok.text)} has a function type, which is not data", start
                )
            fields.append(FieldDecl(tok.text, texpr, self.loc(tok)))
            if self.at(";"):
                self.next()
            elif not self.at("}"):
                raise self.error(
                    f"expected ';' or '}}' after field {quoted(tok.text)}, found {_describe(self.peek())}"
                )

    # -- variants -------------------------------------------------------------------------

    def variant(self) -> Tuple[CtorDecl, ...]:
        ctors: List[CtorDecl] = []
        if self.at("|"):
            self.next()
        while True:
            tok = self.next()
            if tok.kind != UIDENT:
                raise self.error(
                    f"expected a constructor name (capitalised) in variant {quoted(self.name)}, "
                    f"found {quoted(tok.text)}",
                    tok,
                )
            self.skip_attributes()
            args: List[TypeExpr] = []
            nxt = self.peek()
            if nxt is not None and nxt.text == ":":
                raise self.error(
                    f"GADT syntax ({tok.text} : …) is not supported; write '{tok.text} of …'",
                    nxt,
                )
            if nxt is not None and nxt.text == "of":
                self.next()
                args = self.ctor_args(tok.text)
            self.skip_attributes()
            ctors.append(CtorDecl(tok.text, tuple(args), self.loc(tok)))
            nxt = self.peek()
            if nxt is None or self.at_item_attribute() or nxt.text == "constraint":
                return tuple(ctors)
            if nxt.text != "|":
                raise self.error(
                    f"expected '|' or the end of variant {quoted(self.name)}, found {quoted(nxt.text)}",
                    nxt,
                )
            self.next()

    def ctor_args(self, ctor: str) -> List[TypeExpr]:
        tok = self.peek()
        if tok is not None and tok.text == "{":
            raise self.error(
                f"constructor {quoted(ctor)} has an inline record, which is not supported; declare a "
                f"record type and use its name as the argument",
                tok,
            )
        args = []
        while True:
            args.append(self.type_app(f"an argument of {quoted(ctor)}", ctor_arg=ctor))
            self.skip_attributes()
            nxt = self.peek()
            if nxt is not None and nxt.text == "->":
                raise self.error(
                    f"constructor {quoted(ctor)} has a function-typed argument (or GADT syntax), which "
                    f"is not supported",
                    nxt,
                )
            if nxt is None or nxt.text != "*":
                return args
            self.next()

    # -- type expressions -----------------------------------------------------------------

    def type_app(self, what: str, ctor_arg: Optional[str] = None) -> TypeExpr:
        """An atom followed by postfix type constructors (``point``, ``float32 vector``)."""
        start = self.peek()
        expr = self.atom(what, ctor_arg)
        self.skip_attributes()
        while True:
            tok = self.peek()
            if tok is None or tok.kind not in (LIDENT, UIDENT) or tok.text == "_":
                return expr
            if tok.kind == UIDENT:
                if not self._is_path(self.i):
                    return expr
                path = self.path_text()
                raise self.error(
                    f"type constructor {quoted(path)} (in {what}) has no Sarek layout; only 'array' and "
                    f"'vector' exist, and neither has an element layout",
                    tok,
                )
            if tok.text not in ("array", "vector"):
                raise self.error(
                    f"type constructor {quoted(tok.text)} (in {what}) has no Sarek layout; only 'array' "
                    f"and 'vector' exist, and neither has an element layout",
                    tok,
                )
            self.next()
            expr = ContainerType(expr, tok.text, self.loc(start))
            self.skip_attributes()

    def path_text(self) -> str:
        parts = [self.next().text]
        while self.at(".") and self.peek_kind(1) in (UIDENT, LIDENT):
            self.next()
            parts.append(self.next().text)
        return ".".join(parts)

    def atom(self, what: str, ctor_arg: Optional[str]) -> TypeExpr:
        tok = self.peek()
        if tok is None:
            raise self.error(f"expected a type for {what}")
        if tok.kind == TYVAR:
            raise self.error(
                f"type variable {tok.text} in {what}: parameterised and polymorphic types are not "
                f"supported; element types must be concrete",
                tok,
            )
        if tok.kind == LIDENT:
            self.next()
            if tok.text == "_":
                raise self.error(f"wildcard type '_' in {what}; write a concrete type", tok)
            nxt = self.peek()
            if nxt is not None and nxt.text == ":":
                raise self.error(f"labelled function type in {what} is not data", tok)
            return NamedType(tok.text, None, self.loc(tok))
        if tok.kind == UIDENT:
            if not self._is_path(self.i):
                raise self.error(
                    f"expected a type for {what}, found constructor {quoted(tok.text)}", tok
                )
            module = self.next().text
            self.next()  # "."
            name = self.next()
            if name.kind == UIDENT:
                raise self.error(
                    f"nested module path {module}.{name.text}… is not supported; refer to a type "
                    f"of another schema file as Module.name",
                    tok,
                )
            if name.kind != LIDENT:
                raise self.error(
                    f"expected a type name after {quoted(module + '.')}, found {quoted(name.text)}",
                    name,
                )
            return NamedType(name.text, module, self.loc(tok))
        if tok.text == "(":
            return self.parenthesised(what, ctor_arg)
        if tok.text == "[":
            raise self.error(f"polymorphic variant type in {what} is not supported", tok)
        if tok.kind == OP and tok.text.startswith("<"):
            raise self.error(f"object type in {what} is not supported", tok)
        if tok.kind == OP and tok.text.startswith("#"):
            raise self.error(f"class type in {what} is not supported", tok)
        if tok.kind == OP and tok.text[0] in "?~":
            raise self.error(f"labelled function type in {what} is not data", tok)
        raise self.error(f"expected a type for {what}, found {quoted(tok.text)}", tok)

    def parenthesised(self, what: str, ctor_arg: Optional[str]) -> TypeExpr:
        open_tok = self.next()
        if self.at("module"):
            raise self.error(f"first-class module type in {what} is not supported", open_tok)
        # Each level is a Python call: a limit instead of a RecursionError on hostile input.
        if self.paren_depth >= _MAX_PARENS:
            raise self.error(
                f"type in {what} is nested in more than {_MAX_PARENS} parentheses", open_tok
            )
        self.paren_depth += 1
        inner = self.type_app(what)
        self.paren_depth -= 1
        self.skip_attributes()
        tok = self.peek()
        if tok is not None and tok.text == ",":
            raise self.error(
                f"parameterised type application in {what} is not supported; element types must "
                f"be concrete",
                open_tok,
            )
        if tok is not None and tok.text == "*":
            if ctor_arg is not None:
                raise self.error(
                    f"constructor {quoted(ctor_arg)} takes a single tuple argument written 'of (a * b)', "
                    f"which has no Sarek layout; write 'of a * b' for several arguments",
                    open_tok,
                )
            raise self.error(
                f"tuple type in {what} has no Sarek layout; declare a record type", open_tok
            )
        if tok is not None and tok.text == "->":
            raise self.error(f"function type in {what} is not data", open_tok)
        self.expect(")", f"to close the parenthesis opened at {self.loc(open_tok)}")
        return inner
