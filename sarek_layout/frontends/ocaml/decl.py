"""The strict parser of one ``[@@sarek.type]`` declaration of an OCaml source.

``ocaml.py`` finds the type items of a file and hands each attributed declaration (a range
of its tokens) to ``DeclParser``, which reads it as OCaml's grammar does and refuses, at the
offending token, what has no Sarek layout: parameters, type variables, inline records,
tuples, functions, objects, polymorphic variants, abbreviations, abstract and extensible
types. It reads records, variants written with ``of`` or in GADT syntax (``A : v``,
``B : a * b -> v``, when the result is the declared type itself: plain variants written
another way, as Sarek's PPX reads them, from the constructor arguments only) and the type
expressions ``name``, ``M.name``, ``M.N.name``, ``t array``, ``t vector``. What a name
refers to is decided later (``ocaml.py`` for the file's own inner modules, ``resolve``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import (
    ContainerType,
    CtorDecl,
    FieldDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
)
from .lexer import OP, TYVAR, UIDENT, LIDENT, Token

if TYPE_CHECKING:  # pragma: no cover
    from .reader import FileParser

__all__ = ["DeclParser", "describe"]

#: Deepest parenthesised type expression read (real ones have one or two levels).
MAX_PARENS = 100

#: Most modules in a type path read (``A.B.t`` has two); a longer one is refused.
MAX_PATH = 32


def describe(tok: Optional[Token]) -> str:
    return "the end of the declaration" if tok is None else quoted(tok.text)


class DeclParser:
    """Strict parser of one type declaration (tokens ``[start, end)`` of the file)."""

    def __init__(self, file: "FileParser", start: int, end: int) -> None:
        self.file = file
        self.toks = file.tokens
        self.i = start
        self.end = end
        self.name = "?"
        self.paren_depth = 0
        #: Set while a GADT-syntax constructor is read: messages show that spelling.
        self.gadt = False
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
            raise self.error(f"expected {quoted(text)} {what}, found {describe(tok)}")
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
                    f"expected ';' or '}}' after field {quoted(tok.text)}, found {describe(self.peek())}"
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
                self.next()
                self.gadt = True
                args = self.gadt_ctor(tok.text)
                self.gadt = False
            elif nxt is not None and nxt.text == "of":
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

    def gadt_ctor(self, ctor: str) -> List[TypeExpr]:
        """``A : v`` or ``A : a * b -> v`` (after the colon): the arguments, when the result
        is the declared type itself. Sarek's PPX registers a constructor from its arguments
        alone (``pcd_args``), so this is ``A | B of a * b``; a real GADT is refused."""
        tok = self.peek()
        if tok is None:
            raise self.error(f"expected the type of constructor {quoted(ctor)} after ':'")
        if tok.text == "{":
            raise self.error(
                f"constructor {quoted(ctor)} has an inline record argument, which is not "
                f"supported; declare a record type and use its name as the argument",
                tok,
            )
        if tok.kind == TYVAR or tok.text == "type":
            raise self.error(
                f"type variable {tok.text} in GADT constructor {quoted(ctor)}: an existential "
                f"or polymorphic argument has no fixed layout; element types must be concrete",
                tok,
            )
        args = [self.type_app(f"an argument of {quoted(ctor)}", ctor_arg=ctor)]
        self.skip_attributes()
        while self.at("*"):
            self.next()
            args.append(self.type_app(f"an argument of {quoted(ctor)}", ctor_arg=ctor))
            self.skip_attributes()
        if not self.at("->"):
            if len(args) > 1:
                after = None if self.at_item_attribute() else self.peek()
                raise self.error(
                    f"expected '-> {self.name}' after the arguments of GADT constructor "
                    f"{quoted(ctor)}, found {describe(after)}"
                )
            self.check_gadt_result(ctor, args[0], tok)
            return []
        self.next()
        result_tok = self.peek()
        result = self.type_app(f"the result type of {quoted(ctor)}")
        self.skip_attributes()
        if self.at("->"):
            raise self.error(
                f"GADT constructor {quoted(ctor)} has a function-typed argument or arguments "
                f"separated by '->'; separate its arguments with '*' ({ctor} : a * b -> "
                f"{self.name})",
            )
        self.check_gadt_result(ctor, result, result_tok)
        return args

    def check_gadt_result(self, ctor: str, result: TypeExpr, tok: Optional[Token]) -> None:
        if isinstance(result, NamedType) and result.module is None and result.name == self.name:
            return
        raise self.error(
            f"GADT constructor {quoted(ctor)} returns {quoted(str(result))}, not "
            f"{quoted(self.name)}: a constructor whose result is another type (a real GADT) has "
            f"no Sarek layout; write {ctor} : … -> {self.name}, or {ctor} of …",
            tok,
        )

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
                    f"constructor {quoted(ctor)} has a function-typed argument, which is not "
                    f"supported",
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
            # ``M.t`` or ``M.N.t``: whether it names an inner module of this file or another
            # schema file is decided once the whole file is read (``ocaml.py``).
            parts = [self.next().text]
            self.next()  # "."
            name = self.next()
            while name.kind == UIDENT and self.at(".") and len(parts) < MAX_PATH:
                parts.append(name.text)
                self.next()
                name = self.next()
            if name.kind != LIDENT:
                raise self.error(
                    f"expected a type name after {quoted('.'.join(parts) + '.')}, found "
                    f"{quoted(name.text)}",
                    name,
                )
            return NamedType(name.text, ".".join(parts), self.loc(tok))
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
        if self.paren_depth >= MAX_PARENS:
            raise self.error(
                f"type in {what} is nested in more than {MAX_PARENS} parentheses", open_tok
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
                written, fix = ("'(a * b) -> t'", "'a * b -> t'") if self.gadt else (
                    "'of (a * b)'", "'of a * b'")
                raise self.error(
                    f"constructor {quoted(ctor_arg)} takes a single tuple argument written {written}, "
                    f"which has no Sarek layout; write {fix} for several arguments",
                    open_tok,
                )
            raise self.error(
                f"tuple type in {what} has no Sarek layout; declare a record type", open_tok
            )
        if tok is not None and tok.text == "->":
            raise self.error(f"function type in {what} is not data", open_tok)
        self.expect(")", f"to close the parenthesis opened at {self.loc(open_tok)}")
        return inner
