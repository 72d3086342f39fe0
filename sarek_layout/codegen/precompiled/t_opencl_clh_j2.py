from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'opencl.clh.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_view = resolve('view')
    l_0_filename = resolve('filename')
    l_0_guard = resolve('guard')
    l_0_dialect = resolve('dialect')
    l_0_includes = resolve('includes')
    l_0_m = missing
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.j2', 'opencl.clh.j2')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'banner'), (undefined(name='view') if l_0_view is missing else l_0_view), (undefined(name='filename') if l_0_filename is missing else l_0_filename), 'Target opencl: OpenCL C 1.2 and later (int/long/float/double: long is 64-bit, never long long).'))
    yield '\n#ifndef '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n#define '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n\n#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)\n#error "sarek-layout: '
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield ' is OpenCL C; host C and C++ include the .h header"\n#endif\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float64'):
        pass
        yield '#if defined(cl_khr_fp64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#elif !defined(__opencl_c_fp64)\n#error "sarek-layout: '
        yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
        yield ' has float64 members: the device needs double support (cl_khr_fp64)"\n#endif\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float16'):
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'float16_typedef'), (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'ushort'))
        yield '\n'
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
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'type'), l_1_t, (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), _loop_vars=_loop_vars))
        yield '\n'
    l_1_t = missing
    yield '\n#endif /* '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield ' */\n'

blocks = {}
debug_info = '2=17&3=19&4=21&5=23&8=25&10=27&14=30&17=32&19=35&21=37&22=41&24=44&26=48&29=52'

SOURCE_SHA256 = 'e23b9cf376e126c79234aa5c992efaa0d2b975c6b7ee895ba164a5a3af70f5a1'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/opencl.clh.j2: do not edit.
