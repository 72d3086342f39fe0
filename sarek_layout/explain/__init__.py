"""Explaining a layout to people: the pahole-style report, reorder advice and a byte map.

``walk`` turns a laid-out type into members and holes (the one walk every view prints),
``text`` prints it pahole-style, ``reorder`` finds the smallest field order of a record,
``declare`` writes that order back in the schema's own syntax, and ``picture`` draws the
byte map (SVG, or an HTML page around it) from ``templates/explain.svg.j2``.
"""
