"""verify/drivers/elf_data.py: the rustc driver's reader of probe arrays in an object file.

Real objects come from the machine's gcc (a C array is the same kind of data symbol as a
rustc static); a damaged file is one ``ElfDataError``, never a struct error or a read past
its end.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sarek_layout.verify.drivers.elf_data import ElfDataError, symbol_contents


def _object(tmp_path, source: str, *flags: str) -> bytes:
    if shutil.which("gcc") is None:
        pytest.skip("gcc not installed")
    (tmp_path / "t.c").write_text(source)
    subprocess.run(["gcc", *flags, "-c", "-fdata-sections", "t.c", "-o", "t.o"],
                   cwd=tmp_path, check=True)
    return (tmp_path / "t.o").read_bytes()


SOURCE = ("const unsigned char sarek_probes_0[4] = {1, 2, 3, 4};\n"
          "unsigned char sarek_probes_7[3];\n"  # all zero: .bss, no bytes in the file
          "const unsigned char other[2] = {9, 9};\n")


@pytest.mark.parametrize("flags", [(), ("-m32",)], ids=["elf64", "elf32"])
def test_contents_of_the_prefixed_symbols(tmp_path, flags):
    if flags and subprocess.run(["gcc", "-m32", "-x", "c", "-c", "-", "-o", "/dev/null"],
                                input=b"int x;", capture_output=True).returncode:
        pytest.skip("gcc -m32 not installed")
    found = symbol_contents(_object(tmp_path, SOURCE, "-fno-common", *flags), "sarek_probes_")
    assert found == {"sarek_probes_0": b"\x01\x02\x03\x04", "sarek_probes_7": b"\0\0\0"}


def test_damaged_files_are_one_error(tmp_path):
    data = _object(tmp_path, SOURCE, "-fno-common")
    for damaged in (b"", b"not an elf", data[:100], data[:len(data) // 2],
                    data[:4] + b"\x09" + data[5:]):
        with pytest.raises(ElfDataError):
            symbol_contents(damaged, "sarek_probes_")
