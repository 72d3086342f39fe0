from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'metal.h.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_view = resolve('view')
    l_0_filename = resolve('filename')
    l_0_guard = resolve('guard')
    l_0_includes = resolve('includes')
    l_0_m = missing
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.j2', 'metal.h.j2')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'banner'), (undefined(name='view') if l_0_view is missing else l_0_view), (undefined(name='filename') if l_0_filename is missing else l_0_filename), "Target metal: Metal Shading Language. int/long/float; bool and unit are int (MSL's bool is 1 byte); MSL has no double, so a float64 is kept as its raw 64-bit words (uint2, low word first); float16 is half and uint8 uchar."))
    yield '\n#ifndef '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n#define '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n\n#if defined(__METAL_VERSION__)\n#include <metal_stdlib>\n#else\n#error "sarek-layout: '
    yield str((undefined(name='filename') if l_0_filename is missing else l_0_filename))
    yield ' is Metal Shading Language; host C and C++ include the .h header"\n#endif\n'
    for l_1_inc in (undefined(name='includes') if l_0_includes is missing else l_0_includes):
        _loop_vars = {}
        pass
        yield '#include "'
        yield str(l_1_inc)
        yield '"\n'
    l_1_inc = missing
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        l_1_dialect = resolve('dialect')
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'type'), l_1_t, (undefined(name='dialect') if l_1_dialect is missing else l_1_dialect), _loop_vars=_loop_vars))
        yield '\n'
    l_1_t = l_1_dialect = missing
    yield '\n#endif /* '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield ' */\n'

blocks = {}
debug_info = '2=16&3=18&4=20&5=22&10=24&12=26&13=30&15=33&17=38&20=42'

SOURCE_SHA256 = '6304efeecb2219fe51af1ed04aa65e588ae1e9e33aec4e73fb881ce77e193ed3'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/metal.h.j2: do not edit.
