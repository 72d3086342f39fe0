"""Naming N headers in messages is linear in N (issue 24's files dimension).

The structure check names the user's file for every source position it reports
(``CompileFolder.readable``); each call used to rebuild the table of every header's shown
name, and each of those looked its header up by rebuilding a dict of all of them: for 300
schema files, 3 million name look-ups and 23 s of the structure check. The work is counted
here (calls to ``headers.shown``), not timed.
"""

from __future__ import annotations

from sarek_layout.verify import headers
from sarek_layout.verify.headers import CompileFolder, HeaderSet


def test_readable_builds_its_table_once_per_folder(monkeypatch, tmp_path):
    n = 200
    files = tuple((f"m{i}.h", f"/* {i} */\n") for i in range(n))
    origins = tuple((name, str(tmp_path / "include" / name)) for name, _ in files)
    header_set = HeaderSet(files, tuple(name for name, _ in files), (), origins)
    calls = []
    real_shown = headers.shown
    monkeypatch.setattr(headers, "shown", lambda p: calls.append(p) or real_shown(p))
    with CompileFolder(header_set) as folder:
        texts = [folder.readable(f"{folder.path}/headers/m{i}.h:3:1: error") for i in range(n)]
    assert texts[7] == f"{tmp_path}/include/m7.h:3:1: error"
    assert len(calls) <= 2 * n, f"{len(calls)} names shown for {n} messages: quadratic"


def test_origin_names_the_users_path():
    header_set = HeaderSet((("a.h", ""), ("b.h", "")), ("a.h", "b.h"), (),
                           (("a.h", "inc/a.h"), ("b.h", "inc/b.h")))
    assert header_set.origin("b.h") == "inc/b.h" and header_set.origin("c.h") == "c.h"
