"""What the layout extensions of one translation unit change (issue 22).

``extensions`` finds each extension with its place and what it is written on; this module
judges them against the declarations (``reader.CDeclarations``): an extension that changes
a layout refuses the struct and union bodies it changes and the typedef or tag names its
declaration declares (``changed``, ``changed_typedef``), never the header. An alignment of
8 keeps the layout where it is the natural alignment of what it is written on (an int64_t,
a uint64_t, a double, or a struct holding one: what generated headers write to pin i386 to
the x86-64 layout); elsewhere it refuses the bodies it is written in.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ...errors import SchemaError, quoted
from .extensions import MEMBER_TYPES_ACCEPTED, Extension, extensions_by_member
from .places import Places
from .reader import C_SCALARS, STDINT, CDeclarations, canonical, without_padding

__all__ = ["LayoutChanges"]


class LayoutChanges:
    """The refusals the extensions of one translation unit (``ast``, read as ``h``) make."""

    def __init__(self, places: Places, ast, h: CDeclarations,
                 extensions: Sequence[Extension]) -> None:
        self.places = places
        self.ast = ast
        self.h = h
        #: Struct and union bodies by the position of their node, and typedef or tag names,
        #: each with its refusal.
        self.changed_bodies: Dict[Tuple[str, int, int], SchemaError] = {}
        self.changed_names: Dict[str, SchemaError] = {}
        self._walked: Dict[int, object] = {}
        #: id(struct body) -> whether it holds an 8-byte scalar (``_natural_alignment_is_8``).
        self._aligns_8: Dict[int, bool] = {}
        self._file_scope_bodies: Optional[Dict[Tuple[str, int, int], Any]] = None
        #: What an accepted alignment of 8 pins to 8 on every ABI (i386 included): members
        #: by the position of their names, struct bodies by identity, typedef names.
        self.pinned_members: Set[Tuple[str, int, int]] = set()
        self.pinned_bodies: Set[int] = set()
        self.pinned_names: Set[str] = set()
        #: The alignment file-scope alignment attributes set on struct bodies (by position)
        #: and on typedef or tag names, and the bodies and names something else changes too
        #: (``declared_alignment``: CUDA's vector types).
        self._aligned: Dict[object, int] = {}
        self._otherwise: Set[object] = set()
        self._note_extensions(extensions)
        self._check_alignments(extensions)

    def _note_extensions(self, extensions: Sequence[Extension]) -> None:
        """Each extension that changes a layout refuses what it changes, not the header:
        the bodies it is written in or defines, and the names its declaration declares (a
        ``mode`` or ``vector_size`` typedef that no imported type uses changes nothing)."""
        # The extensions of one declaration share its tuples: each is walked once.
        groups: Dict[int, List[Any]] = {}  # id -> [bodies or names, alignment, otherwise]
        for ext in extensions:
            for group in (ext.records, ext.words):
                if group:
                    entry = groups.setdefault(id(group), [group, 0, False])
                    if ext.alignment is not None:
                        entry[1] = max(entry[1], ext.alignment)
                    else:
                        entry[2] = True
            if ext.verdict is None:
                continue  # an alignment of 8: checked against its members' types below
            self._changes(ext, ext.verdict)
        for group, alignment, otherwise in groups.values():
            for key in group:
                if otherwise:
                    self._otherwise.add(key)
                if alignment:
                    self._aligned[key] = max(self._aligned.get(key, 0), alignment)

    def declared_alignment(self, body, names) -> Optional[int]:
        """The alignment file-scope attributes set on the struct ``body`` or its ``names``
        (typedef name, tag): 0 when none does, ``None`` when anything else changes its
        layout (packing, a member's alignment…)."""
        coord = getattr(body, "coord", None)
        keys = [n for n in names if n] + (
            [(coord.file, coord.line, coord.column)] if coord is not None else [])
        if any(k in self._otherwise for k in keys):
            return None
        return max([self._aligned.get(k, 0) for k in keys] + [0])

    def _changes(self, ext: Extension, why: str) -> None:
        error = self.places.extension_error(ext, why)
        # The extensions of one declaration share its tuples: each is walked once (the
        # first extension's refusal is the one said), so many attributes stay linear.
        for group, into in ((ext.records, self.changed_bodies), (ext.words, self.changed_names)):
            if group and id(group) not in self._walked:
                self._walked[id(group)] = group  # kept alive: ids stay unique
                for key in group:
                    into.setdefault(key, error)

    def changed(self, body) -> Optional[SchemaError]:
        """The refusal of a struct or union body whose layout an extension changes."""
        coord = getattr(body, "coord", None)
        if coord is None or not self.changed_bodies:
            return None
        return self.changed_bodies.get((coord.file, coord.line, coord.column))

    def changed_typedef(self, t) -> Optional[Tuple[str, SchemaError]]:
        """The first typedef name on the chain of ``t`` (a member's type) whose declaration
        an extension changes (``register_t __attribute__((mode(word)))``), with its refusal."""
        name = self._on_chain(t, self.changed_names) if self.changed_names else None
        return None if name is None else (name, self.changed_names[name])

    def pinned(self, member) -> bool:
        """Whether an alignment of 8 pins ``member`` at 8 on every ABI: written on it, or
        on a typedef its type is spelled through."""
        coord = member.coord
        if coord is not None and (coord.file, coord.line, coord.column) in self.pinned_members:
            return True
        return bool(self.pinned_names) and self._on_chain(member.type, self.pinned_names) \
            is not None

    def _on_chain(self, t, names) -> Optional[str]:
        """The first typedef name of ``names`` on the typedef chain of the type ``t``."""
        from pycparser import c_ast

        seen: Set[str] = set()
        while True:
            if isinstance(t, c_ast.TypeDecl):
                t = t.type
            if not (isinstance(t, c_ast.IdentifierType) and len(t.names) == 1):
                return None
            name = t.names[0]
            if name in names:
                return name
            if name in seen or name not in self.h.aliases:
                return None
            seen.add(name)
            t = self.h.aliases[name]

    def _check_alignments(self, extensions: Sequence[Extension]) -> None:
        """An alignment of 8 is accepted where it is the natural alignment of the member it
        is written on (int64_t, double); elsewhere it refuses the bodies it is written in."""
        from pycparser import c_ast

        for ext in extensions:
            if ext.verdict is None and not ext.members_at:
                self._check_aligned_declaration(ext)
        pending = extensions_by_member(list(extensions))
        if not pending:
            return
        # Every member of every struct and union, found without recursion (depth is input).
        stack = list(self.ast.ext)
        while stack and pending:
            node = stack.pop()
            if isinstance(node, (c_ast.Struct, c_ast.Union)) and node.decls:
                for member in node.decls:
                    coord = member.coord
                    key = (coord.file, coord.line, coord.column) if coord is not None else None
                    ext = pending.pop(key, None) if key is not None else None
                    if ext is not None and self._check_aligned_member(ext, member,
                                                                      node.name or "?"):
                        self.pinned_members.add(key)
            stack.extend(child for _, child in node.children())
        for ext in pending.values():
            self._changes(
                ext,
                "aligns something that is not a struct member, so the C layout would differ "
                "from Sarek's (an alignment of 8 is accepted only on a member whose natural "
                "alignment is 8, as generated headers write)",
            )

    def _check_aligned_declaration(self, ext: Extension) -> None:
        """An alignment of 8 on a file-scope declaration: the structs it defines and the
        typedefs it declares keep their layout where their natural alignment is 8 already
        (linux/bpf.h's ``struct bpf_btf_info {…} __attribute__((aligned(8)))``); a variable
        it declares is no type of the schema."""
        bodies = self._bodies_at(ext.records)
        types = [self._declared_type(word) for word in ext.words]
        if all(self._natural_alignment_is_8(t) for t in bodies + [t for t in types if t]):
            self.pinned_bodies.update(id(b) for b in bodies)
            self.pinned_names.update(w for w, t in zip(ext.words, types) if t is not None)
            return
        self._changes(
            ext,
            "aligns a struct or a typedef at 8, but its natural alignment in Sarek's layout is "
            "less, so the C layout would differ from Sarek's (an alignment of 8 is accepted only "
            "where it is the natural alignment already: a struct holding an int64_t, a uint64_t "
            "or a double, or such a member)",
        )

    def _bodies_at(self, keys: Sequence[Tuple[str, int, int]]) -> List[Any]:
        """The struct and union nodes at ``keys``, defined at file scope."""
        from pycparser import c_ast

        if self._file_scope_bodies is None:
            self._file_scope_bodies = {}
            for node in self.ast.ext:
                t = getattr(node, "type", None)
                while isinstance(t, c_ast.TypeDecl):
                    t = t.type
                if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.coord is not None:
                    coord = t.coord
                    self._file_scope_bodies[(coord.file, coord.line, coord.column)] = t
        return [self._file_scope_bodies[k] for k in keys if k in self._file_scope_bodies]

    def _declared_type(self, word: str):
        """The type a typedef name declares (None for a variable or a tag: no type of its
        own; a tag's body is among the declaration's records)."""
        td = self.h.struct_typedef(word)
        if td is not None:
            body = self.h.body_of(td)
            return body if body is not None else td.node.type
        return self.h.aliases.get(word)

    def _check_aligned_member(self, ext: Extension, member, owner: str) -> bool:
        """Whether the alignment of 8 on ``member`` keeps its layout (else it is refused)."""
        if self._natural_alignment_is_8(member.type):
            return True
        spelled = self.h.spell(member.type)
        if spelled.kind != "struct" and spelled.text not in C_SCALARS:
            # The member's own type has no Sarek layout (``__aligned_u64``: uint64_t where
            # it is no scalar): that is the reason its struct is refused, said at the member.
            return False
        self._changes(
            ext,
            f"aligns member {quoted(member.name)} of {quoted(owner)} at 8, but its natural "
            f"alignment in Sarek's layout is 4, so the C layout would differ from Sarek's (an "
            f"alignment of 8 is accepted only on a member whose natural alignment is 8: an "
            f"int64_t, a uint64_t, a double, or a struct holding one)",
        )
        return False

    def _natural_alignment_is_8(self, type_node) -> bool:
        """Whether Sarek aligns ``type_node`` (a member's type, or a struct or union body)
        at 8: an int64/float64 scalar, or a struct (record or tagged variant) with one
        somewhere inside. Generated headers align exactly those members at 8. Iterative:
        the nesting depth is the input's.

        The answer for each struct body met is kept (``_aligns_8``): a header of records
        each nesting the one before writes the alignment on every ``inner`` member, and
        walking each down to the bottom was quadratic in the depth (issue 24). A body's
        answer is kept where it is proved: true for the bodies on the way from this member
        to the 8-byte scalar found, false for every body met when none is found (all that
        they reach was walked)."""
        from pycparser import c_ast

        known = self._aligns_8
        seen = set()
        #: id(body) -> the body it was reached from (None: the member itself), to mark the
        #: way to an 8-byte scalar.
        via: Dict[int, Tuple[Any, Any]] = {}
        stack: List[Tuple[Any, Any]] = [(type_node, None)]
        while stack:
            t, owner = stack.pop()
            if isinstance(t, c_ast.TypeDecl):
                inner = t.type
            elif isinstance(t, (c_ast.Struct, c_ast.Union)):
                inner = t
            else:
                continue  # pointers, arrays, functions: refused elsewhere
            body: Any = None
            if isinstance(inner, (c_ast.Struct, c_ast.Union)):
                body = inner if inner.decls is not None else self.h.bodies.get(inner.name)
            elif isinstance(inner, c_ast.IdentifierType):
                if C_SCALARS.get(canonical(inner.names)) in MEMBER_TYPES_ACCEPTED:
                    return self._aligned_way(owner, via)
                name = inner.names[0] if len(inner.names) == 1 else None
                if name is not None and self.h.struct_typedef(name) is not None:
                    body = self.h.body_of(self.h.struct_typedefs[name])
                elif name in self.h.aliases and name not in STDINT and name not in seen:
                    seen.add(name)
                    stack.append((self.h.aliases[name], owner))
            if body is None or id(body) in seen:
                continue
            answer = known.get(id(body))
            if answer is True:
                return self._aligned_way(owner, via)
            seen.add(id(body))
            if answer is False:
                continue  # nothing it reaches is 8-aligned
            via[id(body)] = (body, owner)
            stack.extend((m.type, body) for m in without_padding(body.decls or ()))
        for body, _ in via.values():
            known[id(body)] = False
        return False

    def _aligned_way(self, body: Any, via: Dict[int, Tuple[Any, Any]]) -> bool:
        """Mark ``body`` and the bodies it was reached through as holding an 8-byte scalar."""
        while body is not None:
            self._aligns_8[id(body)] = True
            body = via[id(body)][1]
        return True
