"""GLSL: the language object, and its shaders measured by glslang from the SPIR-V it builds.

For each given file, the compile folder holds the file (its ``#version`` line blanked, so
that it can be included) and what it includes (``source``), and a probe shader::

    #version <the shader's>
    #define main sarek_user_main      // the shader's entry point becomes a plain function
    #include "src/<file>"
    #undef main
    struct SarekShaderProbe0 { uint a; T t[2]; };   // for each struct T to measure
    layout(std430, binding = 4000) buffer SarekShaderIn0 { SarekShaderProbe0 p0; … } …;
    layout(scalar, binding = 4001) buffer SarekShaderIn1 { SarekShaderProbe0 p0; … } …;
    void main() { … }

Each copy of ``T`` in a probe buffer is laid out by that buffer's rules: std430, and scalar
(GL_EXT_scalar_block_layout's C-like rules). Everything is read from the SPIR-V (``spirv``):
the copy's members (their names, ``OpTypeInt``/``OpTypeFloat`` types, ``Offset``
decorations), ``T``'s array stride (its size) and the offset of ``t`` (its alignment: the
``uint`` before it is 4-aligned). ``T`` is judged by its std430 copy, or by its scalar one
when every block of the shader that holds it is laid out like that copy. The shader's own
blocks stay in the SPIR-V as it declared them; each one that holds a schema struct is judged
by its own rules (``glsl_blocks``), whatever its name or head was spelled with.

The stage is the suffix's (a ``.glsl`` file is compiled as compute), and the SPIR-V version
the stage and the extensions need (``target_env``).
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

from ...targets.naming import VALUE_PARAM
from .glsl_blocks import measure_glsl
from .glsl_probe import BLOCK, STAGES, probe_member as _probe_member, probe_structs, target_env
from .language import ShadingLanguage
from .lexer import GLSL_LEXICON
from .reader import GLSL_QUALIFIERS
from .types import BOOL, GpuType

__all__ = ["GLSL", "Glsl", "STAGES", "BLOCK", "probe_structs", "target_env"]

_SCALARS: Dict[str, GpuType] = {
    "int": GpuType("int", 32), "uint": GpuType("uint", 32), "float": GpuType("float", 32),
    "double": GpuType("float", 64), BOOL: GpuType(BOOL, 32),
    **{f"{s}{n}_t": GpuType("int" if s == "int" else "uint", n)
       for s in ("int", "uint") for n in (8, 16, 32, 64)},
    **{f"float{n}_t": GpuType("float", n) for n in (16, 32, 64)},
}
#: vector prefix -> its component (``ivec3``, ``u64vec2``, ``f16vec4``…).
_PREFIXES: Dict[str, GpuType] = {
    "": _SCALARS["float"], "d": _SCALARS["double"], "i": _SCALARS["int"],
    "u": _SCALARS["uint"], "b": _SCALARS[BOOL],
    **{f"{p}{n}": GpuType("int" if p == "i" else "uint", n) for p in "iu" for n in (8, 16, 64)},
    **{f"f{n}": GpuType("float", n) for n in (16, 32, 64)},
}
_VECTOR = re.compile(r"(|d|i|u|b|i8|u8|i16|u16|i64|u64|f16|f32|f64)vec([234])\Z")
_MATRIX = re.compile(r"(|d|f16|f32|f64)mat([234])(?:x([234]))?\Z")
_NAMES = {t: n for n, t in reversed(list(_SCALARS.items()))}
_ACCESSOR = re.compile(rf"^([\w\[\]]+)\s+(\w+)\((\w+)\s+{VALUE_PARAM}\)\s*$", re.M)
_PREFIX_OF = {t: p for p, t in reversed(list(_PREFIXES.items()))}

class Glsl(ShadingLanguage):
    name = "glsl"
    title = "GLSL"
    suffixes = tuple(STAGES)
    lexicon = GLSL_LEXICON
    toolchain = tool = short = "glslang"
    qualifiers = GLSL_QUALIFIERS
    interface_blocks = True
    bool_why = ("GLSL bool has no memory layout of its own: glslang stores it as a 32-bit uint, "
                "but SPIR-V translated to Metal (MoltenVK, SPIRV-Cross) makes it 1 byte and "
                "WGSL refuses it in a buffer")
    float64_note = "(GLSL double needs the device feature shaderFloat64)"

    def missing(self) -> Optional[str]:
        import shutil

        if shutil.which("glslangValidator") is None:
            return "glslangValidator not found; apt-get install -y glslang-tools"
        return None

    def parse(self, spelling: str) -> Optional[GpuType]:
        if spelling in _SCALARS:
            return _SCALARS[spelling]
        v = _VECTOR.match(spelling)
        if v:
            return GpuType("vector", count=int(v.group(2)), elem=_PREFIXES[v.group(1)])
        mt = _MATRIX.match(spelling)
        if mt:
            column = GpuType("vector", count=int(mt.group(3) or mt.group(2)),
                             elem=_PREFIXES[mt.group(1)])
            return GpuType("matrix", count=int(mt.group(2)), elem=column)
        return None

    def spell(self, t: GpuType) -> str:
        if t.is_scalar:
            return _NAMES.get(t, f"{t.kind}{t.bits}")
        if t.kind == "vector" and t.elem in _PREFIX_OF:
            return f"{_PREFIX_OF[t.elem]}vec{t.count}"
        if t.kind == "matrix" and t.elem is not None and t.elem.elem in _PREFIX_OF:
            rows = t.elem.count
            shape = f"{t.count}" if rows == t.count else f"{t.count}x{rows}"
            return f"{_PREFIX_OF[t.elem.elem]}mat{shape}"
        if t.kind == "array" and t.elem is not None:
            dims = ""
            while t.kind == "array" and t.elem is not None:  # outermost first, as C
                dims += f"[{t.count or ''}]"
                t = t.elem
            return self.spell(t) + dims
        return t.name or t.kind

    def lowered(self, t: GpuType) -> GpuType:
        if t.kind == BOOL:
            return GpuType("uint", 32)
        if t.kind == "vector" and t.elem is not None and t.elem.kind == BOOL:
            return GpuType("vector", count=t.count, elem=GpuType("uint", 32))
        return t

    def vectors(self, n: int, is_float) -> Tuple[str, ...]:
        return () if is_float is None else (f"{'' if is_float else 'i'}vec{n}",)

    def measure(self, shaders, decls, wanted, folder, rules=None):
        from ...codegen.shader_kinds import named_block

        # A struct of a rule set with a block of its own is judged by its copy in that block
        # (``named_block``: its qualifier, std140 for wgsl-uniform).
        layouts = {n: b for n, b in ((n, named_block(self.dialect, r))
                                     for n, r in (rules or {}).items()) if b}
        return measure_glsl(shaders, decls, wanted, folder, layouts)

    # --- the runtime probe of generated files ---------------------------------------------
    word, pair, quad, output = "uint", "uvec2", "uvec4", "sarek_out.v"
    #: The probe's input buffer of each block layout (``runtime_probe``).
    inputs = {"std430": "sarek_in", "std140": "sarek_in2", "scalar": "sarek_in3"}
    scalar_bits = {"int": "uvec2(uint(_sarek_x))", "uint": "uvec2(_sarek_x)",
                   "float": "uvec2(floatBitsToUint(_sarek_x))",
                   "double": "unpackDouble2x32(_sarek_x)",
                   "int64_t": "unpackUint2x32(uint64_t(_sarek_x))",
                   "uint64_t": "unpackUint2x32(_sarek_x)", "uvec2": "_sarek_x"}
    scalar_size = {"int": 4, "uint": 4, "float": 4, "double": 8, "int64_t": 8, "uint64_t": 8,
                   "uvec2": 8}
    # A signed one (int8, int16) comes back sign-extended: every pattern byte is below 128,
    # so its sign bit is clear and the bits are the value's.
    small_bits = {"uint": "_sarek_x", "float": "packHalf2x16(vec2(_sarek_x, 0.0))",
                  "int": "uint(_sarek_x)"}

    def function(self, ret, name, params, body):
        return f"{ret} {name}({', '.join(f'{t} {n}' for n, t in params)}) {{ {body} }}\n"

    def local(self, name, type_, expr, mutable=False):
        return f"{type_} {name} = {expr};"

    def loop(self, n, body):
        return f"for (int j = 0; j < {n}; j++) {{ {body} }}"

    def accessors(self, text):
        return {m.group(2): m.group(1) for m in _ACCESSOR.finditer(text)}

    def runtime_probe(self, headers, types, functions, outputs):
        # Each probe struct in a block of its type's layout: std430 at binding 0, std140 and
        # scalar (GL_EXT_scalar_block_layout) at 2 and 3; the output at 1.
        parts = ["#version 450\n#extension GL_GOOGLE_include_directive : require\n"
                 "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
                 "#extension GL_EXT_scalar_block_layout : require\n",
                 headers.include_lines()]
        parts += [f"struct SarekProbe{i} {{ uint a; {_probe_member(t, 't[2]')}; uint z; }};\n"
                  for t, (i, _) in types.items()]
        for binding, layout in ((0, "std430"), (2, "std140"), (3, "scalar")):
            mine = [i for i, lay in types.values() if lay == layout]
            if not mine and layout != "std430":
                continue
            suffix = "" if binding == 0 else str(binding)
            parts.append(f"layout({layout}, binding = {binding}) readonly buffer SarekIn{suffix} {{\n")
            parts += [f"    SarekProbe{i} p{i};\n" for i in mine] or ["    uint sarek_none;\n"]
            parts.append(f"}} sarek_in{suffix};\n")
        parts.append("layout(std430, binding = 1) buffer SarekOut { uint v[]; } sarek_out;\n")
        parts += [functions, "layout(local_size_x = 1) in;\nvoid main() {\n"]
        parts += [f"    {line}\n" for line in outputs]
        return "".join(parts + ["}\n"])


GLSL = Glsl()
