from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'c.h.j2'

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
    l_0_dialect = resolve('dialect')
    l_0_m = missing
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.j2', 'c.h.j2')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'banner'), (undefined(name='view') if l_0_view is missing else l_0_view), (undefined(name='filename') if l_0_filename is missing else l_0_filename), 'Target c: one header for C11 and for C++11 (host code, any compiler and ABI).'))
    yield '\n#ifndef '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n#define '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n\n#include <stddef.h>\n#include <stdint.h>\n'
    for l_1_inc in (undefined(name='includes') if l_0_includes is missing else l_0_includes):
        _loop_vars = {}
        pass
        yield '#include "'
        yield str(l_1_inc)
        yield '"\n'
    l_1_inc = missing
    yield '\n#ifndef SAREK_LAYOUT_C_PRELUDE\n#define SAREK_LAYOUT_C_PRELUDE\n/* C11 and C++11 spell alignment and static assertions differently. MSVC reports the C++\n * standard in _MSVC_LANG (its __cplusplus stays 199711L without /Zc:__cplusplus). */\n#if defined(__cplusplus) && __cplusplus < 201103L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201103L)\n#error "sarek-layout: this header needs C11 or C++11 (OpenCL C: use the .clh header)"\n#elif defined(__cplusplus)\n#define SAREK_LAYOUT_ALIGN8 alignas(8)\n#define SAREK_LAYOUT_ALIGNOF(type) alignof(type)\n#define SAREK_LAYOUT_STATIC_ASSERT(cond, message) static_assert(cond, message)\n#define SAREK_LAYOUT_ZERO {}\n#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n#define SAREK_LAYOUT_ALIGN8 _Alignas(8)\n#define SAREK_LAYOUT_ALIGNOF(type) _Alignof(type)\n#define SAREK_LAYOUT_STATIC_ASSERT(cond, message) _Static_assert(cond, message)\n#define SAREK_LAYOUT_ZERO {0}\n#else\n#error "sarek-layout: this header needs C11 or C++11 (OpenCL C: use the .clh header)"\n#endif\n#define SAREK_LAYOUT_FN static inline\n#endif /* SAREK_LAYOUT_C_PRELUDE */\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float16'):
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'float16_typedef'), (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'uint16_t'))
        yield '\n'
    if environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'uses_float64'):
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'float64_check'), environment.getattr((undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), 'assert_name')))
        yield '\n'
    yield '\n#ifdef __cplusplus\nextern "C" {\n#endif\n'
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'type'), l_1_t, (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), _loop_vars=_loop_vars))
        yield '\n'
    l_1_t = missing
    yield '\n#ifdef __cplusplus\n} /* extern "C" */\n#endif\n\n#endif /* '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield ' */\n'

blocks = {}
debug_info = '2=17&3=19&4=21&5=23&9=25&10=29&34=33&36=36&38=38&40=41&46=44&48=48&55=52'

SOURCE_SHA256 = 'd5d2840f9763fa575e46864c57c5c88e202241c219c2cf7b2363a0b5b27d1a38'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/c.h.j2: do not edit.
