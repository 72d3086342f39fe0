"""Real headers (issue 22's corpus): Vulkan, OpenCL, Linux UAPI, glibc's elf.h, zlib, libpng,
Xlib and others the machine's -dev packages installed (``helpers.real_headers.NAMED``; CI
installs them, ``.ci/run``). Nothing of them is copied here: each is read where its package
put it, and skipped with the package's name when it is absent.

For each header: the types that import and the ones refused are counted and printed (run with
``-s`` to see the table; the counts rise as the rules learn more scalars, so they are a
report, not an expectation); each refusal names its type and a real place in a real file
(for a member, the line holds the member's name); and every imported type's size,
alignment and every offset equal gcc's on the ORIGINAL header, compiled against the system
libc (one probe per header: one gcc run, nothing recomputed); and the types ``import-c``
notes as laid out otherwise on i386 are those ``gcc -m32`` lays out otherwise.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from sarek_layout.errors import quoted

from helpers.real_headers import (
    NAMED,
    SYSTEM_INCLUDE,
    expected_numbers,
    gcc_m32_works,
    gcc_probe,
    i386_differences_by_gcc,
    import_one,
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
               "linux/bpf.h": {"bpf_btf_info"}}
MUST_REFUSE = {"linux/virtio_ring.h": {
    "vring_desc_t": "'__attribute__((aligned(16)))' sets alignment 16",
    "vring_avail": "member 'ring' of 'vring_avail' is a flexible array member",
}}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_real_header(name, tmp_path, capsys):
    path = os.path.join(SYSTEM_INCLUDE, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not installed (apt-get install {NAMED[name]})")
    result = import_one(path)
    assert result.failure is None, result.failure
    imported, refused = result.counts
    with capsys.disabled():
        print(f"\n[real headers] {name}: {imported} types imported, {refused} refused")
    assert imported + refused > 0
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
    if not imported:
        return
    measured = gcc_probe(path, result.imported, result.spellings, str(tmp_path))
    for t in result.imported:
        expected = expected_numbers(t)
        assert {k: measured[k] for k in expected} == expected, t.c_name
    # The types import-c says the header lays out otherwise on i386 (issue 30, item 14) are
    # the ones gcc -m32 lays out otherwise, and only those.
    if gcc_m32_works(str(tmp_path)):
        by_gcc = i386_differences_by_gcc(path, result.imported, result.spellings, str(tmp_path))
        assert result.i386 == by_gcc
