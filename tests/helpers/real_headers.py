"""Real C headers as ``import-c`` meets them (issue 22): which import, and gcc's word on them.

The corpus is what the machine's -dev packages installed (Vulkan, OpenCL, Linux UAPI, glibc's
``elf.h``, zlib, libpng, Xlib…): nothing of it is copied into the repository. For one header:

* ``import_one``: the header read by ``import-c``'s own path (``import_headers`` with the
  system include folders, then ``resolve`` with the resolver's refusals taken out), giving
  the types that import and every refusal;
* ``gcc_probe``: one gcc compile and run of a probe that includes the ORIGINAL header with the
  system's own libc and prints ``sizeof``, ``_Alignof``, every ``offsetof`` and every array
  stride (``sizeof m[0]``, ``sizeof m[0][0]``…, a vector's component) of the imported types,
  and every value of their enums, compared with the schema's numbers by the caller (nothing
  here computes a layout); ``compiler_numbers`` does the same for any structs, with any
  compiler and options; ``nvcc_agrees`` compiles the same numbers as ``static_assert``s with
  nvcc (host and device passes), for the headers that use CUDA's vector types;
* ``i386_differences_by_gcc``: the imported types ``gcc -m32`` lays out otherwise than
  ``gcc`` in the original header, to check ``import-c``'s i386 note against.

Run as a script it measures a list of headers (``--all``: every struct-bearing header of
``/usr/include`` and its ``linux/ vulkan/ CL/ GL/`` folders, the issue's corpus) and prints
one line per header, ``imported refused vectors header`` (``vectors``: CUDA's vector types
the header declares, read as ``vecN`` members rather than types); with ``--strict`` it counts
as the code before issue 22 did (a header imports all its types or none).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

SYSTEM_INCLUDE = "/usr/include"
#: The multiarch folder glibc's ``bits/`` and the kernel's ``asm/`` live in.
MULTIARCH_INCLUDE = "/usr/include/x86_64-linux-gnu"
INCLUDE_DIRS = tuple(d for d in (SYSTEM_INCLUDE, MULTIARCH_INCLUDE) if os.path.isdir(d))
#: The CUDA toolkit's headers (``vector_types.h``), where nvcc's installer puts them.
CUDA_INCLUDE = next((d for d in (os.path.join(os.environ.get("CUDA_HOME", "/nonexistent"),
                                              "include"), "/usr/local/cuda/include")
                     if os.path.isfile(os.path.join(d, "vector_types.h"))), None)

#: Headers of the corpus named in issue 22, by path under /usr/include, with the Debian
#: package that installs each (the tests skip a header whose package is absent).
NAMED = {
    "vulkan/vulkan_core.h": "libvulkan-dev",
    "CL/cl.h": "opencl-headers",
    "zlib.h": "zlib1g-dev",
    "png.h": "libpng-dev",
    "X11/Xlib.h": "libx11-dev",
    "elf.h": "libc6-dev",
    "regex.h": "libc6-dev",
    "stdlib.h": "libc6-dev",
    "linux/input.h": "linux-libc-dev",
    "linux/perf_event.h": "linux-libc-dev",
    "linux/bpf.h": "linux-libc-dev",
    "linux/if_ether.h": "linux-libc-dev",
    "linux/virtio_ring.h": "linux-libc-dev",
    "linux/fb.h": "linux-libc-dev",
    "GL/glxint.h": "mesa-common-dev",
    # issue 32: arrays (``__u8 pad[3]``), enums, CUDA's vector types
    "linux/io_uring.h": "linux-libc-dev",
    "linux/if_link.h": "linux-libc-dev",
    "linux/virtio_gpu.h": "linux-libc-dev",
    "linux/videodev2.h": "linux-libc-dev",
    "libdrm/drm.h": "libdrm-dev",
    "cuda/vector_types.h": "the CUDA toolkit (nvcc)",
}

#: Headers of ``NAMED`` outside /usr/include: (path, include folders), or None when absent.
ELSEWHERE = {
    "cuda/vector_types.h": (os.path.join(CUDA_INCLUDE, "vector_types.h"), (CUDA_INCLUDE,))
    if CUDA_INCLUDE else None,
}


def located(name: str) -> Tuple[str, Tuple[str, ...]]:
    """Where the header ``name`` of ``NAMED`` is, and the include folders it needs."""
    if name in ELSEWHERE:
        found = ELSEWHERE[name]
        return found if found is not None else ("/nonexistent/" + name, ())
    return os.path.join(SYSTEM_INCLUDE, name), ()

_STRUCT_BODY = re.compile(rb"\bstruct\b\s*(?:[A-Za-z_]\w*\s*)?\{")


@dataclass
class HeaderResult:
    path: str
    imported: List[object] = field(default_factory=list)  # SchemaType, in order
    refusals: List[object] = field(default_factory=list)  # frontends.c.refusals.Refusal
    failure: Optional[str] = None  # the header could not be read at all
    #: How C spells each imported plain ``struct tag {…}`` (``struct tag``), for the probe.
    spellings: Dict[str, str] = field(default_factory=dict)
    #: The imported types ``import-c`` says the original header lays out otherwise on i386.
    i386: List[str] = field(default_factory=list)
    #: How the header spells each value of each imported enum type (C name -> names).
    enumerators: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    #: CUDA's vector types the header declares: C name -> (component scalar, N).
    vectors: Dict[str, Tuple[object, int]] = field(default_factory=dict)

    @property
    def counts(self) -> Tuple[int, int]:
        return len(self.imported), len(self.refusals)


def struct_bearing(paths: Sequence[str]) -> List[str]:
    """The headers of ``paths`` whose text defines a struct."""
    out = []
    for p in paths:
        try:
            with open(p, "rb") as f:
                if _STRUCT_BODY.search(f.read()):
                    out.append(p)
        except OSError:
            pass
    return out


def issue_corpus() -> List[str]:
    """Issue 22's corpus: struct-bearing headers of /usr/include and its linux/, vulkan/,
    CL/ and GL/ folders."""
    paths = []
    for folder in ("", "linux", "vulkan", "CL", "GL"):
        d = os.path.join(SYSTEM_INCLUDE, folder)
        if os.path.isdir(d):
            paths += sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".h"))
    return struct_bearing(paths)


def import_one(path: str, strict: bool = False, include_dirs: Sequence[str] = ()) -> HeaderResult:
    """``path`` read as ``import-c`` reads it (``strict``: as a schema command, all or none),
    with the system include folders after ``include_dirs``."""
    from sarek_layout.errors import SchemaError
    from sarek_layout.frontends.c import CHeaderOptions
    from sarek_layout.resolve import resolve

    options = CHeaderOptions(tuple(include_dirs) + INCLUDE_DIRS)
    result = HeaderResult(path)
    try:
        if strict:
            from sarek_layout.frontends.c import read_headers

            schema = resolve(read_headers([path], options))
            result.imported = list(schema)
            return result
        from sarek_layout.frontends.c import import_headers

        imported = import_headers([path], options)
        result.spellings = {c: f"{td.kind} {c}" for unit in imported.units
                            for c, td in unit.h.types.items() if td.plain}
        own = os.path.realpath(path)
        result.vectors = {c: v for unit in imported.units for c, td in unit.h.struct_typedefs.items()
                          if os.path.realpath(td.file) == own and (v := unit.cuda_vector(c))}
        from sarek_layout.frontends.c.i386 import i386_differences

        for _ in range(8):
            try:
                schema = resolve(imported.modules)
                break
            except SchemaError as e:
                imported = imported.without(e.errors)
        result.imported = list(schema)
        result.refusals = imported.refusals
        result.i386 = i386_differences(schema, imported.units)
        result.enumerators = {c: names for unit in imported.units
                              for c, names in unit.enum_spellings.items()}
    except SchemaError as e:
        result.failure = str(e).splitlines()[0]
    return result


#: A probe's questions about one type: (C spelling, member names, array strides as
#: ``(key, member designator)`` like ``("m[]", "m[0]")``, enum values as ``(key, C name)``).
Probe = Tuple[str, Sequence[str], Sequence[Tuple[str, str]], Sequence[Tuple[str, str]]]


def _stride_designators(m) -> List[Tuple[str, str]]:
    """``(key, designator)`` of each repetition of the member ``m``: ``m[0]`` for an array's
    element, ``m[0][0]`` for the next, ``m.x`` for a vector's component (SPEC §1b's dims)."""
    out, key, designator = [], m.name, m.name
    for dim in m.dims:
        if dim.kind == "vector":
            key, designator = key + ".x", designator + ".x"
        else:
            key, designator = key + "[]", designator + "[0]"
        out.append((key, designator))
    return out


def probe_of(t, c_spelling: Dict[str, str], enumerators: Dict[str, Sequence[str]]) -> Probe:
    """What to ask a compiler about the imported type ``t``."""
    c = c_spelling.get(t.c_name, t.c_name)
    if t.is_enum:
        return c, (), (), [(v.name, e) for v, e in zip(t.decl.values, enumerators.get(t.c_name, ()))]
    if t.kind == "record":
        return c, [m.name for m in t.members], [s for m in t.members
                                                for s in _stride_designators(m)], ()
    return c, (["tag", "data"] if t.has_payload else ["tag"]), (), ()


def gcc_probe(path: str, types: Sequence[object], c_spelling: Dict[str, str],
              workdir: str, flags: Sequence[str] = (),
              enumerators: Optional[Dict[str, Sequence[str]]] = None,
              include_dirs: Sequence[str] = ()) -> Dict[str, int]:
    """gcc's numbers for ``types`` in the ORIGINAL header ``path`` (compiled against the
    system libc, as a user's program is): ``{"T": size, "T@align": align, "T.m": offset,
    "T.m[]": stride, "T=V": value}``, from one compile and one run. ``c_spelling`` maps a C
    name to how C spells the type (``struct tag`` for a plain struct), ``enumerators`` an
    enum type to how the header spells its values; ``flags`` go to gcc (``-m32``: the i386
    ABI)."""
    probes = {t.c_name: probe_of(t, c_spelling, enumerators or {}) for t in types}
    return compiler_numbers(path, probes, workdir, flags=flags, include_dirs=include_dirs)


def _probe_lines(path: str, probes: Dict[str, tuple]) -> List[str]:
    lines = ["#include <stddef.h>", "#include <stdio.h>", f'#include "{os.path.abspath(path)}"',
             "int main(void) {"]
    for name, (c, members, *more) in probes.items():
        strides, values = (more + [(), ()])[:2]
        lines.append(f'  printf("%s %zu\\n", "{name}", sizeof({c}));')
        lines.append(f'  printf("%s %zu\\n", "{name}@align", _Alignof({c}));')
        for m in members:
            lines.append(f'  printf("%s %zu\\n", "{name}.{m}", offsetof({c}, {m}));')
        for key, designator in strides:
            lines.append(f'  printf("%s %zu\\n", "{name}.{key}", sizeof((({c} *)0)->{designator}));')
        for key, enumerator in values:
            lines.append(f'  printf("%s %lld\\n", "{name}={key}", (long long){enumerator});')
    return lines + ["  return 0;", "}"]


def compiler_numbers(path: str, probes: Dict[str, tuple], workdir: str,
                     compiler: str = "gcc", flags: Sequence[str] = (),
                     include_dirs: Sequence[str] = ()) -> Dict[str, int]:
    """What ``compiler`` (with ``flags``) lays out in the header ``path``: for each
    ``name -> (C spelling, member names[, strides[, enum values]])`` of ``probes`` (a
    ``Probe``), ``{"name": size, "name@align": align, "name.m": offset, "name.m[]": stride,
    "name=V": value}``, from one compile and one run of a probe that includes it."""
    lines = _probe_lines(path, probes)
    tag = "-".join([compiler, *flags]).replace("/", "_")
    source = os.path.join(workdir, f"probe-{tag}.c")
    exe = os.path.join(workdir, f"probe-{tag}")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    includes = [f"-I{d}" for d in include_dirs]
    subprocess.run([compiler, "-std=gnu11", "-w", *flags, *includes, "-o", exe, source],
                   check=True, capture_output=True, timeout=120)
    out = subprocess.run([exe], check=True, capture_output=True, text=True, timeout=60).stdout
    return {k: int(v) for k, v in (line.rsplit(" ", 1) for line in out.splitlines())}


def nvcc_agrees(path: str, probes: Dict[str, tuple], expected: Dict[str, int], workdir: str,
                include_dirs: Sequence[str] = ()) -> None:
    """Compile ``expected`` (keyed as ``compiler_numbers`` keys) as ``static_assert``s with
    nvcc, on the ORIGINAL header ``path``: its host and device passes both check each one;
    ``CalledProcessError`` (with nvcc's message naming the key) when one fails."""
    lines = ["#include <cstddef>", f'#include "{os.path.abspath(path)}"']
    for name, (c, members, *more) in probes.items():
        strides, values = (more + [(), ()])[:2]
        asks = [(name, f"sizeof({c})"), (f"{name}@align", f"alignof({c})")]
        asks += [(f"{name}.{m}", f"offsetof({c}, {m})") for m in members]
        asks += [(f"{name}.{k}", f"sizeof(((({c} *)0)->{d}))") for k, d in strides]
        asks += [(f"{name}={k}", f"(long long){e}") for k, e in values]
        lines += [f'static_assert({q} == {expected[key]}, "{key}");' for key, q in asks
                  if key in expected]
    lines.append("__global__ void sarek_probe_kernel(void) {}")
    source = os.path.join(workdir, "probe-nvcc.cu")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    includes = [f"-I{d}" for d in include_dirs]
    subprocess.run(["nvcc", "-c", *includes, "-o", source[:-3] + ".o", source], check=True,
                   capture_output=True, text=True, timeout=300)


#: gcc's options for the i386 ABI on an x86-64 machine: the kernel's ``asm/`` headers of the
#: multiarch folder serve both (``__i386__`` chooses), and i386 has none of its own here.
I386_FLAGS = ("-m32", "-idirafter", MULTIARCH_INCLUDE)


def gcc_m32_works(workdir: str) -> bool:
    """Whether ``gcc -m32`` builds and runs a program here (libc6-dev-i386, lib32gcc)."""
    source = os.path.join(workdir, "m32.c")
    with open(source, "w") as f:
        f.write("#include <stdio.h>\nint main(void) { return 0; }\n")
    try:
        subprocess.run(["gcc", *I386_FLAGS, "-o", source[:-2], source], check=True,
                       capture_output=True, timeout=120)
        subprocess.run([source[:-2]], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def i386_differences_by_gcc(path: str, types: Sequence[object], c_spelling: Dict[str, str],
                            workdir: str, include_dirs: Sequence[str] = ()) -> List[str]:
    """The C names of ``types`` that gcc lays out otherwise with ``-m32`` than without, in
    the ORIGINAL header ``path``: their size, alignment or an offset, or those of a type
    they hold (gcc measures each; the schema says which holds which), in the order given."""
    x86_64 = gcc_probe(path, types, c_spelling, workdir, include_dirs=include_dirs)
    i386 = gcc_probe(path, types, c_spelling, workdir, flags=I386_FLAGS,
                     include_dirs=include_dirs)
    differ = {k.split("@")[0].split(".")[0] for k in x86_64 if x86_64[k] != i386[k]}
    grown = True
    while grown:
        before = len(differ)
        differ |= {t.c_name for t in types
                   if any(r.c_name in differ for r in t.records_used())}
        grown = len(differ) > before
    return [t.c_name for t in types if t.c_name in differ]


def expected_numbers(t) -> Dict[str, int]:
    """The schema's numbers for ``t``, keyed as ``gcc_probe`` keys gcc's."""
    out = {t.c_name: t.size, f"{t.c_name}@align": t.align}
    if t.is_enum:
        out.update({f"{t.c_name}={v.name}": v.value for v in t.decl.values})
    elif t.kind == "record":
        out.update({f"{t.c_name}.{m.name}": m.offset for m in t.members})
        out.update({f"{t.c_name}.{key}": dim.stride for m in t.members
                    for (key, _), dim in zip(_stride_designators(m), m.dims)})
    else:
        out[f"{t.c_name}.tag"] = 0
        if t.has_payload:
            out[f"{t.c_name}.data"] = t.payload_offset
    return out


def main(argv: Sequence[str]) -> int:
    strict = "--strict" in argv
    names = [a for a in argv if not a.startswith("--")]
    paths = [(p, ()) for p in issue_corpus()] if "--all" in argv else (
        [(n, ()) for n in names] or [located(n) for n in NAMED])
    total = [0, 0, 0]
    for p, include_dirs in paths:
        if not os.path.exists(p):
            continue
        r = import_one(p, strict=strict, include_dirs=include_dirs)
        n, k = r.counts
        total[0] += n
        total[1] += k
        total[2] += 1 if n else 0
        shown = os.path.relpath(p, SYSTEM_INCLUDE) if p.startswith(SYSTEM_INCLUDE) else p
        print(f"{n:5d} {k:5d} {len(r.vectors):5d} {shown}"
              + (f"   [{r.failure[:110]}]" if r.failure else ""), flush=True)
    print(f"# {len(paths)} headers, {total[2]} import at least one type; {total[0]} types "
          f"imported, {total[1]} refused", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
