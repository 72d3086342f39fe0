"""Real headers (issue 22's corpus): Vulkan, OpenCL, Linux UAPI, glibc's elf.h, zlib, libpng,
Xlib and others the machine's -dev packages installed (``helpers.real_headers.NAMED``; CI
installs them, ``.ci/run``). Nothing of them is copied here: each is read where its package
put it, and skipped with the package's name when it is absent.

For each header: the types that import and the ones refused are counted and printed (run with
``-s`` to see the table; the counts rise as the rules learn more scalars, so they are a
report, not an expectation); each refusal names its type and a real place in a real file
(for a member, the line holds the member's name); and every imported type's size,
alignment, every offset and every array stride, and every value of its enums, equal gcc's
on the ORIGINAL header, compiled against the system libc (one probe per header: one gcc run,
nothing recomputed), and nvcc's where the header uses CUDA's vector types; and the types
``import-c`` notes as laid out otherwise on i386 are those ``gcc -m32`` lays out otherwise.
CUDA's own vector types (``vector_types.h``) are no types of a schema but ``vecN`` members:
each is checked as the member of a one-member struct, against gcc and nvcc.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from sarek_layout.errors import quoted

from helpers.real_headers import (
    NAMED,
    compiler_numbers,
    expected_numbers,
    gcc_m32_works,
    gcc_probe,
    i386_differences_by_gcc,
    import_one,
    located,
    nvcc_agrees,
    probe_of,
)

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="the real-header corpus needs gcc (apt-get install gcc)")

#: Headers that import at least one type (a floor, not a count): before issue 22 each was
#: refused whole, for one unused extension of glibc's or for any one struct it could not read.
MUST_IMPORT_SOME = {"vulkan/vulkan_core.h", "linux/input.h", "png.h", "X11/Xlib.h"}

_MEMBER = re.compile(r"^member '([A-Za-z_]\w*)' of ")

#: What issue 30 (item 13) found misread in the corpus. Types that must import (their
#: layouts are compared with gcc's below, as every imported type's): an attribute on a typedef
#: of a struct changes the typedef, not the struct; an alignment of 8 on a struct aligned at
#: 8 already changes nothing. And refusals that must say what they say, of the type named.
MUST_IMPORT = {"linux/virtio_ring.h": {"vring_desc", "vring_used_elem"},
               "linux/bpf.h": {"bpf_btf_info"},
               # issue 32: Vulkan's structs of enums and arrays (no pointer), its enums with
               # their values; the kernel's ``__u8 pad[3]`` structs
               "vulkan/vulkan_core.h": {"VkAttachmentDescription",
                                        "VkVertexInputAttributeDescription",
                                        "VkPhysicalDeviceMemoryProperties", "VkMemoryType",
                                        "VkFormat", "VkStructureType", "VkSampleCountFlagBits"},
               "linux/if_link.h": {"ifla_port_vsi"},
               "linux/virtio_gpu.h": {"virtio_gpu_ctrl_hdr"}}
MUST_REFUSE = {"linux/virtio_ring.h": {
    "vring_desc_t": "'__attribute__((aligned(16)))' sets alignment 16",
    "vring_avail": "member 'ring' of 'vring_avail' is a flexible array member",
}, "vulkan/vulkan_core.h": {  # an sType struct keeps its pNext pointer
    "VkApplicationInfo": "member 'pNext' of 'VkApplicationInfo' is a pointer",
}}
#: CUDA's vector types that ``vector_types.h`` must declare as ``vecN`` (not all of them:
#: the ``long`` ones are 8 or 16 bytes by ABI, the ``_32a`` ones 32-aligned).
MUST_BE_VECTORS = {"cuda/vector_types.h": {"float2", "float3", "float4", "int2", "uint4", "uchar4",
                                           "char2", "short3", "ushort4", "double2", "double4",
                                           "longlong2", "ulonglong4_16a"}}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_real_header(name, tmp_path, capsys):
    path, include_dirs = located(name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not installed ({NAMED[name]})")
    result = import_one(path, include_dirs=include_dirs)
    assert result.failure is None, result.failure
    imported, refused = result.counts
    enums = sum(1 for t in result.imported if t.is_enum)
    with capsys.disabled():
        print(f"\n[real headers] {name}: {imported} types imported ({enums} enums), {refused} "
              f"refused, {len(result.vectors)} CUDA vector types")
    assert MUST_BE_VECTORS.get(name, set()) <= set(result.vectors), sorted(result.vectors)
    assert imported + refused + len(result.vectors) > 0
    if name in MUST_IMPORT_SOME:
        assert imported > 0, [str(r) for r in result.refusals[:5]]
    names = {t.c_name for t in result.imported}
    assert MUST_IMPORT.get(name, set()) <= names, [str(r) for r in result.refusals]
    for c_name, words in MUST_REFUSE.get(name, {}).items():
        assert any(r.c_name == c_name and words in str(r) for r in result.refusals), \
            (c_name, [str(r) for r in result.refusals])
    for refusal in result.refusals:
        loc = refusal.error.location
        assert loc is not None and loc.line > 0 and loc.col > 0, str(refusal)
        assert os.path.isfile(loc.file), str(refusal)
        assert quoted(refusal.c_name) in refusal.message, str(refusal)
        member = _MEMBER.match(refusal.error.message)
        if member is not None:
            with open(loc.file, encoding="utf-8", errors="replace") as f:
                text = f.read()
            # The member's name is at its line (split at newlines only: regex.h holds form
            # feeds), or the part a macro pasted it from (regex.h's __REPB_PREFIX(buffer)).
            line = text.split("\n")[loc.line - 1]
            name = member.group(1)
            assert re.search(rf"\b{name}\b", line) or name.lstrip("_") in line, \
                (str(refusal), line)
    if result.vectors:
        _check_vectors(path, include_dirs, result.vectors, tmp_path)
    if not imported:
        return
    measured = gcc_probe(path, result.imported, result.spellings, str(tmp_path),
                         enumerators=result.enumerators, include_dirs=include_dirs)
    for t in result.imported:
        expected = expected_numbers(t)
        assert {k: measured[k] for k in expected} == expected, t.c_name
    cuda = [t for t in result.imported if t.rules == "cuda"]
    if cuda and shutil.which("nvcc"):
        nvcc_agrees(path, {t.c_name: probe_of(t, result.spellings, result.enumerators)
                           for t in cuda},
                    {k: v for t in cuda for k, v in expected_numbers(t).items()},
                    str(tmp_path), include_dirs=include_dirs)
    # The types import-c says the header lays out otherwise on i386 (issue 30, item 14) are
    # the ones gcc -m32 lays out otherwise, and only those.
    if gcc_m32_works(str(tmp_path)):
        by_gcc = i386_differences_by_gcc(path, result.imported, result.spellings, str(tmp_path))
        assert result.i386 == by_gcc


def _check_vectors(path, include_dirs, vectors, tmp_path):
    """Each of CUDA's vector types the header declares, as the one member of a struct of the
    cuda rules (laid out by the package), against gcc and nvcc on the original header."""
    from sarek_layout.ir.schema import FieldDecl, ModuleDecl, RecordDecl, SourceLocation, VectorType
    from sarek_layout.resolve import resolve

    here = SourceLocation(path)
    decls = tuple(RecordDecl(f"v_{c}", (FieldDecl("v", VectorType(n, s.name, here), here),),
                             here, rules="cuda") for c, (s, n) in vectors.items())
    schema = resolve([ModuleDecl("", path, "c", decls, here)])
    expected = {}
    for c, t in zip(vectors, schema):
        member = t.members[0]
        expected.update({c: member.size, f"{c}@align": member.align,
                         f"{c}.x": member.dims[0].stride})
    probes = {c: (c, (), [("x", "x")]) for c in vectors}
    measured = compiler_numbers(path, probes, str(tmp_path), include_dirs=include_dirs)
    assert {k: measured[k] for k in expected} == expected
    if shutil.which("nvcc"):
        nvcc_agrees(path, probes, expected, str(tmp_path), include_dirs=include_dirs)
