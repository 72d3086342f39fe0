from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'zig.zig.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_filename = resolve('filename')
    l_0_view = resolve('view')
    l_0_ty = l_0_path = l_0_members = l_0_offset = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    def macro(l_1_kind, l_1_type):
        t_2 = []
        l_1_dialect = resolve('dialect')
        if l_1_kind is missing:
            l_1_kind = undefined("parameter 'kind' was not provided", name='kind')
        if l_1_type is missing:
            l_1_type = undefined("parameter 'type' was not provided", name='type')
        pass
        t_2.append(
            str((environment.getitem(environment.getattr((undefined(name='dialect') if l_1_dialect is missing else l_1_dialect), 'scalar'), l_1_type) if (l_1_kind == 'scalar') else context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), l_1_type))),
        )
        return concat(t_2)
    context.exported_vars.add('ty')
    context.vars['ty'] = l_0_ty = Macro(environment, macro, 'ty', ('kind', 'type'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_p):
        t_3 = []
        if l_1_p is missing:
            l_1_p = undefined("parameter 'p' was not provided", name='p')
        pass
        l_2_loop = missing
        for l_2_part, l_2_loop in LoopContext(context.call(environment.getattr(l_1_p, 'split'), '.'), undefined):
            _loop_vars = {}
            pass
            t_3.extend((
                str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), l_2_part, _loop_vars=_loop_vars)),
                str(('.' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 11 in 'zig.zig.j2' evaluated to false and no else section was defined."))),
            ))
        l_2_loop = l_2_part = missing
        return concat(t_3)
    context.exported_vars.add('path')
    context.vars['path'] = l_0_path = Macro(environment, macro, 'path', ('p',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_list, l_1_indent):
        t_4 = []
        if l_1_list is missing:
            l_1_list = undefined("parameter 'list' was not provided", name='list')
        if l_1_indent is missing:
            l_1_indent = undefined("parameter 'indent' was not provided", name='indent')
        pass
        for (l_2_name, l_2_kind, l_2_type, l_2_offset, l_2_size, l_2_align8) in l_1_list:
            _loop_vars = {}
            pass
            if (l_2_kind == 'padding'):
                pass
                t_4.extend((
                    str(l_1_indent),
                    str(l_2_name),
                    ': [',
                    str(l_2_size),
                    ']u8 = @splat(0), // offset ',
                    str(l_2_offset),
                    '\n',
                ))
            else:
                pass
                t_4.extend((
                    str(l_1_indent),
                    str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), l_2_name, _loop_vars=_loop_vars)),
                    ': ',
                    str(context.call((undefined(name='ty') if l_0_ty is missing else l_0_ty), l_2_kind, l_2_type, _loop_vars=_loop_vars)),
                    str((' align(8)' if l_2_align8 else cond_expr_undefined("the inline if-expression on line 18 in 'zig.zig.j2' evaluated to false and no else section was defined."))),
                    ', // offset ',
                    str(l_2_offset),
                    '\n',
                ))
        l_2_name = l_2_kind = l_2_type = l_2_offset = l_2_size = l_2_align8 = missing
        return concat(t_4)
    context.exported_vars.add('members')
    context.vars['members'] = l_0_members = Macro(environment, macro, 'members', ('list', 'indent'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_t, l_1_member):
        t_5 = []
        l_1_parts = l_1_T = missing
        if l_1_t is missing:
            l_1_t = undefined("parameter 't' was not provided", name='t')
        if l_1_member is missing:
            l_1_member = undefined("parameter 'member' was not provided", name='member')
        pass
        l_1_parts = context.call(environment.getattr(l_1_member, 'split'), '.')
        l_1_T = context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_1_t, 'c_name'))
        t_5.extend((
            '@offsetOf(',
            str((undefined(name='T') if l_1_T is missing else l_1_T)),
            ', "',
            str(environment.getitem((undefined(name='parts') if l_1_parts is missing else l_1_parts), 0)),
            '")',
        ))
        if (t_1((undefined(name='parts') if l_1_parts is missing else l_1_parts)) == 3):
            pass
            t_5.extend((
                ' + @offsetOf(@FieldType(@FieldType(',
                str((undefined(name='T') if l_1_T is missing else l_1_T)),
                ', "',
                str(environment.getitem((undefined(name='parts') if l_1_parts is missing else l_1_parts), 0)),
                '"), "',
                str(environment.getitem((undefined(name='parts') if l_1_parts is missing else l_1_parts), 1)),
                '"), "',
                str(environment.getitem((undefined(name='parts') if l_1_parts is missing else l_1_parts), 2)),
                '")',
            ))
        return concat(t_5)
    context.exported_vars.add('offset')
    context.vars['offset'] = l_0_offset = Macro(environment, macro, 'offset', ('t', 'member'), False, False, False, context.eval_ctx.autoescape)
    yield '//! '
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield ': @generated by '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield ' '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'version'))
    yield ' from '
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'source'))
    yield ' ('
    yield str((str_join(('module ', environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module'), )) if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'module') else 'no module prefix'))
    yield ').\n//! Do not edit: change the schema and run `'
    yield str(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'tool'))
    yield ' generate -t zig`.\n//!\n//! Target zig: Zig 0.14 or later, `const layout = @import("'
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield '");`. Every type is an\n//! extern struct with the C header\'s member names and the Sarek aligned aggregate layout on\n//! every target Zig builds for, x86 included: explicit padding members (_sarek_pad<N>,\n//! zero by default) leave no implicit padding, 8-byte members are align(8), and a comptime\n//! check of the size, the alignment and every member offset follows each type. bool and unit\n//! are i32, float16 is its IEEE 754 binary16 bits (u16). Variants: make_<type>_<Ctor>.\n\nconst sarek_layout_std = @import("std");\n'
    for l_1_imp in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'imports'):
        _loop_vars = {}
        pass
        for l_2_c_name in environment.getattr(l_1_imp, 'c_names'):
            _loop_vars = {}
            pass
            yield 'const '
            yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), l_2_c_name, _loop_vars=_loop_vars))
            yield ' = @import("'
            yield str(environment.getattr(l_1_imp, 'filename'))
            yield '").'
            yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), l_2_c_name, _loop_vars=_loop_vars))
            yield ';\n'
        l_2_c_name = missing
    l_1_imp = missing
    l_1_loop = missing
    for l_1_t, l_1_loop in LoopContext(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'), undefined):
        l_1_T = missing
        _loop_vars = {}
        pass
        l_1_T = context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_1_t, 'c_name'), _loop_vars=_loop_vars)
        _loop_vars['T'] = l_1_T
        yield '\n'
        if (environment.getattr(l_1_t, 'kind') == 'record'):
            pass
            yield '/// '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ': record, size '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', align '
            yield str(environment.getattr(l_1_t, 'align'))
            yield '\npub const '
            yield str((undefined(name='T') if l_1_T is missing else l_1_T))
            yield ' = extern struct {\n'
            yield str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_1_t, 'members'), '    ', _loop_vars=_loop_vars))
            yield '};\n'
        else:
            pass
            yield '/// '
            yield str(environment.getattr(l_1_t, 'qualified_name'))
            yield ': variant, size '
            yield str(environment.getattr(l_1_t, 'size'))
            yield ', align '
            yield str(environment.getattr(l_1_t, 'align'))
            yield ', payload at offset '
            yield str(environment.getattr(l_1_t, 'payload_offset'))
            yield '\n'
            for l_2_c in environment.getattr(l_1_t, 'ctors'):
                _loop_vars = {}
                pass
                yield 'pub const '
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'enum_name'), _loop_vars=_loop_vars))
                yield ': i32 = '
                yield str(environment.getattr(l_2_c, 'tag'))
                yield ';\n'
            l_2_c = missing
            yield 'pub const '
            yield str((undefined(name='T') if l_1_T is missing else l_1_T))
            yield ' = extern struct {\n'
            yield str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_1_t, 'members'), '    ', _loop_vars=_loop_vars))
            if environment.getattr(l_1_t, 'data_size'):
                pass
                yield '    data: extern union {\n'
                if environment.getattr(l_1_t, 'data_bytes'):
                    pass
                    yield '        _sarek_bytes: ['
                    yield str(environment.getattr(l_1_t, 'data_size'))
                    yield ']u8, // every payload byte\n'
                def t_6(fiter):
                    for l_2_c in fiter:
                        if environment.getattr(l_2_c, 'arm'):
                            yield l_2_c
                for l_2_c in t_6(environment.getattr(l_1_t, 'ctors')):
                    l_2_m = resolve('m')
                    _loop_vars = {}
                    pass
                    if environment.getattr(l_2_c, 'single'):
                        pass
                        l_2_m = environment.getattr(l_2_c, 'single')
                        _loop_vars['m'] = l_2_m
                        yield '        '
                        yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'name'), _loop_vars=_loop_vars))
                        yield ': '
                        yield str(context.call((undefined(name='ty') if l_0_ty is missing else l_0_ty), environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'kind'), environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'type'), _loop_vars=_loop_vars))
                        yield str((' align(8)' if environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'align8') else cond_expr_undefined("the inline if-expression on line 68 in 'zig.zig.j2' evaluated to false and no else section was defined.")))
                        yield ', // offset '
                        yield str(environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'offset'))
                        yield ', tag '
                        yield str(environment.getattr(l_2_c, 'tag'))
                        yield '\n'
                    else:
                        pass
                        yield '        '
                        yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'arm'), _loop_vars=_loop_vars))
                        yield ': extern struct {\n'
                        yield str(context.call((undefined(name='members') if l_0_members is missing else l_0_members), environment.getattr(l_2_c, 'members'), '            ', _loop_vars=_loop_vars))
                        yield '        }, // tag '
                        yield str(environment.getattr(l_2_c, 'tag'))
                        yield ', '
                        yield str(environment.getattr(l_2_c, 'payload_size'))
                        yield ' payload bytes\n'
                l_2_c = l_2_m = missing
                yield '    }, // offset '
                yield str(environment.getattr(l_1_t, 'payload_offset'))
                yield ', '
                yield str(environment.getattr(l_1_t, 'data_size'))
                yield ' bytes\n'
            yield '};\n'
        yield '\n/// Layout fingerprint of '
        yield str(environment.getattr(l_1_t, 'qualified_name'))
        yield ' (docs/fingerprint.md).\npub const '
        yield str(environment.getattr(l_1_t, 'c_name'))
        yield '_LAYOUT_ID: u64 = '
        yield str(environment.getattr(l_1_t, 'layout_id'))
        yield ';\npub fn '
        yield str(environment.getattr(l_1_t, 'c_name'))
        yield '_LAYOUT_OK(_sarek_v: u64) bool {\n    return _sarek_v == '
        yield str(environment.getattr(l_1_t, 'c_name'))
        yield '_LAYOUT_ID;\n}\n\ncomptime {\n'
        for (l_2_kind, l_2_member, l_2_value, l_2_label, l_2_ident) in environment.getattr(l_1_t, 'checks'):
            _loop_vars = {}
            pass
            if (l_2_kind == 'size'):
                pass
                yield '    if (@sizeOf('
                yield str((undefined(name='T') if l_1_T is missing else l_1_T))
                yield ') != '
                yield str(l_2_value)
                yield ') @compileError("sarek-layout: @sizeOf('
                yield str(l_2_label)
                yield ') must be '
                yield str(l_2_value)
                yield '");\n'
            elif (l_2_kind == 'align'):
                pass
                yield '    if (@alignOf('
                yield str((undefined(name='T') if l_1_T is missing else l_1_T))
                yield ') != '
                yield str(l_2_value)
                yield ') @compileError("sarek-layout: alignment of '
                yield str(l_2_label)
                yield ' must be '
                yield str(l_2_value)
                yield '");\n'
            else:
                pass
                yield '    if ('
                yield str(context.call((undefined(name='offset') if l_0_offset is missing else l_0_offset), l_1_t, l_2_member, _loop_vars=_loop_vars))
                yield ' != '
                yield str(l_2_value)
                yield ') @compileError("sarek-layout: '
                yield str(l_2_label)
                yield ' must be at offset '
                yield str(l_2_value)
                yield '");\n'
        l_2_kind = l_2_member = l_2_value = l_2_label = l_2_ident = missing
        yield '}\n'
        if (environment.getattr(l_1_t, 'kind') == 'variant'):
            pass
            for l_2_c in environment.getattr(l_1_t, 'copies'):
                _loop_vars = {}
                pass
                yield '\n/// '
                yield str(environment.getattr(l_2_c, 'c_name'))
                yield ' with every padding byte zero: make_ helpers copy record arguments with it.\nfn '
                yield str(environment.getattr(l_2_c, 'function'))
                yield '(_sarek_src: '
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'c_name'), _loop_vars=_loop_vars))
                yield ') '
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'c_name'), _loop_vars=_loop_vars))
                yield ' {\n    var _sarek_v = sarek_layout_std.mem.zeroes('
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'c_name'), _loop_vars=_loop_vars))
                yield ');\n'
                for l_3_a in environment.getattr(l_2_c, 'assigns'):
                    _loop_vars = {}
                    pass
                    yield '    _sarek_v.'
                    yield str(context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'target'), _loop_vars=_loop_vars))
                    yield ' = '
                    yield str((str_join((environment.getattr(l_3_a, 'copy'), '(', context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'source'), _loop_vars=_loop_vars), ')', )) if environment.getattr(l_3_a, 'copy') else context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'source'), _loop_vars=_loop_vars)))
                    yield ';\n'
                l_3_a = missing
                yield '    return _sarek_v;\n}\n'
            l_2_c = missing
            l_2_loop = missing
            for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_t, 'ctors'), undefined):
                _loop_vars = {}
                pass
                yield '\npub fn '
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'make_name'), _loop_vars=_loop_vars))
                yield '('
                l_3_loop = missing
                for l_3_p, l_3_loop in LoopContext(environment.getattr(l_2_c, 'params'), undefined):
                    _loop_vars = {}
                    pass
                    yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_3_p, 'name'), _loop_vars=_loop_vars))
                    yield ': '
                    yield str(context.call((undefined(name='ty') if l_0_ty is missing else l_0_ty), environment.getattr(l_3_p, 'kind'), environment.getattr(l_3_p, 'type'), _loop_vars=_loop_vars))
                    yield str((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 110 in 'zig.zig.j2' evaluated to false and no else section was defined.")))
                l_3_loop = l_3_p = missing
                yield ') '
                yield str((undefined(name='T') if l_1_T is missing else l_1_T))
                yield ' {\n    var _sarek_v = sarek_layout_std.mem.zeroes('
                yield str((undefined(name='T') if l_1_T is missing else l_1_T))
                yield ');\n    _sarek_v.tag = '
                yield str(context.call(environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'ident'), environment.getattr(l_2_c, 'enum_name'), _loop_vars=_loop_vars))
                yield ';\n'
                for l_3_a in environment.getattr(l_2_c, 'assigns'):
                    _loop_vars = {}
                    pass
                    yield '    _sarek_v.'
                    yield str(context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'target'), _loop_vars=_loop_vars))
                    yield ' = '
                    yield str((str_join((environment.getattr(l_3_a, 'copy'), '(', context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'source'), _loop_vars=_loop_vars), ')', )) if environment.getattr(l_3_a, 'copy') else context.call((undefined(name='path') if l_0_path is missing else l_0_path), environment.getattr(l_3_a, 'source'), _loop_vars=_loop_vars)))
                    yield ';\n'
                l_3_a = missing
                yield '    return _sarek_v;\n}\n'
            l_2_loop = l_2_c = missing
    l_1_loop = l_1_t = l_1_T = missing

blocks = {}
debug_info = '7=20&8=29&10=34&11=40&13=51&14=58&15=61&16=64&18=75&24=88&25=96&26=97&27=100&28=105&30=122&31=132&33=134&41=136&42=139&43=143&46=152&47=156&49=159&50=162&51=168&52=170&54=175&55=183&56=187&58=193&59=195&60=196&62=199&63=202&65=204&66=212&67=214&68=217&70=229&71=231&74=239&79=245&80=247&81=251&82=253&86=255&87=258&88=261&89=269&90=272&92=283&96=293&97=295&99=299&100=301&101=307&102=309&103=313&108=321&110=325&111=339&112=341&113=343&114=347'

SOURCE_SHA256 = '452b4f5a235b4d629ca865f0fa26223ed57658dc3335343264ff1353251f7675'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/zig.zig.j2: do not edit.
