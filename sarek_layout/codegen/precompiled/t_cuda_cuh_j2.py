from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'cuda.cuh.j2'

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
    l_0_m = context.vars['m'] = environment.get_template('_macros.j2', 'cuda.cuh.j2')._get_default_module(context)
    context.exported_vars.discard('m')
    yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'banner'), (undefined(name='view') if l_0_view is missing else l_0_view), (undefined(name='filename') if l_0_filename is missing else l_0_filename), 'Target cuda: CUDA C++ for nvcc (host and device passes) and for NVRTC.'))
    yield '\n#ifndef '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n#define '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield '\n\n#ifndef SAREK_LAYOUT_CUDA_PRELUDE\n#define SAREK_LAYOUT_CUDA_PRELUDE\n/* static_assert and alignas are C++11 (MSVC host passes report it in _MSVC_LANG). */\n#if defined(__cplusplus) && __cplusplus < 201103L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201103L)\n#error "sarek-layout: this header needs C++11 or later (nvcc\'s default; NVRTC -std=c++11 or later)"\n#endif\n#if defined(__CUDACC_RTC__)\n/* NVRTC has no libc headers: fixed-width types of our own (define SAREK_LAYOUT_NVRTC_STDINT\n * before including this header when the program already declares them), and the builtin\n * offsetof. */\n#ifndef SAREK_LAYOUT_NVRTC_STDINT\n#define SAREK_LAYOUT_NVRTC_STDINT\ntypedef signed char int8_t;\ntypedef short int16_t;\ntypedef int int32_t;\ntypedef long long int64_t;\ntypedef unsigned char uint8_t;\ntypedef unsigned short uint16_t;\ntypedef unsigned int uint32_t;\ntypedef unsigned long long uint64_t;\n#endif\n#define SAREK_LAYOUT_OFFSETOF(type, member) __builtin_offsetof(type, member)\n#else\n#include <stddef.h>\n#include <stdint.h>\n#define SAREK_LAYOUT_OFFSETOF(type, member) offsetof(type, member)\n#endif\n#endif /* SAREK_LAYOUT_CUDA_PRELUDE */\n'
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
    for l_1_inc in (undefined(name='includes') if l_0_includes is missing else l_0_includes):
        _loop_vars = {}
        pass
        yield '#include "'
        yield str(l_1_inc)
        yield '"\n'
    l_1_inc = missing
    yield '\n/* Each type below is defined under a guard of its C name and layout fingerprint, which the\n * .h header of the same schema shares: the two may be included together, in either order. */\n'
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'type'), l_1_t, (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), True, _loop_vars=_loop_vars))
        yield '\n'
    l_1_t = missing
    yield '\n#endif /* '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield ' */\n'

blocks = {}
debug_info = '2=17&3=19&4=21&5=23&35=25&37=28&39=30&41=33&43=35&44=39&49=43&51=47&54=51'

SOURCE_SHA256 = 'f9cea394b073eb48f8b749d3f7f2563620559550e17b3f527116c6e79cfba4be'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/cuda.cuh.j2: do not edit.
