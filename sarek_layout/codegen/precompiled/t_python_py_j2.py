from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'python.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_filename = resolve('filename')
    l_0_view = resolve('view')
    l_0_build = l_0_arg = l_0_record_paths = l_0_leaves = l_0_paused = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    def macro(l_1_node):
        t_2 = []
        if l_1_node is missing:
            l_1_node = undefined("parameter 'node' was not provided", name='node')
        pass
        if (environment.getattr(l_1_node, 'kind') == 'record'):
            pass
            t_2.extend((
                str(environment.getattr(l_1_node, 'cls')),
                '(',
            ))
            l_2_loop = missing
            for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_node, 'children'), undefined):
                _loop_vars = {}
                pass
                t_2.extend((
                    str(context.call((undefined(name='build') if l_0_build is missing else l_0_build), l_2_c, _loop_vars=_loop_vars)),
                    str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 10 in 'python.py.j2' evaluated to false and no else section was defined."))),
                ))
            l_2_loop = l_2_c = missing
            t_2.append(
                ')',
            )
        elif (environment.getattr(l_1_node, 'kind') == 'opaque'):
            pass
            t_2.extend((
                str(environment.getattr(l_1_node, 'decoder')),
                '(t[',
                str(environment.getattr(l_1_node, 'index')),
                '])',
            ))
        elif (environment.getattr(l_1_node, 'scalar') == 'bool'):
            pass
            t_2.extend((
                't[',
                str(environment.getattr(l_1_node, 'index')),
                '] != 0',
            ))
        elif (environment.getattr(l_1_node, 'scalar') == 'unit'):
            pass
            t_2.append(
                'None',
            )
        else:
            pass
            t_2.extend((
                't[',
                str(environment.getattr(l_1_node, 'index')),
                ']',
            ))
        return concat(t_2)
    context.exported_vars.add('build')
    context.vars['build'] = l_0_build = Macro(environment, macro, 'build', ('node',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot):
        t_3 = []
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        pass
        if environment.getattr(l_1_slot, 'encoder'):
            pass
            t_3.extend((
                str(environment.getattr(l_1_slot, 'encoder')),
                '(',
                str(environment.getattr(l_1_slot, 'source')),
                ')',
            ))
        elif (environment.getattr(l_1_slot, 'scalar') == 'bool'):
            pass
            t_3.extend((
                '(1 if ',
                str(environment.getattr(l_1_slot, 'source')),
                ' is True else _sarek_bool(',
                str(environment.getattr(l_1_slot, 'source')),
                '))',
            ))
        elif (environment.getattr(l_1_slot, 'scalar') == 'unit'):
            pass
            t_3.extend((
                '_sarek_unit(',
                str(environment.getattr(l_1_slot, 'source')),
                ')',
            ))
        else:
            pass
            t_3.append(
                str(environment.getattr(l_1_slot, 'source')),
            )
        return concat(t_3)
    context.exported_vars.add('arg')
    context.vars['arg'] = l_0_arg = Macro(environment, macro, 'arg', ('slot',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_records, l_1_indent):
        t_4 = []
        if l_1_records is missing:
            l_1_records = undefined("parameter 'records' was not provided", name='records')
        if l_1_indent is missing:
            l_1_indent = undefined("parameter 'indent' was not provided", name='indent')
        pass
        for l_2_r in l_1_records:
            _loop_vars = {}
            pass
            t_4.extend((
                str(l_1_indent),
                '("',
                str(environment.getattr(l_2_r, 'path')),
                '", lambda v: v.',
                str(environment.getattr(l_2_r, 'attr')),
                '),\n',
            ))
        l_2_r = missing
        return concat(t_4)
    context.exported_vars.add('record_paths')
    context.vars['record_paths'] = l_0_record_paths = Macro(environment, macro, 'record_paths', ('records', 'indent'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slots, l_1_indent):
        t_5 = []
        if l_1_slots is missing:
            l_1_slots = undefined("parameter 'slots' was not provided", name='slots')
        if l_1_indent is missing:
            l_1_indent = undefined("parameter 'indent' was not provided", name='indent')
        pass
        for l_2_s in l_1_slots:
            _loop_vars = {}
            pass
            if environment.getattr(l_2_s, 'encoder'):
                pass
                t_5.extend((
                    str(l_1_indent),
                    '("',
                    str(environment.getattr(l_2_s, 'path')),
                    '", None, lambda v: v.',
                    str(environment.getattr(l_2_s, 'attr')),
                    ', ',
                    str(environment.getattr(l_2_s, 'encoder')),
                    '),\n',
                ))
            else:
                pass
                t_5.extend((
                    str(l_1_indent),
                    '("',
                    str(environment.getattr(l_2_s, 'path')),
                    '", _sarek_SCALAR["',
                    str(environment.getattr(l_2_s, 'scalar')),
                    '"], lambda v: v.',
                    str(environment.getattr(l_2_s, 'attr')),
                    ', None),\n',
                ))
        l_2_s = missing
        return concat(t_5)
    context.exported_vars.add('leaves')
    context.vars['leaves'] = l_0_leaves = Macro(environment, macro, 'leaves', ('slots', 'indent'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t, l_1_expr):
        t_6 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        if l_1_expr is missing:
            l_1_expr = undefined("parameter 'expr' was not provided", name='expr')
        pass
        if environment.getattr(l_1_t, 'pause_gc'):
            pass
            t_6.extend((
                '_sarek_many(',
                str(environment.getattr(l_1_t, 'leaves')),
                ', lambda: ',
                str(l_1_expr),
                ')',
            ))
        else:
            pass
            t_6.append(
                str(l_1_expr),
            )
        return concat(t_6)
    context.exported_vars.add('paused')
    context.vars['paused'] = l_0_paused = Macro(environment, macro, 'paused', ('t', 'expr'), False, False, False, context.eval_ctx.autoescape)
    yield '"""'
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield ': @generated by '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield ' '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'version'))
    yield ' from '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'source'))
    yield ' ('
    yield str((str_join(('module ', environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module'), )) if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module') else 'no module prefix'))
    yield ').\n\nDo not edit: change the schema and run `'
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield ' generate -t python`.\n\nStandalone (standard library only): element types with the Sarek aligned aggregate layout,\nas the C, CUDA and OpenCL headers generated from the same schema lay them out. Records are\nfrozen dataclasses; a variant is a Union of one frozen dataclass per constructor, whose\n`TAG` is the constructor\'s tag. `encode_T`/`decode_T` turn one element into its `SIZEOF_T`\nbytes and back, `pack_T`/`unpack_T` whole arrays; bytes are in this host\'s byte order and\nevery padding byte is zero. `OFFSETS_T` maps the dotted path of each scalar leaf to its\noffset; a large nested record is packed whole by its own `encode_`, and is one entry there.\n`LAYOUT_ID_T` is the type\'s layout fingerprint; `pack_framed_T`/`unpack_framed_T` put a\nheader carrying it (`header_T`, `check_header_T`) in front of the elements and refuse data\nwritten under another layout.\nA field or type name that is a Python keyword, or that every class has (`mro`), has a\ntrailing `_` (`from_`, `mro_`); messages and\n`OFFSETS_T` keep the schema\'s names.\n\nA record value is read by attribute: one of these dataclasses, or any object with those\nattributes (extra attributes are fine). A mapping is refused, at any depth, even one whose\nkeys can be read as attributes (the sarek-layout package\'s `load(...).encode` takes\nmappings, and checks their keys). Offsets count bytes from the start of a buffer and are never negative.\n"""\n\n'
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'runtime'))
    yield '\n\nfrom dataclasses import dataclass as _sarek_dataclass\nfrom typing import ClassVar as _sarek_ClassVar\nfrom typing import Dict as _sarek_Dict\nfrom typing import Final as _sarek_Final\nfrom typing import List as _sarek_List\nfrom typing import Mapping as _sarek_Mapping\nfrom typing import Union as _sarek_Union\n'
    for (l_1_mod, l_1_names) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'imports'):
        _loop_vars = {}
        pass
        yield '\nfrom '
        yield str(l_1_mod)
        yield ' import (\n'
        for l_2_n in l_1_names:
            _loop_vars = {}
            pass
            yield '    '
            yield str(l_2_n)
            yield ',\n'
        l_2_n = missing
        yield ')\n'
    l_1_mod = l_1_names = missing
    yield '\n__all__ = [\n'
    for l_1_name in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'exports'):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(l_1_name)
        yield '",\n'
    l_1_name = missing
    yield ']\n\n_sarek_Buffer = _sarek_Union[bytes, bytearray, memoryview]\n_sarek_TAG = _sarek_struct.Struct("='
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tag_format'))
    yield '")\n\n#: The scalar table: (name, kind, struct format, integer range) of each scalar.\n_sarek_SCALAR: _sarek_Final[_sarek_Mapping[str, _sarek_ScalarRow]] = {\n'
    for (l_1_name, l_1_kind, l_1_fmt, l_1_int_range) in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'scalars'):
        _loop_vars = {}
        pass
        yield '    "'
        yield str(l_1_name)
        yield '": ("'
        yield str(l_1_name)
        yield '", "'
        yield str(l_1_kind)
        yield '", "'
        yield str(l_1_fmt)
        yield '", '
        yield str(l_1_int_range)
        yield '),\n'
    l_1_name = l_1_kind = l_1_fmt = l_1_int_range = missing
    yield '}\n'
    l_1_loop = missing
    for l_1_t, l_1_loop in LoopContext(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'), undefined):
        l_1_c = missing
        _loop_vars = {}
        pass
        l_1_c = environment.getattr(l_1_t, 'c_name')
        _loop_vars['c'] = l_1_c
        yield '\n\n# ------------------------------------------------------------------------------------------\n# '
        yield str(environment.getattr(l_1_t, 'qualified_name'))
        yield ': '
        yield str(environment.getattr(l_1_t, 'kind'))
        yield ', size '
        yield str(environment.getattr(l_1_t, 'size'))
        yield ', align '
        yield str(environment.getattr(l_1_t, 'align'))
        yield str((str_join((', payload at offset ', environment.getattr(l_1_t, 'payload_offset'), )) if (environment.getattr(l_1_t, 'kind') == 'variant') else ''))
        yield '\n\n\n'
        if (environment.getattr(l_1_t, 'kind') == 'record'):
            pass
            yield '@_sarek_dataclass(frozen=True)\nclass '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ':\n'
            for l_2_f in environment.getattr(l_1_t, 'fields'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_f, 'name'))
                yield ': '
                yield str(environment.getattr(l_2_f, 'annotation'))
                yield '\n'
            l_2_f = missing
            yield '\n\n'
        else:
            pass
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '@_sarek_dataclass(frozen=True)\nclass '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ':\n    """'
                yield str(environment.getattr(l_1_t, 'qualified_name'))
                yield ' constructor '
                yield str(environment.getattr(l_2_ctor, 'name'))
                yield ' (tag '
                yield str(environment.getattr(l_2_ctor, 'tag'))
                yield ')."""\n\n    TAG: _sarek_ClassVar[int] = '
                yield str(environment.getattr(l_2_ctor, 'tag'))
                yield '\n'
                for l_3_f in environment.getattr(l_2_ctor, 'fields'):
                    _loop_vars = {}
                    pass
                    yield '    '
                    yield str(environment.getattr(l_3_f, 'name'))
                    yield ': '
                    yield str(environment.getattr(l_3_f, 'annotation'))
                    yield '\n'
                l_3_f = missing
                yield '\n\n'
            l_2_ctor = missing
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ' = _sarek_Union['
            l_2_loop = missing
            for l_2_ctor, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
                _loop_vars = {}
                pass
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 139 in 'python.py.j2' evaluated to false and no else section was defined.")))
            l_2_loop = l_2_ctor = missing
            yield ']\n\n'
        yield 'SIZEOF_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ': _sarek_Final = '
        yield str(environment.getattr(l_1_t, 'size'))
        yield '\nALIGNOF_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ': _sarek_Final = '
        yield str(environment.getattr(l_1_t, 'align'))
        yield '\n#: The layout fingerprint of '
        yield str(environment.getattr(l_1_t, 'qualified_name'))
        yield ' (docs/fingerprint.md).\nLAYOUT_ID_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ': _sarek_Final = '
        yield str(environment.getattr(l_1_t, 'layout_id'))
        yield '\nOFFSETS_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ': _sarek_Final[_sarek_Mapping[str, int]] = {\n'
        for (l_2_path, l_2_offset) in environment.getattr(l_1_t, 'offsets'):
            _loop_vars = {}
            pass
            yield '    "'
            yield str(l_2_path)
            yield '": '
            yield str(l_2_offset)
            yield ',\n'
        l_2_path = l_2_offset = missing
        yield '}\n'
        if (environment.getattr(l_1_t, 'kind') == 'record'):
            pass
            yield '_sarek_S_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ' = _sarek_struct.Struct("'
            yield str(environment.getattr(l_1_t, 'format'))
            yield '")\n_sarek_LEAVES_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Leaves = (\n'
            yield str(context.call((undefined(name='leaves') if l_0_leaves is missing else l_0_leaves), environment.getattr(l_1_t, 'slots'), '    ', _loop_vars=_loop_vars))
            yield ')\n_sarek_RECORDS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Records = (\n    ("", lambda v: v),\n'
            yield str(context.call((undefined(name='record_paths') if l_0_record_paths is missing else l_0_record_paths), environment.getattr(l_1_t, 'records'), '    ', _loop_vars=_loop_vars))
            yield ')\n\n\ndef encode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(value: '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ') -> bytes:\n    """The '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ' bytes of one '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ' (padding zero)."""\n    try:\n        if value.__class__ not in _sarek_OBJECTS and not _sarek_object(value):\n            raise TypeError("a mapping")\n'
            for l_2_r in environment.getattr(l_1_t, 'records'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(environment.getattr(l_2_r, 'var'))
                yield ' = '
                yield str(environment.getattr(l_2_r, 'source'))
                yield '\n        if '
                yield str(environment.getattr(l_2_r, 'var'))
                yield '.__class__ not in _sarek_OBJECTS and not _sarek_object('
                yield str(environment.getattr(l_2_r, 'var'))
                yield '):\n            raise TypeError("a mapping")\n'
            l_2_r = missing
            yield '        return _sarek_S_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '.pack(\n'
            for l_2_s in environment.getattr(l_1_t, 'slots'):
                _loop_vars = {}
                pass
                yield '            '
                yield str(context.call((undefined(name='arg') if l_0_arg is missing else l_0_arg), l_2_s, _loop_vars=_loop_vars))
                yield ',\n'
            l_2_s = missing
            yield '        )\n    except _sarek_FAILURES:\n        raise _sarek_explain("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", value, _sarek_LEAVES_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ', _sarek_RECORDS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ') from None\n\n\ndef _sarek_build_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(t: _sarek_Tuple[_sarek_Any, ...]) -> '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ':\n    return '
            yield str(context.call((undefined(name='build') if l_0_build is missing else l_0_build), environment.getattr(l_1_t, 'build'), _loop_vars=_loop_vars))
            yield '\n\n\ndef decode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(data: _sarek_Buffer, offset: int = 0) -> '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ':\n    """The '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ' at byte `offset` of `data`."""\n    if offset < 0:  # unpack_from would count from the end of the buffer\n        raise DecodeError(_sarek_negative_offset("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", offset))\n    try:\n        return '
            yield str(context.call((undefined(name='paused') if l_0_paused is missing else l_0_paused), l_1_t, str_join(('_sarek_build_', (undefined(name='c') if l_1_c is missing else l_1_c), '(_sarek_S_', (undefined(name='c') if l_1_c is missing else l_1_c), '.unpack_from(data, offset))', )), _loop_vars=_loop_vars))
            yield '\n    except (_sarek_struct.error, OverflowError) as e:\n        raise DecodeError(_sarek_short_read("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', offset, e)) from None\n\n\ndef unpack_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(data: _sarek_Buffer, count: _sarek_Optional[int] = None, offset: int = 0) -> _sarek_List['
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ']:\n    """`count` elements (default: the whole buffer) from byte `offset`."""\n    view = _sarek_byte_view(data)\n    count, problem = _sarek_span(len(view), offset, count, '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', "'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '")\n    if problem:\n        raise DecodeError(problem)\n    span = view[offset:offset + count * '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ']\n    return _sarek_many(count * '
            yield str(environment.getattr(l_1_t, 'leaves'))
            yield ', lambda: [\n        _sarek_build_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(t) for t in _sarek_S_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '.iter_unpack(span)])\n'
        else:
            pass
            yield 'TAGS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Final[_sarek_Mapping[str, int]] = {\n'
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '    "'
                yield str(environment.getattr(l_2_ctor, 'name'))
                yield '": '
                yield str(environment.getattr(l_2_ctor, 'tag'))
                yield ',\n'
            l_2_ctor = missing
            yield '}\nPAYLOAD_OFFSET_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Final = '
            yield str(environment.getattr(l_1_t, 'payload_offset'))
            yield '\n'
            l_2_loop = missing
            for l_2_ctor, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
                _loop_vars = {}
                pass
                yield '\n_sarek_S_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ' = _sarek_struct.Struct("'
                yield str(environment.getattr(l_2_ctor, 'format'))
                yield '")\n\n\ndef _sarek_encode_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield '(value: '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ') -> bytes:\n'
                for l_3_r in environment.getattr(l_2_ctor, 'records'):
                    _loop_vars = {}
                    pass
                    yield '    '
                    yield str(environment.getattr(l_3_r, 'var'))
                    yield ' = '
                    yield str(environment.getattr(l_3_r, 'source'))
                    yield '\n    if '
                    yield str(environment.getattr(l_3_r, 'var'))
                    yield '.__class__ not in _sarek_OBJECTS and not _sarek_object('
                    yield str(environment.getattr(l_3_r, 'var'))
                    yield '):\n        raise TypeError("a mapping")\n'
                l_3_r = missing
                yield '    return _sarek_S_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield '.pack(\n        '
                yield str(environment.getattr(l_2_ctor, 'tag'))
                yield ',\n'
                for l_3_s in environment.getattr(l_2_ctor, 'slots'):
                    _loop_vars = {}
                    pass
                    yield '        '
                    yield str(context.call((undefined(name='arg') if l_0_arg is missing else l_0_arg), l_3_s, _loop_vars=_loop_vars))
                    yield ',\n'
                l_3_s = missing
                yield '    )\n\n\ndef _sarek_build_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield '(t: _sarek_Tuple[_sarek_Any, ...]) -> '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ':\n    return '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield '('
                l_3_loop = missing
                for l_3_a, l_3_loop in LoopContext(environment.getattr(l_2_ctor, 'args'), undefined):
                    _loop_vars = {}
                    pass
                    yield str(context.call((undefined(name='build') if l_0_build is missing else l_0_build), l_3_a, _loop_vars=_loop_vars))
                    yield str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 231 in 'python.py.j2' evaluated to false and no else section was defined.")))
                l_3_loop = l_3_a = missing
                yield ')\n\n'
            l_2_loop = l_2_ctor = missing
            yield '\n\n_sarek_ENCODE_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Dict[type, _sarek_Callable[[_sarek_Any], bytes]] = {\n'
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ': _sarek_encode_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ',\n'
            l_2_ctor = missing
            yield '}\n_sarek_LEAVES_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Dict[type, _sarek_Leaves] = {\n'
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ': (\n'
                yield str(context.call((undefined(name='leaves') if l_0_leaves is missing else l_0_leaves), environment.getattr(l_2_ctor, 'slots'), '        ', _loop_vars=_loop_vars))
                yield '    ),\n'
            l_2_ctor = missing
            yield '}\n_sarek_RECORDS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Dict[type, _sarek_Records] = {\n'
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ': (\n'
                yield str(context.call((undefined(name='record_paths') if l_0_record_paths is missing else l_0_record_paths), environment.getattr(l_2_ctor, 'records'), '        ', _loop_vars=_loop_vars))
                yield '    ),\n'
            l_2_ctor = missing
            yield '}\n_sarek_DECODE_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Tuple[_sarek_Tuple[_sarek_struct.Struct, _sarek_Callable[[_sarek_Tuple[_sarek_Any, ...]], '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ']], ...] = (\n'
            for l_2_ctor in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield '    (_sarek_S_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield ', _sarek_build_'
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield '),\n'
            l_2_ctor = missing
            yield ')\n\n\ndef encode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(value: '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ') -> bytes:\n    """The '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ' bytes of one '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ': tag set, padding zero."""\n    try:\n        return _sarek_ENCODE_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '[value.__class__](value)\n    except KeyError:\n        raise EncodeError(\n            "'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", None,\n            f"expected one of '
            l_2_loop = missing
            for l_2_ctor, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
                _loop_vars = {}
                pass
                yield str(environment.getattr(l_2_ctor, 'cls'))
                yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 267 in 'python.py.j2' evaluated to false and no else section was defined.")))
            l_2_loop = l_2_ctor = missing
            yield ', "\n            f"got {_sarek_describe(value)}",\n        ) from None\n    except _sarek_FAILURES:\n        raise _sarek_explain("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", value, _sarek_LEAVES_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '[value.__class__],\n                             _sarek_RECORDS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '[value.__class__]) from None\n\n\ndef _sarek_decode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(data: _sarek_Buffer, offset: int) -> '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ':\n    tag: int = _sarek_TAG.unpack_from(data, offset)[0]\n    if not 0 <= tag < '
            yield str(t_1(environment.getattr(l_1_t, 'ctors')))
            yield ':\n        raise DecodeError(_sarek_unknown_tag("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", tag, offset, list(TAGS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ')))\n    layout, build = _sarek_DECODE_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '[tag]\n    return build(layout.unpack_from(data, offset))\n\n\ndef decode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(data: _sarek_Buffer, offset: int = 0) -> '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ':\n    """The '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ' at byte `offset` of `data`."""\n    if offset < 0:  # unpack_from would count from the end of the buffer\n        raise DecodeError(_sarek_negative_offset("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", offset))\n    try:\n        return '
            yield str(context.call((undefined(name='paused') if l_0_paused is missing else l_0_paused), l_1_t, str_join(('_sarek_decode_', (undefined(name='c') if l_1_c is missing else l_1_c), '(data, offset)', )), _loop_vars=_loop_vars))
            yield '\n    except (_sarek_struct.error, OverflowError) as e:\n        raise DecodeError(_sarek_short_read("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', offset, e)) from None\n\n\ndef unpack_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(data: _sarek_Buffer, count: _sarek_Optional[int] = None, offset: int = 0) -> _sarek_List['
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ']:\n    """`count` elements (default: the whole buffer) from byte `offset`."""\n    view = _sarek_byte_view(data)\n    count, problem = _sarek_span(len(view), offset, count, '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', "'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '")\n    if problem:\n        raise DecodeError(problem)\n    return _sarek_many(count * '
            yield str(environment.getattr(l_1_t, 'leaves'))
            yield ', lambda: [\n        decode_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield '(view, at) for at in range(offset, offset + count * '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ')])\n'
        yield '\n\ndef pack_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(values: _sarek_Iterable['
        yield str(environment.getattr(l_1_t, 'cls'))
        yield ']) -> bytes:\n    """The elements of `values`, back to back ('
        yield str(environment.getattr(l_1_t, 'size'))
        yield ' bytes each)."""\n    return _sarek_pack_each(encode_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ', values)\n\n\ndef header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(count: int) -> bytes:\n    """The 24-byte header (magic, LAYOUT_ID_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ', `count`) in front of `count` elements."""\n    return _sarek_header(LAYOUT_ID_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ', count)\n\n\ndef check_header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(data: _sarek_Buffer, offset: int = 0) -> int:\n    """The element count of the header at byte `offset`; DecodeError, naming both\n    fingerprints, when the data was written under another layout of '
        yield str(environment.getattr(l_1_t, 'qualified_name'))
        yield '."""\n    count, problem = _sarek_header_problem("'
        yield str(environment.getattr(l_1_t, 'qualified_name'))
        yield '", LAYOUT_ID_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ', _sarek_byte_view(data), offset)\n    if problem:\n        raise DecodeError(problem)\n    return count\n\n\ndef pack_framed_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(values: _sarek_Iterable['
        yield str(environment.getattr(l_1_t, 'cls'))
        yield ']) -> bytes:\n    """header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ', then the elements of `values`: for a file or a cached buffer."""\n    seq = list(values)\n    return header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(len(seq)) + pack_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(seq)\n\n\ndef unpack_framed_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(data: _sarek_Buffer, offset: int = 0) -> _sarek_List['
        yield str(environment.getattr(l_1_t, 'cls'))
        yield ']:\n    """The elements pack_framed_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield ' wrote at byte `offset`, after check_header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '."""\n    count = check_header_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(data, offset)\n    return unpack_'
        yield str((undefined(name='c') if l_1_c is missing else l_1_c))
        yield '(data, count, offset + _sarek_HEADER.size)\n'
    l_1_loop = l_1_t = l_1_c = missing
    yield ''

blocks = {}
debug_info = '8=20&9=25&10=28&11=43&12=46&13=51&14=55&15=58&18=67&21=73&22=78&23=81&24=86&25=90&26=95&27=99&29=105&32=110&33=117&34=121&37=132&38=139&39=142&40=145&42=157&46=170&47=177&48=181&50=189&53=195&55=205&77=207&86=209&88=213&89=215&90=219&96=225&97=229&102=233&106=235&107=239&110=252&111=256&115=259&118=268&120=271&121=273&122=277&127=285&129=289&130=291&132=297&133=299&134=303&139=310&142=321&143=325&144=329&145=331&146=335&147=337&148=341&151=347&152=350&153=354&154=356&156=358&158=360&162=362&163=366&167=370&168=374&169=378&172=384&173=386&174=390&178=394&181=400&182=404&185=406&186=410&188=412&190=414&192=416&195=420&198=424&201=428&202=430&203=432&205=439&206=441&207=445&210=451&211=456&213=460&216=464&217=468&218=472&219=476&222=482&223=484&224=486&225=490&230=494&231=498&236=510&237=512&238=516&241=522&242=524&243=528&244=530&247=534&248=536&249=540&250=542&253=546&254=550&255=554&260=560&261=564&263=568&266=570&267=573&271=580&272=584&275=586&277=590&278=592&279=596&283=598&284=602&286=604&288=606&290=608&293=612&296=616&299=620&300=622&304=629&305=633&306=635&309=637&310=639&311=641&314=643&316=645&317=647&323=651&324=655&326=657&329=661&330=665&331=669&332=671'

SOURCE_SHA256 = 'f700dd1ddff1b3463c7b86c020257debc49beaf5698704b9cb778fd5cb2bb195'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/python.py.j2: do not edit.
