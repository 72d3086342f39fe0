from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'glsl.glsl.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_dialect = resolve('dialect')
    l_0_filename = resolve('filename')
    l_0_view = resolve('view')
    l_0_guard = resolve('guard')
    l_0_includes = resolve('includes')
    l_0_scalar = l_0_zeros = l_0_unpack = l_0_pack = l_0_at = l_0_each_word = l_0_zeroed = l_0_payload_word = l_0_read = l_0_store = l_0_members = l_0_layout_id = l_0_record = l_0_variant = missing
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    l_0_scalar = environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'scalar')
    context.vars['scalar'] = l_0_scalar
    context.exported_vars.add('scalar')
    def macro(l_1_n):
        t_2 = []
        if l_1_n is missing:
            l_1_n = undefined("parameter 'n' was not provided", name='n')
        pass
        t_2.extend((
            'uint[',
            str(l_1_n),
            '](',
            str(t_1(context.eval_ctx, (['0u'] * l_1_n), ', ')),
            ')',
        ))
        return concat(t_2)
    context.exported_vars.add('zeros')
    context.vars['zeros'] = l_0_zeros = Macro(environment, macro, 'zeros', ('n',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_word):
        t_3 = []
        l_1_bits = l_1_mask = missing
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_word is missing:
            l_1_word = undefined("parameter 'word' was not provided", name='word')
        pass
        l_1_bits = (str_join(('(', l_1_word, ' >> ', environment.getattr(l_1_slot, 'shift'), 'u)', )) if environment.getattr(l_1_slot, 'shift') else l_1_word)
        l_1_mask = ('0xFFu' if (environment.getattr(l_1_slot, 'bits') == 8) else '0xFFFFu')
        if (environment.getattr(l_1_slot, 'type') == 'float16'):
            pass
            t_3.extend((
                'unpackHalf2x16(',
                str((undefined(name='bits') if l_1_bits is missing else l_1_bits)),
                ' & 0xFFFFu).x',
            ))
        elif environment.getattr(l_1_slot, 'signed'):
            pass
            t_3.extend((
                'bitfieldExtract(int(',
                str(l_1_word),
                '), ',
                str(environment.getattr(l_1_slot, 'shift')),
                ', ',
                str(environment.getattr(l_1_slot, 'bits')),
                ')',
            ))
        else:
            pass
            t_3.extend((
                '(',
                str((undefined(name='bits') if l_1_bits is missing else l_1_bits)),
                ' & ',
                str((undefined(name='mask') if l_1_mask is missing else l_1_mask)),
                ')',
            ))
        return concat(t_3)
    context.exported_vars.add('unpack')
    context.vars['unpack'] = l_0_unpack = Macro(environment, macro, 'unpack', ('slot', 'word'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_v):
        t_4 = []
        l_1_mask = l_1_bits = missing
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_v is missing:
            l_1_v = undefined("parameter 'v' was not provided", name='v')
        pass
        l_1_mask = ('0xFFu' if (environment.getattr(l_1_slot, 'bits') == 8) else '0xFFFFu')
        l_1_bits = (str_join(('(packHalf2x16(vec2(', l_1_v, ', 0.0)) & 0xFFFFu)', )) if (environment.getattr(l_1_slot, 'type') == 'float16') else str_join(('(uint(', l_1_v, ') & ', (undefined(name='mask') if l_1_mask is missing else l_1_mask), ')', )))
        t_4.append(
            str((str_join(('(', (undefined(name='bits') if l_1_bits is missing else l_1_bits), ' << ', environment.getattr(l_1_slot, 'shift'), 'u)', )) if environment.getattr(l_1_slot, 'shift') else (undefined(name='bits') if l_1_bits is missing else l_1_bits))),
        )
        return concat(t_4)
    context.exported_vars.add('pack')
    context.vars['pack'] = l_0_pack = Macro(environment, macro, 'pack', ('slot', 'v'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_base):
        t_5 = []
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        pass
        t_5.append(
            str(('_sarek_k' if (l_1_base == 0) else str_join((l_1_base, 'u + _sarek_k', )))),
        )
        return concat(t_5)
    context.exported_vars.add('at')
    context.vars['at'] = l_0_at = Macro(environment, macro, 'at', ('base',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_n, l_1_statement):
        t_6 = []
        if l_1_n is missing:
            l_1_n = undefined("parameter 'n' was not provided", name='n')
        if l_1_statement is missing:
            l_1_statement = undefined("parameter 'statement' was not provided", name='statement')
        pass
        t_6.extend((
            '[[unroll]] for (uint _sarek_k = 0u; _sarek_k < ',
            str(l_1_n),
            'u; ++_sarek_k) ',
            str(l_1_statement),
        ))
        return concat(t_6)
    context.exported_vars.add('each_word')
    context.vars['each_word'] = l_0_each_word = Macro(environment, macro, 'each_word', ('n', 'statement'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_name, l_1_n, l_1_unrolled):
        t_7 = []
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        if l_1_n is missing:
            l_1_n = undefined("parameter 'n' was not provided", name='n')
        if l_1_unrolled is missing:
            l_1_unrolled = undefined("parameter 'unrolled' was not provided", name='unrolled')
        pass
        if l_1_unrolled:
            pass
            t_7.extend((
                'uint ',
                str(l_1_name),
                '[',
                str(l_1_n),
                '] = ',
                str(context.call((undefined(name='zeros') if l_0_zeros is missing else l_0_zeros), l_1_n)),
                ';',
            ))
        else:
            pass
            t_7.extend((
                'uint ',
                str(l_1_name),
                '[',
                str(l_1_n),
                '];\n    ',
                str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), l_1_n, str_join((l_1_name, '[_sarek_k] = 0u;', )))),
            ))
        return concat(t_7)
    context.exported_vars.add('zeroed')
    context.vars['zeroed'] = l_0_zeroed = Macro(environment, macro, 'zeroed', ('name', 'n', 'unrolled'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_data, l_1_base):
        t_8 = []
        l_1_i = resolve('i')
        if l_1_data is missing:
            l_1_data = undefined("parameter 'data' was not provided", name='data')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        pass
        if environment.getattr(l_1_data, 'wide'):
            pass
            l_1_i = ('_sarek_k' if (l_1_base == 0) else str_join(('(', context.call((undefined(name='at') if l_0_at is missing else l_0_at), l_1_base), ')', )))
            t_8.extend((
                '_sarek_v.data[',
                str((undefined(name='i') if l_1_i is missing else l_1_i)),
                ' >> 1u][',
                str((undefined(name='i') if l_1_i is missing else l_1_i)),
                ' & 1u]',
            ))
        else:
            pass
            t_8.extend((
                '_sarek_v.data[',
                str(context.call((undefined(name='at') if l_0_at is missing else l_0_at), l_1_base)),
                ']',
            ))
        return concat(t_8)
    context.exported_vars.add('payload_word')
    context.vars['payload_word'] = l_0_payload_word = Macro(environment, macro, 'payload_word', ('data', 'base'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_w):
        t_9 = []
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_w is missing:
            l_1_w = undefined("parameter 'w' was not provided", name='w')
        pass
        if environment.getattr(l_1_slot, 'bits'):
            pass
            t_9.append(
                str(context.call((undefined(name='unpack') if l_0_unpack is missing else l_0_unpack), l_1_slot, environment.getitem(l_1_w, 0))),
            )
        elif (environment.getattr(l_1_slot, 'kind') == 'record'):
            pass
            t_9.extend((
                str(environment.getattr(l_1_slot, 'from_words')),
                '(uint[',
                str(environment.getattr(l_1_slot, 'words')),
                '](',
                str(t_1(context.eval_ctx, l_1_w, ', ')),
                '))',
            ))
        elif (environment.getattr(l_1_slot, 'type') == 'float32'):
            pass
            t_9.extend((
                'uintBitsToFloat(',
                str(environment.getitem(l_1_w, 0)),
                ')',
            ))
        elif (environment.getattr(l_1_slot, 'type') == 'float64'):
            pass
            t_9.extend((
                'packDouble2x32(uvec2(',
                str(environment.getitem(l_1_w, 0)),
                ', ',
                str(environment.getitem(l_1_w, 1)),
                '))',
            ))
        elif ((environment.getattr(l_1_slot, 'words') == 2) and environment.getattr(l_1_slot, 'unsigned')):
            pass
            t_9.extend((
                'packUint2x32(uvec2(',
                str(environment.getitem(l_1_w, 0)),
                ', ',
                str(environment.getitem(l_1_w, 1)),
                '))',
            ))
        elif (environment.getattr(l_1_slot, 'words') == 2):
            pass
            t_9.extend((
                'int64_t(packUint2x32(uvec2(',
                str(environment.getitem(l_1_w, 0)),
                ', ',
                str(environment.getitem(l_1_w, 1)),
                ')))',
            ))
        elif environment.getattr(l_1_slot, 'unsigned'):
            pass
            t_9.append(
                str(environment.getitem(l_1_w, 0)),
            )
        else:
            pass
            t_9.extend((
                'int(',
                str(environment.getitem(l_1_w, 0)),
                ')',
            ))
        return concat(t_9)
    context.exported_vars.add('read')
    context.vars['read'] = l_0_read = Macro(environment, macro, 'read', ('slot', 'w'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_value):
        t_10 = []
        l_1_range = resolve('range')
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_value is missing:
            l_1_value = undefined("parameter 'value' was not provided", name='value')
        pass
        if environment.getattr(l_1_slot, 'bits'):
            pass
            t_10.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] |= ',
                str(context.call((undefined(name='pack') if l_0_pack is missing else l_0_pack), l_1_slot, l_1_value)),
                ';',
            ))
        elif ((environment.getattr(l_1_slot, 'kind') == 'record') and environment.getattr(l_1_slot, 'unrolled')):
            pass
            t_10.extend((
                '{ uint _sarek_t[',
                str(environment.getattr(l_1_slot, 'words')),
                '] = ',
                str(environment.getattr(l_1_slot, 'to_words')),
                '(',
                str(l_1_value),
                ');',
            ))
            for l_2_k in context.call((undefined(name='range') if l_1_range is missing else l_1_range), environment.getattr(l_1_slot, 'words')):
                _loop_vars = {}
                pass
                t_10.extend((
                    ' _sarek_w[',
                    str((environment.getattr(l_1_slot, 'word') + l_2_k)),
                    '] = _sarek_t[',
                    str(l_2_k),
                    '];',
                ))
            l_2_k = missing
            t_10.append(
                ' }',
            )
        elif (environment.getattr(l_1_slot, 'kind') == 'record'):
            pass
            t_10.extend((
                '{ uint _sarek_t[',
                str(environment.getattr(l_1_slot, 'words')),
                '] = ',
                str(environment.getattr(l_1_slot, 'to_words')),
                '(',
                str(l_1_value),
                '); ',
                str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(l_1_slot, 'words'), str_join(('_sarek_w[', context.call((undefined(name='at') if l_0_at is missing else l_0_at), environment.getattr(l_1_slot, 'word')), '] = _sarek_t[_sarek_k];', )))),
                ' }',
            ))
        elif (environment.getattr(l_1_slot, 'words') == 2):
            pass
            t_10.extend((
                '{ uvec2 _sarek_t = ',
                str((str_join(('unpackDouble2x32(', l_1_value, ')', )) if (environment.getattr(l_1_slot, 'type') == 'float64') else str_join(('unpackUint2x32(uint64_t(', l_1_value, '))', )))),
                '; _sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] = _sarek_t.x; _sarek_w[',
                str((environment.getattr(l_1_slot, 'word') + 1)),
                '] = _sarek_t.y; }',
            ))
        elif (environment.getattr(l_1_slot, 'type') == 'float32'):
            pass
            t_10.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] = floatBitsToUint(',
                str(l_1_value),
                ');',
            ))
        else:
            pass
            t_10.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] = uint(',
                str(l_1_value),
                ');',
            ))
        return concat(t_10)
    context.exported_vars.add('store')
    context.vars['store'] = l_0_store = Macro(environment, macro, 'store', ('slot', 'value'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_list):
        t_11 = []
        if l_1_list is missing:
            l_1_list = undefined("parameter 'list' was not provided", name='list')
        pass
        l_2_loop = missing
        for l_2_m, l_2_loop in LoopContext(l_1_list, undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'padding'):
                pass
                t_11.extend((
                    '    uint ',
                    str(environment.getattr(l_2_m, 'name')),
                    '[',
                    str(environment.getattr(l_2_m, 'words')),
                    ']; // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ', padding\n',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'data'):
                pass
                t_11.extend((
                    '    ',
                    str((environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'word2') if environment.getattr(l_2_m, 'wide') else environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'word'))),
                    ' data[',
                    str(environment.getattr(l_2_m, 'words')),
                    ']; // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ', ',
                    str(environment.getattr(l_2_m, 'size')),
                    ' payload bytes\n',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_11.extend((
                    '    uint ',
                    str(environment.getattr(l_2_m, 'name')),
                    '; // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ': ',
                ))
                l_3_loop = missing
                for l_3_p, l_3_loop in LoopContext(environment.getattr(l_2_m, 'parts'), undefined):
                    _loop_vars = {}
                    pass
                    t_11.extend((
                        str(environment.getattr(l_3_p, 'source')),
                        ' (',
                        str(environment.getattr(l_3_p, 'type')),
                        ', byte ',
                        str((environment.getattr(l_2_m, 'offset') + (environment.getattr(l_3_p, 'shift') // 8))),
                        ')',
                        str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 110 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                    ))
                l_3_loop = l_3_p = missing
                t_11.append(
                    '\n',
                )
            else:
                pass
                t_11.extend((
                    '    ',
                    str((environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), environment.getattr(l_2_m, 'type')) if (environment.getattr(l_2_m, 'kind') == 'scalar') else environment.getattr(l_2_m, 'type'))),
                    ' ',
                    str(environment.getattr(l_2_m, 'name')),
                    '; // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    str((str_join((', ', environment.getattr(l_2_m, 'type'), )) if ((environment.getattr(l_2_m, 'kind') == 'scalar') and (environment.getattr(l_2_m, 'type') in ('bool', 'unit'))) else cond_expr_undefined("the inline if-expression on line 113 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                    '\n',
                ))
        l_2_loop = l_2_m = missing
        return concat(t_11)
    context.exported_vars.add('members')
    context.vars['members'] = l_0_members = Macro(environment, macro, 'members', ('list',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_12 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_12.extend((
            '\n// Layout fingerprint of ',
            str(environment.getattr(l_1_t, 'qualified_name')),
            ': ',
            str(environment.getattr(l_1_t, 'layout_id')),
            ', as two words, low word first.\nconst uvec2 ',
            str(environment.getattr(l_1_t, 'layout_id_name')),
            ' = uvec2(',
            str(environment.getitem(environment.getattr(l_1_t, 'layout_words'), 0)),
            'u, ',
            str(environment.getitem(environment.getattr(l_1_t, 'layout_words'), 1)),
            'u);\nbool ',
            str(environment.getattr(l_1_t, 'layout_ok_name')),
            '(uvec2 _sarek_id) { return _sarek_id == ',
            str(environment.getattr(l_1_t, 'layout_id_name')),
            '; }\n',
        ))
        if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_int64'):
            pass
            t_12.extend((
                'const uint64_t ',
                str(environment.getattr(l_1_t, 'layout_id64_name')),
                ' = ',
                str(environment.getattr(l_1_t, 'layout_id')),
                'UL;\n',
            ))
        return concat(t_12)
    context.exported_vars.add('layout_id')
    context.vars['layout_id'] = l_0_layout_id = Macro(environment, macro, 'layout_id', ('t',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_13 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_13.extend((
            '// ',
            str(environment.getattr(l_1_t, 'qualified_name')),
            ': record, size ',
            str(environment.getattr(l_1_t, 'size')),
            ', align ',
            str(environment.getattr(l_1_t, 'align')),
            '\nstruct ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' {\n',
            str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_1_t, 'members'))),
            '};\n',
            str(context.call((undefined(name='layout_id') if l_0_layout_id is missing else l_0_layout_id), l_1_t)),
            '\n// ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' with every padding word zero.\n',
            str(environment.getattr(l_1_t, 'c_name')),
            ' ',
            str(environment.getattr(l_1_t, 'make_name')),
            '(',
        ))
        l_2_loop = missing
        for l_2_s, l_2_loop in LoopContext(environment.getattr(l_1_t, 'slots'), undefined):
            _loop_vars = {}
            pass
            t_13.extend((
                str((environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), environment.getattr(l_2_s, 'type')) if (environment.getattr(l_2_s, 'kind') == 'scalar') else environment.getattr(l_2_s, 'type'))),
                ' _sarek_',
                str(environment.getattr(l_2_s, 'source')),
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 136 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
            ))
        l_2_loop = l_2_s = missing
        t_13.extend((
            ')\n{\n    return ',
            str(environment.getattr(l_1_t, 'c_name')),
            '(',
        ))
        l_2_loop = missing
        for l_2_m, l_2_loop in LoopContext(environment.getattr(l_1_t, 'members'), undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'padding'):
                pass
                t_13.append(
                    str(context.call((undefined(name='zeros') if l_0_zeros is missing else l_0_zeros), environment.getattr(l_2_m, 'words'), _loop_vars=_loop_vars)),
                )
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                l_3_loop = missing
                for l_3_p, l_3_loop in LoopContext(environment.getattr(l_2_m, 'parts'), undefined):
                    _loop_vars = {}
                    pass
                    t_13.extend((
                        str(context.call((undefined(name='pack') if l_0_pack is missing else l_0_pack), l_3_p, str_join(('_sarek_', environment.getattr(l_3_p, 'source'), )), _loop_vars=_loop_vars)),
                        str((' | ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 138 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                    ))
                l_3_loop = l_3_p = missing
            else:
                pass
                t_13.extend((
                    '_sarek_',
                    str(environment.getattr(l_2_m, 'name')),
                ))
            t_13.append(
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 138 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
            )
        l_2_loop = l_2_m = missing
        t_13.append(
            ');\n}\n',
        )
        for l_2_f in environment.getattr(l_1_t, 'fields'):
            _loop_vars = {}
            pass
            t_13.extend((
                '\n// Field ',
                str(environment.getattr(l_2_f, 'name')),
                ' (',
                str(environment.getattr(l_2_f, 'type')),
                '), kept in the 32-bit word ',
                str(environment.getattr(l_2_f, 'member')),
                '.\n',
                str(environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), environment.getattr(l_2_f, 'type'))),
                ' ',
                str(environment.getattr(l_2_f, 'accessor')),
                '(',
                str(environment.getattr(l_1_t, 'c_name')),
                ' _sarek_v)\n{\n    return ',
                str(context.call((undefined(name='unpack') if l_0_unpack is missing else l_0_unpack), environment.getattr(l_2_f, 'slot'), str_join(('_sarek_v.', environment.getattr(l_2_f, 'member'), )), _loop_vars=_loop_vars)),
                ';\n}\n',
            ))
        l_2_f = missing
        t_13.extend((
            '\n// ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' from / to its ',
            str(environment.getattr(l_1_t, 'words')),
            ' 32-bit words (variant payloads keep records as words).\n',
            str(environment.getattr(l_1_t, 'c_name')),
            ' ',
            str(environment.getattr(l_1_t, 'from_words')),
            '(uint _sarek_w[',
            str(environment.getattr(l_1_t, 'words')),
            '])\n{\n',
        ))
        def t_14(fiter):
            for l_2_s in fiter:
                if (not environment.getattr(l_2_s, 'unrolled')):
                    yield l_2_s
        for l_2_s in t_14(environment.getattr(l_1_t, 'slots')):
            _loop_vars = {}
            pass
            t_13.extend((
                '    uint _sarek_t',
                str(environment.getattr(l_2_s, 'word')),
                '[',
                str(environment.getattr(l_2_s, 'words')),
                '];\n    ',
                str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(l_2_s, 'words'), str_join(('_sarek_t', environment.getattr(l_2_s, 'word'), '[_sarek_k] = _sarek_w[', context.call((undefined(name='at') if l_0_at is missing else l_0_at), environment.getattr(l_2_s, 'word'), _loop_vars=_loop_vars), '];', )), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_s = missing
        t_13.extend((
            '    return ',
            str(environment.getattr(l_1_t, 'c_name')),
            '(',
        ))
        l_2_loop = missing
        for l_2_m, l_2_loop in LoopContext(environment.getattr(l_1_t, 'members'), undefined):
            l_2_s = resolve('s')
            l_2_w = resolve('w')
            l_2_range = resolve('range')
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'padding'):
                pass
                t_13.append(
                    str(context.call((undefined(name='zeros') if l_0_zeros is missing else l_0_zeros), environment.getattr(l_2_m, 'words'), _loop_vars=_loop_vars)),
                )
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_13.extend((
                    '_sarek_w[',
                    str(environment.getattr(environment.getattr(l_2_m, 'slot'), 'word')),
                    ']',
                ))
            else:
                pass
                l_2_s = environment.getattr(l_2_m, 'slot')
                _loop_vars['s'] = l_2_s
                if environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'unrolled'):
                    pass
                    l_2_w = []
                    _loop_vars['w'] = l_2_w
                    for l_3_j in context.call((undefined(name='range') if l_2_range is missing else l_2_range), environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'words'), _loop_vars=_loop_vars):
                        l_3__ = missing
                        _loop_vars = {}
                        pass
                        l_3__ = context.call(environment.getattr((undefined(name='w') if l_2_w is missing else l_2_w), 'append'), str_join(('_sarek_w[', (environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'word') + l_3_j), ']', )), _loop_vars=_loop_vars)
                        _loop_vars['_'] = l_3__
                    l_3_j = l_3__ = missing
                    t_13.append(
                        str(context.call((undefined(name='read') if l_0_read is missing else l_0_read), (undefined(name='s') if l_2_s is missing else l_2_s), (undefined(name='w') if l_2_w is missing else l_2_w), _loop_vars=_loop_vars)),
                    )
                else:
                    pass
                    t_13.extend((
                        str(environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'from_words')),
                        '(_sarek_t',
                        str(environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'word')),
                        ')',
                    ))
            t_13.append(
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 156 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
            )
        l_2_loop = l_2_m = l_2_s = l_2_w = l_2_range = missing
        t_13.extend((
            ');\n}\n\nuint[',
            str(environment.getattr(l_1_t, 'words')),
            '] ',
            str(environment.getattr(l_1_t, 'to_words')),
            '(',
            str(environment.getattr(l_1_t, 'c_name')),
            ' _sarek_r)\n{\n    ',
            str(context.call((undefined(name='zeroed') if l_0_zeroed is missing else l_0_zeroed), '_sarek_w', environment.getattr(l_1_t, 'words'), environment.getattr(l_1_t, 'unrolled'))),
            '\n',
        ))
        def t_15(fiter):
            for l_2_m in fiter:
                if (environment.getattr(l_2_m, 'kind') != 'padding'):
                    yield l_2_m
        for l_2_m in t_15(environment.getattr(l_1_t, 'members')):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_13.extend((
                    '    _sarek_w[',
                    str(environment.getattr(environment.getattr(l_2_m, 'slot'), 'word')),
                    '] = _sarek_r.',
                    str(environment.getattr(l_2_m, 'name')),
                    ';\n',
                ))
            else:
                pass
                t_13.extend((
                    '    ',
                    str(context.call((undefined(name='store') if l_0_store is missing else l_0_store), environment.getattr(l_2_m, 'slot'), str_join(('_sarek_r.', environment.getattr(l_2_m, 'name'), )), _loop_vars=_loop_vars)),
                    '\n',
                ))
        l_2_m = missing
        t_13.append(
            '    return _sarek_w;\n}\n',
        )
        return concat(t_13)
    context.exported_vars.add('record')
    context.vars['record'] = l_0_record = Macro(environment, macro, 'record', ('t',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_16 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_16.extend((
            '// ',
            str(environment.getattr(l_1_t, 'qualified_name')),
            ': variant, size ',
            str(environment.getattr(l_1_t, 'size')),
            ', align ',
            str(environment.getattr(l_1_t, 'align')),
            ', payload at offset ',
            str(environment.getattr(l_1_t, 'payload_offset')),
            '\n',
        ))
        for l_2_c in environment.getattr(l_1_t, 'ctors'):
            _loop_vars = {}
            pass
            t_16.extend((
                'const int ',
                str(environment.getattr(l_2_c, 'const_name')),
                ' = ',
                str(environment.getattr(l_2_c, 'tag')),
                ';\n',
            ))
        l_2_c = missing
        t_16.extend((
            'struct ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' {\n',
            str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_1_t, 'members'))),
        ))
        if environment.getattr(l_1_t, 'data'):
            pass
            t_16.append(
                str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), [environment.getattr(l_1_t, 'data')])),
            )
        t_16.extend((
            '};\n',
            str(context.call((undefined(name='layout_id') if l_0_layout_id is missing else l_0_layout_id), l_1_t)),
        ))
        def t_17(fiter):
            for l_2_c in fiter:
                if environment.getattr(l_2_c, 'arm_struct'):
                    yield l_2_c
        for l_2_c in t_17(environment.getattr(l_1_t, 'ctors')):
            _loop_vars = {}
            pass
            t_16.extend((
                '\n// ',
                str(environment.getattr(l_1_t, 'c_name')),
                ' typed as constructor ',
                str(environment.getattr(l_2_c, 'name')),
                ' (tag ',
                str(environment.getattr(l_2_c, 'tag')),
                '): for a buffer declared a second time on the same binding.\nstruct ',
                str(environment.getattr(l_2_c, 'arm_struct')),
                ' {\n',
                str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_2_c, 'arm_members'), _loop_vars=_loop_vars)),
                '};\n',
            ))
        l_2_c = missing
        l_2_loop = missing
        for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
            _loop_vars = {}
            pass
            l_3_loop = missing
            for l_3_a, l_3_loop in LoopContext(environment.getattr(l_2_c, 'args'), undefined):
                _loop_vars = {}
                pass
                t_16.extend((
                    '\n// Argument ',
                    str(environment.getattr(l_3_loop, 'index0')),
                    ' of ',
                    str(environment.getattr(l_2_c, 'name')),
                    '; read it only when tag == ',
                    str(environment.getattr(l_2_c, 'const_name')),
                    '.\n',
                    str((environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), environment.getattr(l_3_a, 'type')) if (environment.getattr(l_3_a, 'kind') == 'scalar') else environment.getattr(l_3_a, 'type'))),
                    ' ',
                    str(environment.getattr(l_3_a, 'accessor')),
                    '(',
                    str(environment.getattr(l_1_t, 'c_name')),
                    ' _sarek_v)\n{\n',
                ))
                if environment.getattr(environment.getattr(l_3_a, 'slot'), 'unrolled'):
                    pass
                    t_16.extend((
                        '    return ',
                        str(context.call((undefined(name='read') if l_0_read is missing else l_0_read), environment.getattr(l_3_a, 'slot'), environment.getattr(l_3_a, 'reads'), _loop_vars=_loop_vars)),
                        ';\n',
                    ))
                else:
                    pass
                    t_16.extend((
                        '    uint _sarek_t[',
                        str(environment.getattr(environment.getattr(l_3_a, 'slot'), 'words')),
                        '];\n    ',
                        str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(environment.getattr(l_3_a, 'slot'), 'words'), str_join(('_sarek_t[_sarek_k] = ', context.call((undefined(name='payload_word') if l_0_payload_word is missing else l_0_payload_word), environment.getattr(l_1_t, 'data'), environment.getattr(environment.getattr(l_3_a, 'slot'), 'word'), _loop_vars=_loop_vars), ';', )), _loop_vars=_loop_vars)),
                        '\n    return ',
                        str(environment.getattr(environment.getattr(l_3_a, 'slot'), 'from_words')),
                        '(_sarek_t);\n',
                    ))
                t_16.append(
                    '}\n',
                )
            l_3_loop = l_3_a = missing
        l_2_loop = l_2_c = missing
        l_2_loop = missing
        for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
            l_2_range = resolve('range')
            _loop_vars = {}
            pass
            t_16.extend((
                '\n',
                str(environment.getattr(l_1_t, 'c_name')),
                ' ',
                str(environment.getattr(l_2_c, 'make_name')),
                '(',
            ))
            l_3_loop = missing
            for l_3_a, l_3_loop in LoopContext(environment.getattr(l_2_c, 'args'), undefined):
                _loop_vars = {}
                pass
                t_16.extend((
                    str((environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), environment.getattr(l_3_a, 'type')) if (environment.getattr(l_3_a, 'kind') == 'scalar') else environment.getattr(l_3_a, 'type'))),
                    ' ',
                    str(environment.getattr(l_3_a, 'name')),
                    str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 209 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                ))
            l_3_loop = l_3_a = missing
            t_16.append(
                ')\n{\n',
            )
            if environment.getattr(l_1_t, 'data'):
                pass
                t_16.extend((
                    '    ',
                    str(context.call((undefined(name='zeroed') if l_0_zeroed is missing else l_0_zeroed), '_sarek_w', environment.getattr(l_1_t, 'payload_words'), environment.getattr(l_1_t, 'unrolled'), _loop_vars=_loop_vars)),
                    '\n',
                ))
                for l_3_a in environment.getattr(l_2_c, 'args'):
                    _loop_vars = {}
                    pass
                    t_16.extend((
                        '    ',
                        str(context.call((undefined(name='store') if l_0_store is missing else l_0_store), environment.getattr(l_3_a, 'slot'), environment.getattr(l_3_a, 'name'), _loop_vars=_loop_vars)),
                        '\n',
                    ))
                l_3_a = missing
                if (environment.getattr(environment.getattr(l_1_t, 'data'), 'wide') and (not environment.getattr(l_1_t, 'unrolled'))):
                    pass
                    t_16.extend((
                        '    uvec2 _sarek_d[',
                        str(environment.getattr(environment.getattr(l_1_t, 'data'), 'words')),
                        '];\n    ',
                        str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(environment.getattr(l_1_t, 'data'), 'words'), '_sarek_d[_sarek_k] = uvec2(_sarek_w[2u * _sarek_k], _sarek_w[2u * _sarek_k + 1u]);', _loop_vars=_loop_vars)),
                        '\n',
                    ))
            t_16.extend((
                '    return ',
                str(environment.getattr(l_1_t, 'c_name')),
                '(',
            ))
            l_3_loop = missing
            for l_3_m, l_3_loop in LoopContext(environment.getattr(l_1_t, 'members'), undefined):
                _loop_vars = {}
                pass
                t_16.extend((
                    str((environment.getattr(l_2_c, 'const_name') if (environment.getattr(l_3_m, 'name') == 'tag') else context.call((undefined(name='zeros') if l_0_zeros is missing else l_0_zeros), environment.getattr(l_3_m, 'words'), _loop_vars=_loop_vars))),
                    str((', ' if ((not environment.getattr(l_3_loop, 'last')) or environment.getattr(l_1_t, 'data')) else cond_expr_undefined("the inline if-expression on line 221 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                ))
            l_3_loop = l_3_m = missing
            if environment.getattr(l_1_t, 'data'):
                pass
                if (not environment.getattr(environment.getattr(l_1_t, 'data'), 'wide')):
                    pass
                    t_16.append(
                        '_sarek_w',
                    )
                elif environment.getattr(l_1_t, 'unrolled'):
                    pass
                    t_16.extend((
                        'uvec2[',
                        str(environment.getattr(environment.getattr(l_1_t, 'data'), 'words')),
                        '](',
                    ))
                    l_3_loop = missing
                    for l_3_i, l_3_loop in LoopContext(context.call((undefined(name='range') if l_2_range is missing else l_2_range), environment.getattr(environment.getattr(l_1_t, 'data'), 'words'), _loop_vars=_loop_vars), undefined):
                        _loop_vars = {}
                        pass
                        t_16.extend((
                            'uvec2(_sarek_w[',
                            str((2 * l_3_i)),
                            '], _sarek_w[',
                            str(((2 * l_3_i) + 1)),
                            '])',
                            str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 223 in 'glsl.glsl.j2' evaluated to false and no else section was defined."))),
                        ))
                    l_3_loop = l_3_i = missing
                    t_16.append(
                        ')',
                    )
                else:
                    pass
                    t_16.append(
                        '_sarek_d',
                    )
            t_16.append(
                ');\n}\n',
            )
        l_2_loop = l_2_c = l_2_range = missing
        return concat(t_16)
    context.exported_vars.add('variant')
    context.vars['variant'] = l_0_variant = Macro(environment, macro, 'variant', ('t',), False, False, False, context.eval_ctx.autoescape)
    yield '// '
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield ': @generated by '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield ' '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'version'))
    yield ' from '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'source'))
    yield ' ('
    yield str((str_join(('module ', environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module'), )) if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module') else 'no module prefix'))
    yield ').\n// Do not edit: change the schema and run `'
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield " generate -t glsl`.\n//\n// Target glsl: GLSL 4.50 for Vulkan. Each struct can be the element of a `layout(std430)`\n// buffer array with the C header's size, member offsets, alignment and array stride:\n// padding is explicit (_sarek_pad<N> words), bool and unit are int, and a variant keeps its\n// payload as 32-bit words (data[]): read an argument with <T>_<Ctor>_v(v) (one argument) or\n// <T>_<Ctor>_<i>(v) (several), build a value with make_<T>_<Ctor>(...); <T>_<Ctor>_arm is\n// the element typed as one constructor. Include it with GL_GOOGLE_include_directive, or\n// paste it, after #version 450.\n"
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_small'):
        pass
        yield "// uint8 and float16 members (and int8, int16, uint16) share 32-bit words (_sarek_bytes<N>,\n// with any padding bytes beside them): read a record's with <T>_<field>(v), build it with\n// make_<T>(...); uint8 and uint16 are a uint, int8 and int16 an int (sign-extended), float16\n// a float (packHalf2x16 / unpackHalf2x16) in the functions.\n"
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_int64'):
        pass
        yield '// int64 and uint64 members: need GL_EXT_shader_explicit_arithmetic_types_int64 (enabled\n// below) and the device feature shaderInt64.\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float64'):
        pass
        yield '// float64 members: double is core GLSL; the device needs the feature shaderFloat64.\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'has_loops'):
        pass
        yield '// Types over '
        yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'unroll_bytes'))
        yield ' bytes are copied with [[unroll]] loops: needs\n// GL_EXT_control_flow_attributes (enabled below; glslang has it).\n'
    yield '#ifndef '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n#define '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_int64'):
        pass
        yield '#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'has_loops'):
        pass
        yield '#extension GL_EXT_control_flow_attributes : require\n'
    for l_1_inc in (undefined(name='includes') if l_0_includes is missing else l_0_includes):
        _loop_vars = {}
        pass
        yield '#include "'
        yield str(l_1_inc)
        yield '"\n'
    l_1_inc = missing
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str((context.call((undefined(name='record') if l_0_record is missing else l_0_record), l_1_t, _loop_vars=_loop_vars) if (environment.getattr(l_1_t, 'kind') == 'record') else context.call((undefined(name='variant') if l_0_variant is missing else l_0_variant), l_1_t, _loop_vars=_loop_vars)))
    l_1_t = missing
    yield '\n#endif // '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n'

blocks = {}
debug_info = '8=23&14=26&17=33&21=41&22=49&23=50&24=51&25=55&26=58&27=62&29=73&32=81&33=89&34=90&35=92&38=97&39=103&44=108&45=117&48=124&49=133&50=137&52=148&53=152&58=157&59=165&60=167&61=170&63=179&68=185&69=192&70=195&71=197&72=200&73=207&74=211&75=214&76=218&77=223&78=227&79=232&80=236&81=241&82=244&84=250&88=256&89=264&90=268&91=273&92=277&93=298&94=302&95=311&96=315&97=322&98=326&100=335&103=343&104=349&105=352&106=356&107=363&108=367&109=376&110=380&113=406&120=418&122=425&123=429&124=435&125=440&126=444&129=452&130=459&131=465&132=467&134=469&135=471&136=473&138=491&140=527&142=532&143=538&145=544&149=550&150=554&152=561&153=570&154=574&156=580&159=634&161=640&162=643&163=650&164=654&166=663&172=673&173=680&174=689&175=694&177=702&178=704&179=706&180=709&183=713&184=715&186=724&187=730&188=732&191=737&192=741&194=746&195=752&197=759&198=763&200=770&201=772&202=774&207=783&209=789&211=808&212=812&213=815&214=820&216=824&217=828&218=830&221=835&222=847&223=849&228=890&229=900&238=902&244=905&248=908&251=911&252=914&255=917&256=919&257=921&260=924&263=927&264=931&266=934&268=938&271=941'

SOURCE_SHA256 = '9da4e1b65942b16768df755cf17a090a2ebc158c4e6cb7241ad8368d78f68c60'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/glsl.glsl.j2: do not edit.
