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
    l_0_build = l_0_arg = l_0_record_paths = l_0_leaves = l_0_repeats = l_0_paused = missing
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
        elif ((environment.getattr(l_1_node, 'kind') == 'repeat') and environment.getattr(l_1_node, 'inline')):
            pass
            t_2.extend((
                str(environment.getattr(l_1_node, 'repeat')),
                '.unflat(t[',
                str(environment.getattr(l_1_node, 'index')),
                ':',
                str(environment.getattr(l_1_node, 'end')),
                '])',
            ))
        elif (environment.getattr(l_1_node, 'kind') == 'repeat'):
            pass
            t_2.extend((
                str(environment.getattr(l_1_node, 'repeat')),
                '.unpack(t[',
                str(environment.getattr(l_1_node, 'index')),
                ']',
                str((str_join((', ', environment.getattr(l_1_node, 'decoder'), )) if environment.getattr(l_1_node, 'decoder') else cond_expr_undefined("the inline if-expression on line 14 in 'python.py.j2' evaluated to false and no else section was defined."))),
                ')',
            ))
        elif (environment.getattr(l_1_node, 'kind') == 'enum'):
            pass
            t_2.extend((
                '_sarek_enum_member(',
                str(environment.getattr(l_1_node, 'enum')),
                ', t[',
                str(environment.getattr(l_1_node, 'index')),
                '], "',
                str(environment.getattr(l_1_node, 'path')),
                '")',
            ))
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
        if (environment.getattr(l_1_slot, 'repeat') and environment.getattr(l_1_slot, 'inline')):
            pass
            t_3.extend((
                '*',
                str(environment.getattr(l_1_slot, 'repeat')),
                '.flat(',
                str(environment.getattr(l_1_slot, 'source')),
                ')',
            ))
        elif environment.getattr(l_1_slot, 'repeat'):
            pass
            t_3.extend((
                str(environment.getattr(l_1_slot, 'repeat')),
                '.pack(',
                str(environment.getattr(l_1_slot, 'source')),
                str((str_join((', ', environment.getattr(l_1_slot, 'encoder'), )) if environment.getattr(l_1_slot, 'encoder') else cond_expr_undefined("the inline if-expression on line 31 in 'python.py.j2' evaluated to false and no else section was defined."))),
                ')',
            ))
        elif environment.getattr(l_1_slot, 'enum'):
            pass
            t_3.extend((
                '_sarek_enum_int(',
                str(environment.getattr(l_1_slot, 'enum')),
                ', ',
                str(environment.getattr(l_1_slot, 'source')),
                ')',
            ))
        elif environment.getattr(l_1_slot, 'encoder'):
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
            if environment.getattr(l_2_s, 'repeat'):
                pass
                t_5.extend((
                    str(l_1_indent),
                    '("',
                    str(environment.getattr(l_2_s, 'path')),
                    '", None, lambda v: v.',
                    str(environment.getattr(l_2_s, 'attr')),
                    ', ',
                    str((str_join(('lambda x: ', environment.getattr(l_2_s, 'repeat'), '.check(x, ', environment.getattr(l_2_s, 'encoder'), ')', )) if environment.getattr(l_2_s, 'encoder') else str_join((environment.getattr(l_2_s, 'repeat'), '.check', )))),
                    '),\n',
                ))
            elif environment.getattr(l_2_s, 'enum'):
                pass
                t_5.extend((
                    str(l_1_indent),
                    '("',
                    str(environment.getattr(l_2_s, 'path')),
                    '", None, lambda v: v.',
                    str(environment.getattr(l_2_s, 'attr')),
                    ', _sarek_enum_check(',
                    str(environment.getattr(l_2_s, 'enum')),
                    ')),\n',
                ))
            elif environment.getattr(l_2_s, 'encoder'):
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
    def macro(l_1_list):
        t_6 = []
        if l_1_list is missing:
            l_1_list = undefined("parameter 'list' was not provided", name='list')
        pass
        for l_2_r in l_1_list:
            _loop_vars = {}
            pass
            t_6.extend((
                str(environment.getattr(l_2_r, 'var')),
                ' = _sarek_Repeat("',
                str(environment.getattr(l_2_r, 'path')),
                '", ',
                str(environment.getattr(l_2_r, 'shape')),
                ', ',
                str((str_join(('_sarek_SCALAR["', environment.getattr(l_2_r, 'scalar'), '"]', )) if environment.getattr(l_2_r, 'scalar') else 'None')),
                ', ',
                str((environment.getattr(l_2_r, 'enum') or 'None')),
                ', "',
                str(environment.getattr(l_2_r, 'row_format')),
                '", ',
                str(environment.getattr(l_2_r, 'per_row')),
                ', ',
                str(environment.getattr(l_2_r, 'rows')),
                ', ',
                str(environment.getattr(l_2_r, 'size')),
                ')\n',
            ))
        l_2_r = missing
        return concat(t_6)
    context.exported_vars.add('repeats')
    context.vars['repeats'] = l_0_repeats = Macro(environment, macro, 'repeats', ('list',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t, l_1_expr):
        t_7 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        if l_1_expr is missing:
            l_1_expr = undefined("parameter 'expr' was not provided", name='expr')
        pass
        if environment.getattr(l_1_t, 'pause_gc'):
            pass
            t_7.extend((
                '_sarek_many(',
                str(environment.getattr(l_1_t, 'leaves')),
                ', lambda: ',
                str(l_1_expr),
                ')',
            ))
        else:
            pass
            t_7.append(
                str(l_1_expr),
            )
        return concat(t_7)
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
    yield ' generate -t python`.\n\nStandalone (standard library only): element types with the Sarek aligned aggregate layout,\nas the C, CUDA and OpenCL headers generated from the same schema lay them out. Records are\nfrozen dataclasses; a variant is a Union of one frozen dataclass per constructor, whose\n`TAG` is the constructor\'s tag. `encode_T`/`decode_T` turn one element into its `SIZEOF_T`\nbytes and back, `pack_T`/`unpack_T` whole arrays; bytes are in this host\'s byte order and\nevery padding byte is zero. `OFFSETS_T` maps the dotted path of each scalar leaf to its\noffset; a large nested record is packed whole by its own `encode_`, and is one entry there.\nA fixed array, vector or matrix member is one entry too (the offset of its first element),\nand `DIMS_T` gives its (count, stride) per level, outermost first. Its value is a sequence\n(a list, a tuple or a numpy array) of its length, nested for each level (a matrix is its\ncolumns, each a sequence of its rows, as in memory); decoding gives tuples. An enum type is\nan IntEnum class; a member of it takes a member of the class, a value name or an integer\nthat is one of its values, and decodes to the class\'s member (bytes holding another\ninteger are refused).\n`LAYOUT_ID_T` is the type\'s layout fingerprint; `pack_framed_T`/`unpack_framed_T` put a\nheader carrying it (`header_T`, `check_header_T`) in front of the elements and refuse data\nwritten under another layout.\nA field or type name that is a Python keyword, or that every class has (`mro`), has a\ntrailing `_` (`from_`, `mro_`); messages and\n`OFFSETS_T` keep the schema\'s names.\n\nA record value is read by attribute: one of these dataclasses, or any object with those\nattributes (extra attributes are fine). A mapping is refused, at any depth, even one whose\nkeys can be read as attributes (the sarek-layout package\'s `load(...).encode` takes\nmappings, and checks their keys). Offsets count bytes from the start of a buffer and are never negative.\n"""\n\n'
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'runtime'))
    yield '\n\nfrom dataclasses import dataclass as _sarek_dataclass\nfrom enum import IntEnum as _sarek_IntEnum\nfrom typing import ClassVar as _sarek_ClassVar\nfrom typing import Final as _sarek_Final\nfrom typing import Mapping as _sarek_Mapping\nfrom typing import Union as _sarek_Union\n'
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
        if (environment.getattr(l_1_t, 'kind') == 'enum'):
            pass
            yield 'class '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield '(_sarek_IntEnum):\n    """'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ': enum of '
            yield str(environment.getattr(environment.getattr(l_1_t, 'enum'), 'base'))
            yield '."""\n\n'
            for (l_2_name, l_2_value) in environment.getattr(environment.getattr(l_1_t, 'enum'), 'members'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(l_2_name)
                yield ' = '
                yield str(l_2_value)
                yield '\n'
            l_2_name = l_2_value = missing
            yield '\n\n'
            yield str(environment.getattr(environment.getattr(l_1_t, 'enum'), 'spec'))
            yield ' = _sarek_enum_spec("'
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield '", '
            yield str(environment.getattr(l_1_t, 'cls'))
            yield ', (\n'
            for (l_2_name, l_2_value) in environment.getattr(environment.getattr(l_1_t, 'enum'), 'pairs'):
                _loop_vars = {}
                pass
                yield '    ("'
                yield str(l_2_name)
                yield '", '
                yield str(l_2_value)
                yield '),\n'
            l_2_name = l_2_value = missing
            yield '))\n'
        else:
            pass
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
                    yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 181 in 'python.py.j2' evaluated to false and no else section was defined.")))
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
            yield '}\nDIMS_'
            yield str((undefined(name='c') if l_1_c is missing else l_1_c))
            yield ': _sarek_Final[_sarek_Mapping[str, _sarek_Tuple[_sarek_Tuple[int, int], ...]]] = {\n'
            for (l_2_path, l_2_levels) in environment.getattr(l_1_t, 'dims'):
                _loop_vars = {}
                pass
                yield '    "'
                yield str(l_2_path)
                yield '": '
                yield str(l_2_levels)
                yield ',\n'
            l_2_path = l_2_levels = missing
            yield '}\n'
            if (environment.getattr(l_1_t, 'kind') == 'record'):
                pass
                yield '_sarek_S_'
                yield str((undefined(name='c') if l_1_c is missing else l_1_c))
                yield ' = _sarek_struct.Struct("'
                yield str(environment.getattr(l_1_t, 'format'))
                yield '")\n'
                yield str(context.call((undefined(name='repeats') if l_0_repeats is missing else l_0_repeats), environment.getattr(l_1_t, 'repeats'), _loop_vars=_loop_vars))
                yield '_sarek_LEAVES_'
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
                yield ', offset, e)) from None\n    except _sarek_BadValue as e:\n        raise DecodeError(_sarek_bad_value("'
                yield str(environment.getattr(l_1_t, 'qualified_name'))
                yield '", offset, e)) from None\n\n\ndef unpack_'
                yield str((undefined(name='c') if l_1_c is missing else l_1_c))
                yield '(data: _sarek_Buffer, count: _sarek_Optional[int] = None, offset: int = 0) -> _sarek_List['
                yield str(environment.getattr(l_1_t, 'cls'))
                yield ']:\n    """`count` elements (default: the whole buffer) from byte `offset`."""\n    view = _sarek_byte_view(data)\n    count, problem = _sarek_span(len(view), offset, count, '
                yield str(environment.getattr(l_1_t, 'size'))
                yield ', "'
                yield str(environment.getattr(l_1_t, 'qualified_name'))
                yield '")\n    if problem:\n        raise DecodeError(problem)\n    span = view[offset:offset + count * '
                yield str(environment.getattr(l_1_t, 'size'))
                yield ']\n    try:\n        return _sarek_many(count * '
                yield str(environment.getattr(l_1_t, 'leaves'))
                yield ', lambda: [\n            _sarek_build_'
                yield str((undefined(name='c') if l_1_c is missing else l_1_c))
                yield '(t) for t in _sarek_S_'
                yield str((undefined(name='c') if l_1_c is missing else l_1_c))
                yield '.iter_unpack(span)])\n    except _sarek_BadValue:  # find the element, for the message\n        return [decode_'
                yield str((undefined(name='c') if l_1_c is missing else l_1_c))
                yield '(view, at) for at in range(offset, offset + count * '
                yield str(environment.getattr(l_1_t, 'size'))
                yield ', '
                yield str(environment.getattr(l_1_t, 'size'))
                yield ')]\n'
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
                    yield '")\n'
                    yield str(context.call((undefined(name='repeats') if l_0_repeats is missing else l_0_repeats), environment.getattr(l_2_ctor, 'repeats'), _loop_vars=_loop_vars))
                    yield 'def _sarek_encode_'
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
                        yield str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 285 in 'python.py.j2' evaluated to false and no else section was defined.")))
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
                    yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 321 in 'python.py.j2' evaluated to false and no else section was defined.")))
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
                yield ', offset, e)) from None\n    except _sarek_BadValue as e:\n        raise DecodeError(_sarek_bad_value("'
                yield str(environment.getattr(l_1_t, 'qualified_name'))
                yield '", offset, e)) from None\n\n\ndef unpack_'
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
debug_info = '8=20&9=25&10=28&11=43&12=46&13=53&14=56&15=63&16=67&17=74&18=77&19=82&20=86&21=89&24=98&27=104&28=109&29=113&30=118&31=121&32=127&33=131&34=136&35=139&36=144&37=148&38=153&39=157&41=163&44=168&45=175&46=179&49=190&50=197&51=200&52=203&53=212&54=215&55=224&56=227&58=239&62=252&63=257&64=261&67=284&68=291&69=295&71=303&74=309&76=319&105=321&113=323&115=327&116=329&117=333&123=339&124=343&129=347&133=349&134=353&137=366&138=370&142=373&145=382&146=385&147=387&149=391&150=395&154=401&155=407&156=411&160=419&162=422&163=424&164=428&169=436&171=440&172=442&174=448&175=450&176=454&181=461&184=472&185=476&186=480&187=482&188=486&189=488&190=492&193=498&194=500&195=504&198=510&199=513&200=517&201=519&202=521&204=523&206=525&210=527&211=531&215=535&216=539&217=543&220=549&221=551&222=555&226=559&229=565&230=569&233=571&234=575&236=577&238=579&240=581&242=585&245=587&248=591&251=595&253=597&254=599&256=603&258=612&259=614&260=618&263=624&264=629&266=633&267=637&270=639&271=643&272=647&273=651&276=657&277=659&278=661&279=665&284=669&285=673&290=685&291=687&292=691&295=697&296=699&297=703&298=705&301=709&302=711&303=715&304=717&307=721&308=725&309=729&314=735&315=739&317=743&320=745&321=748&325=755&326=759&329=761&331=765&332=767&333=771&337=773&338=777&340=779&342=781&344=783&346=787&349=789&352=793&355=797&356=799&360=806&361=810&362=812&365=814&366=816&367=818&370=820&372=822&373=824&379=828&380=832&382=834&385=838&386=842&387=846&388=848'

SOURCE_SHA256 = '0ec0b75ba391a370e724afc5e2ece43e5f93d961e9d1be7e2e3cabbc720ce3ec'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/python.py.j2: do not edit.
