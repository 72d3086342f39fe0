"""Real C headers as ``import-c`` meets them (issue 22): which import, and gcc's word on them.

The corpus is what the machine's -dev packages installed (Vulkan, OpenCL, Linux UAPI, glibc's
``elf.h``, zlib, libpng, Xlib…): nothing of it is copied into the repository. For one header:

* ``import_one``: the header read by ``import-c``'s own path (``import_headers`` with the
  system include folders, then ``resolve`` with the resolver's refusals taken out), giving
  the types that import and every refusal;
* ``gcc_probe``: one gcc compile and run of a probe that includes the ORIGINAL header with the
  system's own libc and prints ``sizeof``, ``_Alignof`` and every ``offsetof`` of the imported
  types, compared with the schema's numbers by the caller (nothing here computes a layout);
  ``compiler_numbers`` does the same for any structs, with any compiler and options;
* ``i386_differences_by_gcc``: the imported types ``gcc -m32`` lays out otherwise than
  ``gcc`` in the original header, to check ``import-c``'s i386 note against.

Run as a script it measures a list of headers (``--all``: every struct-bearing header of
``/usr/include`` and its ``linux/ vulkan/ CL/ GL/`` folders, the issue's corpus) and prints
one line per header, ``imported refused header``; with ``--strict`` it counts as the
code before issue 22 did (a header imports all its types or none), the "before" column.
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
}

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


def import_one(path: str, strict: bool = False) -> HeaderResult:
    """``path`` read as ``import-c`` reads it (``strict``: as a schema command, all or none)."""
    from sarek_layout.errors import SchemaError
    from sarek_layout.frontends.c import CHeaderOptions
    from sarek_layout.resolve import resolve

    options = CHeaderOptions(INCLUDE_DIRS)
    result = HeaderResult(path)
    try:
        if strict:
            from sarek_layout.frontends.c import read_headers

            schema = resolve(read_headers([path], options))
            result.imported = list(schema)
            return result
        from sarek_layout.frontends.c import import_headers

        imported = import_headers([path], options)
        result.spellings = {c: f"struct {c}" for unit in imported.units
                            for c, td in unit.h.struct_typedefs.items() if td.plain}
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
    except SchemaError as e:
        result.failure = str(e).splitlines()[0]
    return result


def gcc_probe(path: str, types: Sequence[object], c_spelling: Dict[str, str],
              workdir: str, flags: Sequence[str] = ()) -> Dict[str, int]:
    """gcc's numbers for ``types`` in the ORIGINAL header ``path`` (compiled against the
    system libc, as a user's program is): ``{"T": size, "T@align": align, "T.m": offset}``,
    from one compile and one run. ``c_spelling`` maps a C name to how C spells the type
    (``struct tag`` for a plain struct); ``flags`` go to gcc (``-m32``: the i386 ABI)."""
    probes = {}
    for t in types:
        if t.kind == "record":
            members = [m.name for m in t.members]
        else:
            members = ["tag", "data"] if t.has_payload else ["tag"]
        probes[t.c_name] = (c_spelling.get(t.c_name, t.c_name), members)
    return compiler_numbers(path, probes, workdir, flags=flags)


def compiler_numbers(path: str, probes: Dict[str, Tuple[str, Sequence[str]]], workdir: str,
                     compiler: str = "gcc", flags: Sequence[str] = ()) -> Dict[str, int]:
    """What ``compiler`` (with ``flags``) lays out in the header ``path``: for each
    ``name -> (C spelling, member names)`` of ``probes``, ``{"name": size, "name@align":
    align, "name.m": offset}``, from one compile and one run of a probe that includes it."""
    lines = ["#include <stddef.h>", "#include <stdio.h>", f'#include "{os.path.abspath(path)}"',
             "int main(void) {"]
    for name, (c, members) in probes.items():
        lines.append(f'  printf("%s %zu\\n", "{name}", sizeof({c}));')
        lines.append(f'  printf("%s %zu\\n", "{name}@align", _Alignof({c}));')
        for m in members:
            lines.append(f'  printf("%s %zu\\n", "{name}.{m}", offsetof({c}, {m}));')
    lines += ["  return 0;", "}"]
    tag = "-".join([compiler, *flags]).replace("/", "_")
    source = os.path.join(workdir, f"probe-{tag}.c")
    exe = os.path.join(workdir, f"probe-{tag}")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run([compiler, "-std=gnu11", "-w", *flags, "-o", exe, source], check=True,
                   capture_output=True, timeout=120)
    out = subprocess.run([exe], check=True, capture_output=True, text=True, timeout=60).stdout
    return {k: int(v) for k, v in (line.rsplit(" ", 1) for line in out.splitlines())}


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
                            workdir: str) -> List[str]:
    """The C names of ``types`` that gcc lays out otherwise with ``-m32`` than without, in
    the ORIGINAL header ``path``: their size, alignment or an offset, or those of a type
    they hold (gcc measures each; the schema says which holds which), in the order given."""
    x86_64 = gcc_probe(path, types, c_spelling, workdir)
    i386 = gcc_probe(path, types, c_spelling, workdir, flags=I386_FLAGS)
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
    if t.kind == "record":
        out.update({f"{t.c_name}.{m.name}": m.offset for m in t.members})
    else:
        out[f"{t.c_name}.tag"] = 0
        if t.has_payload:
            out[f"{t.c_name}.data"] = t.payload_offset
    return out


def main(argv: Sequence[str]) -> int:
    strict = "--strict" in argv
    names = [a for a in argv if not a.startswith("--")]
    paths = issue_corpus() if "--all" in argv else (
        names or [os.path.join(SYSTEM_INCLUDE, n) for n in NAMED])
    total = [0, 0, 0]
    for p in paths:
        if not os.path.exists(p):
            continue
        r = import_one(p, strict=strict)
        n, k = r.counts
        total[0] += n
        total[1] += k
        total[2] += 1 if n else 0
        shown = os.path.relpath(p, SYSTEM_INCLUDE)
        print(f"{n:5d} {k:5d} {shown}" + (f"   [{r.failure[:110]}]" if r.failure else ""),
              flush=True)
    print(f"# {len(paths)} headers, {total[2]} import at least one type; {total[0]} types "
          f"imported, {total[1]} refused", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
