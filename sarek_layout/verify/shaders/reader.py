"""The struct declarations of a shader as written: names, member spellings and their places.

The compilers give the numbers (``glsl``, ``wgsl``, ``metal`` in this package); this reader
only says what the shader declares and where, so that a report can point at
``FILE:LINE:COL`` and name the spelling (``vec3``, ``bool``, ``packed_float3``) behind a
number. It reads comment-free text (``lexer``) with one forward scan per declaration; nesting
depth was bounded before (``source.check_nesting``). It decides nothing: what a member is,
its type and its place are read from what the compiler built (``types``).

The language object says how its structs are written (``member_syntax``, ``qualifiers``,
``typedef_structs``, ``interface_blocks``): GLSL ``struct T { … };`` and interface blocks
(``layout(std140) uniform B { … }``); WGSL ``struct T { m: type, … }``; Metal ``struct T
{ … };`` and ``typedef struct [T] { … } T;``, where a nested ``union``/``struct`` member is
one member (its name, type ``union``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .source import ShaderFile, strip_comments

__all__ = ["MemberDecl", "StructDecl", "read_structs", "read_text", "used_structs", "GLSL_QUALIFIERS", "METAL_QUALIFIERS"]


@dataclass
class MemberDecl:
    name: str
    #: The type as written, qualifiers and attributes dropped (``vec3``, ``array<f32, 4>``).
    type: str
    #: Array length written after the name (GLSL, Metal), 0 when none; WGSL arrays are
    #: in ``type``.
    count: int
    where: str
    #: Every array length written after the name, outermost first (``float m[4][3]``:
    #: ``(4, 3)``; -1 for one that is not a number), ``()`` when none.
    dims: tuple = ()


@dataclass
class StructDecl:
    name: str
    where: str
    file: ShaderFile
    members: List[MemberDecl] = field(default_factory=list)
    #: ``struct``, or ``block`` for a GLSL interface block.
    kind: str = "struct"
    #: GLSL blocks: the layout qualifier's words (``std140``, ``binding = 0``) and
    #: ``uniform``/``buffer``.
    layout: str = ""
    storage: str = ""
    #: Other declarations of the same name (``#if`` branches): the compiler says which is live.
    alternatives: List["StructDecl"] = field(default_factory=list, repr=False)

    def at(self, place) -> "StructDecl":
        """The declaration of this name at ``place`` (file name in the compile folder,
        line), or this one."""
        for d in [self, *self.alternatives]:
            if place and d.file.name == place[0] and d.line == place[1]:
                return d
        return self

    @property
    def line(self) -> int:
        parts = self.where.rsplit(":", 2)
        return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0


def _closers(text: str) -> Dict[int, int]:
    """Offset of each ``{`` -> just past the ``}`` that closes it (one pass: a shader of many
    struct heads costs one scan, not one per head)."""
    out: Dict[int, int] = {}
    stack: List[int] = []
    for m in re.finditer(r"[{}]", text):
        if m.group() == "{":
            stack.append(m.start())
        elif stack:
            out[stack.pop()] = m.end()
    return out


def _split_top(body: str, sep: str, base: int) -> List[tuple]:
    """``body`` split at ``sep`` outside brackets (and WGSL's ``<…>``): (piece, its offset)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth = max(depth - 1, 0)
        elif ch == sep and depth == 0:
            out.append((body[start:i], base + start))
            start = i + 1
    if body[start:].strip():
        out.append((body[start:], base + start))
    return out


GLSL_QUALIFIERS = re.compile(
    r"\b(?:highp|mediump|lowp|precise|invariant|coherent|volatile|restrict|readonly|writeonly|"
    r"flat|smooth|noperspective|const)\b|\blayout\s*\([^)]{0,4096}\)")
METAL_QUALIFIERS = re.compile(
    r"\b(?:alignas|_Alignas)\s*\([^)]{0,4096}\)|\[\[[^\]]{0,4096}\]\]|\b(?:const|volatile|device|constant|"
    r"thread|threadgroup|metal::)\b|__attribute__\s*\(\([^)]{0,4096}\)\)")
_C_DECL = re.compile(r"^(?P<type>.*?)\b(?P<name>[A-Za-z_]\w*)\s*(?P<dims>(?:\[\s*\w*\s*\]\s*)*)$",
                     re.S)
_DIM = re.compile(r"\[\s*(\w*)\s*\]")


def _c_members(f: ShaderFile, body: str, base: int) -> List[MemberDecl]:
    out = []
    quals = f.language.qualifiers
    for piece, offset in _split_top(body, ";", base):
        lead = len(piece) - len(piece.lstrip())
        text = piece.strip()
        if not text or text.startswith(("static_assert", "enum", "using", "#")):
            continue
        nested = re.match(r"(union|struct)\b[^{]*\{", text)
        if nested:
            end = _closers(text).get(nested.end() - 1, len(text))
            tail = text[end:].strip()
            name = re.match(r"(\w+)", tail)
            out.append(MemberDecl(name.group(1) if name else "", nested.group(1), 0,
                                  f.where(offset + lead)))
            continue
        if "(" in quals.sub(" ", text):
            continue  # a member function (Metal)
        # ``float a, b;``: one type, several names
        decls = _split_top(text, ",", offset + lead)
        first = _C_DECL.match(quals.sub(" ", decls[0][0]))
        if first is None:
            continue
        type_ = " ".join(first.group("type").split())
        for i, (d, d_off) in enumerate(decls):
            m = _C_DECL.match(quals.sub(" ", d)) if i else first
            if m is None:
                continue
            name_at = d_off + d.find(m.group("name")) if m.group("name") in d else d_off
            dims = tuple(int(c) if c.isdigit() else -1 for c in _DIM.findall(m.group("dims")))
            out.append(MemberDecl(m.group("name"), type_ if i else " ".join(m.group("type").split()),
                                  dims[0] if dims else 0, f.where(name_at), dims))
    return out


def _wgsl_members(f: ShaderFile, body: str, base: int) -> List[MemberDecl]:
    out = []
    for piece, offset in _split_top(body, ",", base):
        lead = len(piece) - len(piece.lstrip())
        text = re.sub(r"@\w+\s*(?:\([^)]*\))?", lambda m: " " * len(m.group()), piece)
        m = re.match(r"\s*(\w+)\s*:\s*(.+?)\s*$", text, re.S)
        if m:
            out.append(MemberDecl(m.group(1), re.sub(r"\s+", "", m.group(2)), 0,
                                  f.where(offset + text.index(m.group(1), lead))))
    return out


_GLSL_BLOCK = re.compile(
    r"(?:\blayout\s*\((?P<layout>[^)]{0,4096})\)\s*)?(?P<quals>(?:\b(?:readonly|writeonly|coherent|"
    r"restrict|volatile|shared)\s+)*)\b(?P<storage>uniform|buffer)\s+(?P<name>\w+)\s*\{")


def read_structs(f: ShaderFile) -> List[StructDecl]:
    """Every struct (and GLSL block) ``f`` declares, in order."""
    lang = f.language
    text = f.stripped or strip_comments(f.text, lang)
    closers = _closers(text)
    out: List[StructDecl] = []
    if lang.member_syntax == "wgsl":
        for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", text):
            end = closers.get(m.end() - 1, len(text))
            s = StructDecl(m.group(1), f.where(m.start(1)), f)
            s.members = _wgsl_members(f, text[m.end():end - 1], m.end())
            out.append(s)
        return out
    last_end = 0  # a struct inside another's body (a Metal union arm) is part of that one
    for m in re.finditer(r"\b(typedef\s+)?struct\s+(\w*)\s*\{", text):
        if (not lang.typedef_structs and not m.group(2)) or m.start() < last_end:
            continue
        end = closers.get(m.end() - 1, len(text))
        name: Optional[str] = m.group(2)
        at = m.start(2) if name else m.start()
        if m.group(1):
            alias = re.match(r"\s*(\w+)\s*;", text[end:])
            if alias and alias.group(1) != name:  # same name: the struct tag's place
                name, at = alias.group(1), end + alias.start(1)
        last_end = end
        if not name:
            continue
        s = StructDecl(name, f.where(at), f)
        s.members = _c_members(f, text[m.end():end - 1], m.end())
        out.append(s)
    if lang.interface_blocks:
        for m in _GLSL_BLOCK.finditer(text):
            end = closers.get(m.end() - 1, len(text))
            s = StructDecl(m.group("name"), f.where(m.start("name")), f, kind="block",
                           layout=" ".join((m.group("layout") or "").split()),
                           storage=m.group("storage"))
            s.members = _c_members(f, text[m.end():end - 1], m.end())
            out.append(s)
    return out



def read_text(text: str, lang, name: str = "(generated)") -> List[StructDecl]:
    """The structs of ``text`` (a generated file), read as ``lang``'s compiler reads it."""
    f = ShaderFile(name, name, text, lang, False)
    f.stripped = strip_comments(text, lang)
    return read_structs(f)


def used_structs(decls: Dict[str, StructDecl], names) -> List[str]:
    """``names`` (those ``decls`` declares) and every struct their members use, as written
    (an array's element too), each once, in the order found."""
    out: Dict[str, None] = {}
    stack = list(names)
    while stack:
        name = stack.pop(0)
        if name in out or name not in decls:
            continue
        out[name] = None
        d = decls[name]
        stack += [d.file.language.element(m)[0] for m in d.members]
    return list(out)
