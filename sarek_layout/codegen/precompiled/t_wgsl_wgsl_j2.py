from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'wgsl.wgsl.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_dialect = resolve('dialect')
    l_0_filename = resolve('filename')
    l_0_view = resolve('view')
    l_0_scalar = l_0_spell = l_0_unpack = l_0_pack = l_0_at = l_0_each_word = l_0_payload_word = l_0_read = l_0_store = l_0_members = l_0_layout_id = l_0_record = l_0_variant = missing
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
    def macro(l_1_kind, l_1_type):
        t_2 = []
        if l_1_kind is missing:
            l_1_kind = undefined("parameter 'kind' was not provided", name='kind')
        if l_1_type is missing:
            l_1_type = undefined("parameter 'type' was not provided", name='type')
        pass
        t_2.append(
            str((environment.getitem((undefined(name='scalar') if l_0_scalar is missing else l_0_scalar), l_1_type) if (l_1_kind == 'scalar') else l_1_type)),
        )
        return concat(t_2)
    context.exported_vars.add('spell')
    context.vars['spell'] = l_0_spell = Macro(environment, macro, 'spell', ('kind', 'type'), False, False, False, context.eval_ctx.autoescape)
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
                'unpack2x16float(',
                str((undefined(name='bits') if l_1_bits is missing else l_1_bits)),
                ' & 0xFFFFu).x',
            ))
        elif environment.getattr(l_1_slot, 'signed'):
            pass
            t_3.extend((
                'extractBits(bitcast<i32>(',
                str(l_1_word),
                '), ',
                str(environment.getattr(l_1_slot, 'shift')),
                'u, ',
                str(environment.getattr(l_1_slot, 'bits')),
                'u)',
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
        l_1_bits = (str_join(('(pack2x16float(vec2<f32>(', l_1_v, ', 0.0)) & 0xFFFFu)', )) if (environment.getattr(l_1_slot, 'type') == 'float16') else (str_join(('(bitcast<u32>(', l_1_v, ') & ', (undefined(name='mask') if l_1_mask is missing else l_1_mask), ')', )) if environment.getattr(l_1_slot, 'signed') else str_join(('(', l_1_v, ' & ', (undefined(name='mask') if l_1_mask is missing else l_1_mask), ')', ))))
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
            'for (var _sarek_k = 0u; _sarek_k < ',
            str(l_1_n),
            'u; _sarek_k++) { ',
            str(l_1_statement),
            ' }',
        ))
        return concat(t_6)
    context.exported_vars.add('each_word')
    context.vars['each_word'] = l_0_each_word = Macro(environment, macro, 'each_word', ('n', 'statement'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_data, l_1_base):
        t_7 = []
        l_1_i = resolve('i')
        if l_1_data is missing:
            l_1_data = undefined("parameter 'data' was not provided", name='data')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        pass
        if environment.getattr(l_1_data, 'wide'):
            pass
            l_1_i = ('_sarek_k' if (l_1_base == 0) else str_join(('(', context.call((undefined(name='at') if l_0_at is missing else l_0_at), l_1_base), ')', )))
            t_7.extend((
                '_sarek_v.data[',
                str((undefined(name='i') if l_1_i is missing else l_1_i)),
                ' >> 1u][',
                str((undefined(name='i') if l_1_i is missing else l_1_i)),
                ' & 1u]',
            ))
        else:
            pass
            t_7.extend((
                '_sarek_v.data[',
                str(context.call((undefined(name='at') if l_0_at is missing else l_0_at), l_1_base)),
                ']',
            ))
        return concat(t_7)
    context.exported_vars.add('payload_word')
    context.vars['payload_word'] = l_0_payload_word = Macro(environment, macro, 'payload_word', ('data', 'base'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_w):
        t_8 = []
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_w is missing:
            l_1_w = undefined("parameter 'w' was not provided", name='w')
        pass
        if environment.getattr(l_1_slot, 'bits'):
            pass
            t_8.append(
                str(context.call((undefined(name='unpack') if l_0_unpack is missing else l_0_unpack), l_1_slot, environment.getitem(l_1_w, 0))),
            )
        elif (environment.getattr(l_1_slot, 'kind') == 'record'):
            pass
            t_8.extend((
                str(environment.getattr(l_1_slot, 'from_words')),
                '(array<u32, ',
                str(environment.getattr(l_1_slot, 'words')),
                '>(',
                str(t_1(context.eval_ctx, l_1_w, ', ')),
                '))',
            ))
        elif (environment.getattr(l_1_slot, 'type') in environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'raw64')):
            pass
            t_8.extend((
                'vec2<u32>(',
                str(environment.getitem(l_1_w, 0)),
                ', ',
                str(environment.getitem(l_1_w, 1)),
                ')',
            ))
        elif (environment.getattr(l_1_slot, 'type') == 'float32'):
            pass
            t_8.extend((
                'bitcast<f32>(',
                str(environment.getitem(l_1_w, 0)),
                ')',
            ))
        elif environment.getattr(l_1_slot, 'unsigned'):
            pass
            t_8.append(
                str(environment.getitem(l_1_w, 0)),
            )
        else:
            pass
            t_8.extend((
                'bitcast<i32>(',
                str(environment.getitem(l_1_w, 0)),
                ')',
            ))
        return concat(t_8)
    context.exported_vars.add('read')
    context.vars['read'] = l_0_read = Macro(environment, macro, 'read', ('slot', 'w'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_slot, l_1_value):
        t_9 = []
        l_1_range = resolve('range')
        if l_1_slot is missing:
            l_1_slot = undefined("parameter 'slot' was not provided", name='slot')
        if l_1_value is missing:
            l_1_value = undefined("parameter 'value' was not provided", name='value')
        pass
        if environment.getattr(l_1_slot, 'bits'):
            pass
            t_9.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] |= ',
                str(context.call((undefined(name='pack') if l_0_pack is missing else l_0_pack), l_1_slot, l_1_value)),
                ';',
            ))
        elif ((environment.getattr(l_1_slot, 'kind') == 'record') and environment.getattr(l_1_slot, 'unrolled')):
            pass
            t_9.extend((
                '{ let _sarek_t = ',
                str(environment.getattr(l_1_slot, 'to_words')),
                '(',
                str(l_1_value),
                ');',
            ))
            for l_2_k in context.call((undefined(name='range') if l_1_range is missing else l_1_range), environment.getattr(l_1_slot, 'words')):
                _loop_vars = {}
                pass
                t_9.extend((
                    ' _sarek_w[',
                    str((environment.getattr(l_1_slot, 'word') + l_2_k)),
                    '] = _sarek_t[',
                    str(l_2_k),
                    '];',
                ))
            l_2_k = missing
            t_9.append(
                ' }',
            )
        elif (environment.getattr(l_1_slot, 'kind') == 'record'):
            pass
            t_9.extend((
                '{ let _sarek_t = ',
                str(environment.getattr(l_1_slot, 'to_words')),
                '(',
                str(l_1_value),
                '); ',
                str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(l_1_slot, 'words'), str_join(('_sarek_w[', context.call((undefined(name='at') if l_0_at is missing else l_0_at), environment.getattr(l_1_slot, 'word')), '] = _sarek_t[_sarek_k];', )))),
                ' }',
            ))
        elif (environment.getattr(l_1_slot, 'type') in environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'raw64')):
            pass
            t_9.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] = ',
                str(l_1_value),
                '.x; _sarek_w[',
                str((environment.getattr(l_1_slot, 'word') + 1)),
                '] = ',
                str(l_1_value),
                '.y;',
            ))
        else:
            pass
            t_9.extend((
                '_sarek_w[',
                str(environment.getattr(l_1_slot, 'word')),
                '] = bitcast<u32>(',
                str(l_1_value),
                ');',
            ))
        return concat(t_9)
    context.exported_vars.add('store')
    context.vars['store'] = l_0_store = Macro(environment, macro, 'store', ('slot', 'value'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_list):
        t_10 = []
        if l_1_list is missing:
            l_1_list = undefined("parameter 'list' was not provided", name='list')
        pass
        l_2_loop = missing
        for l_2_m, l_2_loop in LoopContext(l_1_list, undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'padding'):
                pass
                t_10.extend((
                    '    ',
                    str(environment.getattr(l_2_m, 'name')),
                    ': array<u32, ',
                    str(environment.getattr(l_2_m, 'words')),
                    '>, // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ', padding\n',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'data'):
                pass
                t_10.extend((
                    '    data: array<',
                    str((environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'word2') if environment.getattr(l_2_m, 'wide') else environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'word'))),
                    ', ',
                    str(environment.getattr(l_2_m, 'words')),
                    '>, // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ', ',
                    str(environment.getattr(l_2_m, 'size')),
                    ' payload bytes\n',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_10.extend((
                    '    ',
                    str(environment.getattr(l_2_m, 'name')),
                    ': u32, // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    ': ',
                ))
                l_3_loop = missing
                for l_3_p, l_3_loop in LoopContext(environment.getattr(l_2_m, 'parts'), undefined):
                    _loop_vars = {}
                    pass
                    t_10.extend((
                        str(environment.getattr(l_3_p, 'source')),
                        ' (',
                        str(environment.getattr(l_3_p, 'type')),
                        ', byte ',
                        str((environment.getattr(l_2_m, 'offset') + (environment.getattr(l_3_p, 'shift') // 8))),
                        ')',
                        str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 89 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                    ))
                l_3_loop = l_3_p = missing
                t_10.append(
                    '\n',
                )
            else:
                pass
                t_10.extend((
                    '    ',
                    str(environment.getattr(l_2_m, 'name')),
                    ': ',
                    str(context.call((undefined(name='spell') if l_0_spell is missing else l_0_spell), environment.getattr(l_2_m, 'kind'), environment.getattr(l_2_m, 'type'), _loop_vars=_loop_vars)),
                    ', // offset ',
                    str(environment.getattr(l_2_m, 'offset')),
                    str((str_join((', ', environment.getattr(l_2_m, 'type'), )) if ((environment.getattr(l_2_m, 'kind') == 'scalar') and ((environment.getattr(l_2_m, 'type') in ('bool', 'unit')) or (environment.getattr(l_2_m, 'type') in environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'raw64')))) else cond_expr_undefined("the inline if-expression on line 92 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                    '\n',
                ))
        l_2_loop = l_2_m = missing
        return concat(t_10)
    context.exported_vars.add('members')
    context.vars['members'] = l_0_members = Macro(environment, macro, 'members', ('list',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_11 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_11.extend((
            '\n// Layout fingerprint of ',
            str(environment.getattr(l_1_t, 'qualified_name')),
            ': ',
            str(environment.getattr(l_1_t, 'layout_id')),
            ', as two words, low word first.\nconst ',
            str(environment.getattr(l_1_t, 'layout_id_name')),
            ': vec2<u32> = vec2<u32>(',
            str(environment.getitem(environment.getattr(l_1_t, 'layout_words'), 0)),
            'u, ',
            str(environment.getitem(environment.getattr(l_1_t, 'layout_words'), 1)),
            'u);\nfn ',
            str(environment.getattr(l_1_t, 'layout_ok_name')),
            '(_sarek_id: vec2<u32>) -> bool { return all(_sarek_id == ',
            str(environment.getattr(l_1_t, 'layout_id_name')),
            '); }\n',
        ))
        return concat(t_11)
    context.exported_vars.add('layout_id')
    context.vars['layout_id'] = l_0_layout_id = Macro(environment, macro, 'layout_id', ('t',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_12 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_12.extend((
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
            '}\n',
            str(context.call((undefined(name='layout_id') if l_0_layout_id is missing else l_0_layout_id), l_1_t)),
            '\n// ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' with every padding word zero.\nfn ',
            str(environment.getattr(l_1_t, 'make_name')),
            '(',
        ))
        l_2_loop = missing
        for l_2_s, l_2_loop in LoopContext(environment.getattr(l_1_t, 'slots'), undefined):
            _loop_vars = {}
            pass
            t_12.extend((
                '_sarek_',
                str(environment.getattr(l_2_s, 'source')),
                ': ',
                str(context.call((undefined(name='spell') if l_0_spell is missing else l_0_spell), environment.getattr(l_2_s, 'kind'), environment.getattr(l_2_s, 'type'), _loop_vars=_loop_vars)),
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 111 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
            ))
        l_2_loop = l_2_s = missing
        t_12.extend((
            ') -> ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' {\n    return ',
            str(environment.getattr(l_1_t, 'c_name')),
            '(',
        ))
        l_2_loop = missing
        for l_2_m, l_2_loop in LoopContext(environment.getattr(l_1_t, 'members'), undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'padding'):
                pass
                t_12.extend((
                    'array<u32, ',
                    str(environment.getattr(l_2_m, 'words')),
                    '>()',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                l_3_loop = missing
                for l_3_p, l_3_loop in LoopContext(environment.getattr(l_2_m, 'parts'), undefined):
                    _loop_vars = {}
                    pass
                    t_12.extend((
                        str(context.call((undefined(name='pack') if l_0_pack is missing else l_0_pack), l_3_p, str_join(('_sarek_', environment.getattr(l_3_p, 'source'), )), _loop_vars=_loop_vars)),
                        str((' | ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 112 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                    ))
                l_3_loop = l_3_p = missing
            else:
                pass
                t_12.extend((
                    '_sarek_',
                    str(environment.getattr(l_2_m, 'name')),
                ))
            t_12.append(
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 112 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
            )
        l_2_loop = l_2_m = missing
        t_12.append(
            ');\n}\n',
        )
        for l_2_f in environment.getattr(l_1_t, 'fields'):
            _loop_vars = {}
            pass
            t_12.extend((
                '\n// Field ',
                str(environment.getattr(l_2_f, 'name')),
                ' (',
                str(environment.getattr(l_2_f, 'type')),
                '), kept in the 32-bit word ',
                str(environment.getattr(l_2_f, 'member')),
                '.\nfn ',
                str(environment.getattr(l_2_f, 'accessor')),
                '(_sarek_v: ',
                str(environment.getattr(l_1_t, 'c_name')),
                ') -> ',
                str(context.call((undefined(name='spell') if l_0_spell is missing else l_0_spell), 'scalar', environment.getattr(l_2_f, 'type'), _loop_vars=_loop_vars)),
                ' {\n    return ',
                str(context.call((undefined(name='unpack') if l_0_unpack is missing else l_0_unpack), environment.getattr(l_2_f, 'slot'), str_join(('_sarek_v.', environment.getattr(l_2_f, 'member'), )), _loop_vars=_loop_vars)),
                ';\n}\n',
            ))
        l_2_f = missing
        t_12.extend((
            '\n// ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' from / to its ',
            str(environment.getattr(l_1_t, 'words')),
            ' 32-bit words (variant payloads keep records as words).\nfn ',
            str(environment.getattr(l_1_t, 'from_words')),
            '(_sarek_w: array<u32, ',
            str(environment.getattr(l_1_t, 'words')),
            '>) -> ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' {\n',
        ))
        def t_13(fiter):
            for l_2_s in fiter:
                if (not environment.getattr(l_2_s, 'unrolled')):
                    yield l_2_s
        for l_2_s in t_13(environment.getattr(l_1_t, 'slots')):
            _loop_vars = {}
            pass
            t_12.extend((
                '    var _sarek_t',
                str(environment.getattr(l_2_s, 'word')),
                ': array<u32, ',
                str(environment.getattr(l_2_s, 'words')),
                '>;\n    ',
                str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(l_2_s, 'words'), str_join(('_sarek_t', environment.getattr(l_2_s, 'word'), '[_sarek_k] = _sarek_w[', context.call((undefined(name='at') if l_0_at is missing else l_0_at), environment.getattr(l_2_s, 'word'), _loop_vars=_loop_vars), '];', )), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_s = missing
        t_12.extend((
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
                t_12.extend((
                    'array<u32, ',
                    str(environment.getattr(l_2_m, 'words')),
                    '>()',
                ))
            elif (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_12.extend((
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
                    t_12.append(
                        str(context.call((undefined(name='read') if l_0_read is missing else l_0_read), (undefined(name='s') if l_2_s is missing else l_2_s), (undefined(name='w') if l_2_w is missing else l_2_w), _loop_vars=_loop_vars)),
                    )
                else:
                    pass
                    t_12.extend((
                        str(environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'from_words')),
                        '(_sarek_t',
                        str(environment.getattr((undefined(name='s') if l_2_s is missing else l_2_s), 'word')),
                        ')',
                    ))
            t_12.append(
                str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 128 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
            )
        l_2_loop = l_2_m = l_2_s = l_2_w = l_2_range = missing
        t_12.extend((
            ');\n}\n\nfn ',
            str(environment.getattr(l_1_t, 'to_words')),
            '(_sarek_r: ',
            str(environment.getattr(l_1_t, 'c_name')),
            ') -> array<u32, ',
            str(environment.getattr(l_1_t, 'words')),
            '> {\n    var _sarek_w: array<u32, ',
            str(environment.getattr(l_1_t, 'words')),
            '>;\n',
        ))
        def t_14(fiter):
            for l_2_m in fiter:
                if (environment.getattr(l_2_m, 'kind') != 'padding'):
                    yield l_2_m
        for l_2_m in t_14(environment.getattr(l_1_t, 'members')):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_m, 'kind') == 'packed'):
                pass
                t_12.extend((
                    '    _sarek_w[',
                    str(environment.getattr(environment.getattr(l_2_m, 'slot'), 'word')),
                    '] = _sarek_r.',
                    str(environment.getattr(l_2_m, 'name')),
                    ';\n',
                ))
            else:
                pass
                t_12.extend((
                    '    ',
                    str(context.call((undefined(name='store') if l_0_store is missing else l_0_store), environment.getattr(l_2_m, 'slot'), str_join(('_sarek_r.', environment.getattr(l_2_m, 'name'), )), _loop_vars=_loop_vars)),
                    '\n',
                ))
        l_2_m = missing
        t_12.append(
            '    return _sarek_w;\n}\n',
        )
        return concat(t_12)
    context.exported_vars.add('record')
    context.vars['record'] = l_0_record = Macro(environment, macro, 'record', ('t',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t):
        t_15 = []
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        pass
        t_15.extend((
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
            t_15.extend((
                'const ',
                str(environment.getattr(l_2_c, 'const_name')),
                ': i32 = ',
                str(environment.getattr(l_2_c, 'tag')),
                ';\n',
            ))
        l_2_c = missing
        t_15.extend((
            'struct ',
            str(environment.getattr(l_1_t, 'c_name')),
            ' {\n',
            str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_1_t, 'members'))),
        ))
        if environment.getattr(l_1_t, 'data'):
            pass
            t_15.append(
                str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), [environment.getattr(l_1_t, 'data')])),
            )
        t_15.extend((
            '}\n',
            str(context.call((undefined(name='layout_id') if l_0_layout_id is missing else l_0_layout_id), l_1_t)),
        ))
        l_2_loop = missing
        for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
            _loop_vars = {}
            pass
            l_3_loop = missing
            for l_3_a, l_3_loop in LoopContext(environment.getattr(l_2_c, 'args'), undefined):
                _loop_vars = {}
                pass
                t_15.extend((
                    '\n// Argument ',
                    str(environment.getattr(l_3_loop, 'index0')),
                    ' of ',
                    str(environment.getattr(l_2_c, 'name')),
                    '; read it only when tag == ',
                    str(environment.getattr(l_2_c, 'const_name')),
                    '.\nfn ',
                    str(environment.getattr(l_3_a, 'accessor')),
                    '(_sarek_v: ',
                    str(environment.getattr(l_1_t, 'c_name')),
                    ') -> ',
                    str(context.call((undefined(name='spell') if l_0_spell is missing else l_0_spell), environment.getattr(l_3_a, 'kind'), environment.getattr(l_3_a, 'type'), _loop_vars=_loop_vars)),
                    ' {\n',
                ))
                if environment.getattr(environment.getattr(l_3_a, 'slot'), 'unrolled'):
                    pass
                    t_15.extend((
                        '    return ',
                        str(context.call((undefined(name='read') if l_0_read is missing else l_0_read), environment.getattr(l_3_a, 'slot'), environment.getattr(l_3_a, 'reads'), _loop_vars=_loop_vars)),
                        ';\n',
                    ))
                else:
                    pass
                    t_15.extend((
                        '    var _sarek_t: array<u32, ',
                        str(environment.getattr(environment.getattr(l_3_a, 'slot'), 'words')),
                        '>;\n    ',
                        str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(environment.getattr(l_3_a, 'slot'), 'words'), str_join(('_sarek_t[_sarek_k] = ', context.call((undefined(name='payload_word') if l_0_payload_word is missing else l_0_payload_word), environment.getattr(l_1_t, 'data'), environment.getattr(environment.getattr(l_3_a, 'slot'), 'word'), _loop_vars=_loop_vars), ';', )), _loop_vars=_loop_vars)),
                        '\n    return ',
                        str(environment.getattr(environment.getattr(l_3_a, 'slot'), 'from_words')),
                        '(_sarek_t);\n',
                    ))
                t_15.append(
                    '}\n',
                )
            l_3_loop = l_3_a = missing
        l_2_loop = l_2_c = missing
        l_2_loop = missing
        for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
            l_2_range = resolve('range')
            _loop_vars = {}
            pass
            t_15.extend((
                '\nfn ',
                str(environment.getattr(l_2_c, 'make_name')),
                '(',
            ))
            l_3_loop = missing
            for l_3_a, l_3_loop in LoopContext(environment.getattr(l_2_c, 'args'), undefined):
                _loop_vars = {}
                pass
                t_15.extend((
                    str(environment.getattr(l_3_a, 'name')),
                    ': ',
                    str(context.call((undefined(name='spell') if l_0_spell is missing else l_0_spell), environment.getattr(l_3_a, 'kind'), environment.getattr(l_3_a, 'type'), _loop_vars=_loop_vars)),
                    str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 172 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                ))
            l_3_loop = l_3_a = missing
            t_15.extend((
                ') -> ',
                str(environment.getattr(l_1_t, 'c_name')),
                ' {\n',
            ))
            if environment.getattr(l_1_t, 'data'):
                pass
                t_15.extend((
                    '    var _sarek_w: array<u32, ',
                    str(environment.getattr(l_1_t, 'payload_words')),
                    '>;\n',
                ))
                for l_3_a in environment.getattr(l_2_c, 'args'):
                    _loop_vars = {}
                    pass
                    t_15.extend((
                        '    ',
                        str(context.call((undefined(name='store') if l_0_store is missing else l_0_store), environment.getattr(l_3_a, 'slot'), environment.getattr(l_3_a, 'name'), _loop_vars=_loop_vars)),
                        '\n',
                    ))
                l_3_a = missing
                if (environment.getattr(environment.getattr(l_1_t, 'data'), 'wide') and (not environment.getattr(l_1_t, 'unrolled'))):
                    pass
                    t_15.extend((
                        '    var _sarek_d: array<vec2<u32>, ',
                        str(environment.getattr(environment.getattr(l_1_t, 'data'), 'words')),
                        '>;\n    ',
                        str(context.call((undefined(name='each_word') if l_0_each_word is missing else l_0_each_word), environment.getattr(environment.getattr(l_1_t, 'data'), 'words'), '_sarek_d[_sarek_k] = vec2<u32>(_sarek_w[2u * _sarek_k], _sarek_w[2u * _sarek_k + 1u]);', _loop_vars=_loop_vars)),
                        '\n',
                    ))
            t_15.extend((
                '    return ',
                str(environment.getattr(l_1_t, 'c_name')),
                '(',
            ))
            l_3_loop = missing
            for l_3_m, l_3_loop in LoopContext(environment.getattr(l_1_t, 'members'), undefined):
                _loop_vars = {}
                pass
                t_15.extend((
                    str((environment.getattr(l_2_c, 'const_name') if (environment.getattr(l_3_m, 'name') == 'tag') else str_join(('array<u32, ', environment.getattr(l_3_m, 'words'), '>()', )))),
                    str((', ' if ((not environment.getattr(l_3_loop, 'last')) or environment.getattr(l_1_t, 'data')) else cond_expr_undefined("the inline if-expression on line 183 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                ))
            l_3_loop = l_3_m = missing
            if environment.getattr(l_1_t, 'data'):
                pass
                if (not environment.getattr(environment.getattr(l_1_t, 'data'), 'wide')):
                    pass
                    t_15.append(
                        '_sarek_w',
                    )
                elif environment.getattr(l_1_t, 'unrolled'):
                    pass
                    t_15.extend((
                        'array<vec2<u32>, ',
                        str(environment.getattr(environment.getattr(l_1_t, 'data'), 'words')),
                        '>(',
                    ))
                    l_3_loop = missing
                    for l_3_i, l_3_loop in LoopContext(context.call((undefined(name='range') if l_2_range is missing else l_2_range), environment.getattr(environment.getattr(l_1_t, 'data'), 'words'), _loop_vars=_loop_vars), undefined):
                        _loop_vars = {}
                        pass
                        t_15.extend((
                            'vec2<u32>(_sarek_w[',
                            str((2 * l_3_i)),
                            '], _sarek_w[',
                            str(((2 * l_3_i) + 1)),
                            '])',
                            str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 185 in 'wgsl.wgsl.j2' evaluated to false and no else section was defined."))),
                        ))
                    l_3_loop = l_3_i = missing
                    t_15.append(
                        ')',
                    )
                else:
                    pass
                    t_15.append(
                        '_sarek_d',
                    )
            t_15.append(
                ');\n}\n',
            )
        l_2_loop = l_2_c = l_2_range = missing
        return concat(t_15)
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
    yield " generate -t wgsl`.\n//\n// Target wgsl: WGSL for WebGPU. Each struct can be the element of a storage buffer array with\n// the C header's size, member offsets, alignment and array stride: padding is explicit\n// (_sarek_pad<N> words), bool and unit are i32, and a variant keeps its payload as 32-bit\n// words (data): read an argument with <T>_<Ctor>_v(v) (one argument) or <T>_<Ctor>_<i>(v)\n// (several), build a value with make_<T>_<Ctor>(...).\n"
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_small'):
        pass
        yield "// uint8 and float16 members (and int8, int16, uint16) share 32-bit words (_sarek_bytes<N>,\n// with any padding bytes beside them): read a record's with <T>_<field>(v), build it with\n// make_<T>(...); uint8 and uint16 are a u32, int8 and int16 an i32 (sign-extended), float16\n// an f32 (pack2x16float / unpack2x16float) in the functions.\n"
    if (environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_int64') or environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float64')):
        pass
        yield "// Limitation: WGSL has no 64-bit scalars. int64, uint64 and float64 members and arguments\n// are kept as their raw words, vec2<u32> (x = low word, y = high word, 8-aligned, so the\n// layout is the C header's); kernels can copy them but not compute with them.\n"
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'needs'):
        pass
        yield '// WGSL has no #include: concatenate '
        yield str(t_1(context.eval_ctx, environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'needs'), ', '))
        yield ' before this file.\n'
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str((context.call((undefined(name='record') if l_0_record is missing else l_0_record), l_1_t, _loop_vars=_loop_vars) if (environment.getattr(l_1_t, 'kind') == 'record') else context.call((undefined(name='variant') if l_0_variant is missing else l_0_variant), l_1_t, _loop_vars=_loop_vars)))
    l_1_t = missing

blocks = {}
debug_info = '8=21&9=24&10=32&14=37&15=45&16=46&17=47&18=51&19=54&20=58&22=69&25=77&26=85&27=86&28=88&35=93&36=99&39=104&40=113&44=121&45=129&46=131&47=134&49=143&54=149&55=156&56=159&57=161&58=164&59=171&60=175&61=180&62=184&63=187&64=190&66=196&69=202&70=210&71=214&72=219&73=223&74=242&75=246&76=253&77=257&79=270&82=278&83=284&84=287&85=291&86=298&87=302&88=311&89=315&92=341&98=353&100=360&101=364&102=370&104=378&105=385&106=391&107=393&109=395&110=397&111=399&112=418&114=456&116=461&117=467&118=473&122=479&123=483&124=490&125=499&126=503&128=509&131=565&132=571&133=574&134=581&135=585&137=594&143=604&144=611&145=620&146=625&148=633&149=635&150=637&151=640&154=644&155=647&156=651&158=656&159=662&160=669&161=673&163=680&164=682&165=684&170=693&172=699&173=718&174=722&175=725&176=730&178=734&179=738&180=740&183=745&184=757&185=759&190=800&191=810&198=812&204=815&209=818&210=821&212=823&214=827'

SOURCE_SHA256 = '6c104fa34d6061b5d63c67acec22f8493e99583f563678ea459fbb1c324b2cc1'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/wgsl.wgsl.j2: do not edit.
