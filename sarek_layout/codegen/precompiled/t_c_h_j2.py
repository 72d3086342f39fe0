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
    yield '\n#ifndef SAREK_LAYOUT_C_PRELUDE\n#define SAREK_LAYOUT_C_PRELUDE\n/* C11 and C++11 spell alignment and static assertions differently. MSVC reports the C++\n * standard in _MSVC_LANG (its __cplusplus stays 199711L without /Zc:__cplusplus). */\n#if defined(__cplusplus) && __cplusplus < 201103L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201103L)\n#error "sarek-layout: this header needs C11 or C++11 (OpenCL C: use the .clh header)"\n#elif defined(__cplusplus)\n#define SAREK_LAYOUT_ALIGN8 alignas(8)\n#define SAREK_LAYOUT_ALIGNOF(type) alignof(type)\n#define SAREK_LAYOUT_STATIC_ASSERT(cond, message) static_assert(cond, message)\n#define SAREK_LAYOUT_ZERO {}\n#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n#define SAREK_LAYOUT_ALIGN8 _Alignas(8)\n#define SAREK_LAYOUT_ALIGNOF(type) _Alignof(type)\n#define SAREK_LAYOUT_STATIC_ASSERT(cond, message) _Static_assert(cond, message)\n#define SAREK_LAYOUT_ZERO {0}\n#else\n#error "sarek-layout: this header needs C11 or C++11 (OpenCL C: use the .clh header)"\n#endif\n/* Under nvcc (a .cu including this header, or a header that does) the helpers serve host\n * and device code alike, as the .cuh header\'s do. */\n#if defined(__CUDACC__)\n#define SAREK_LAYOUT_FN static inline __host__ __device__\n#else\n#define SAREK_LAYOUT_FN static inline\n#endif\n#endif /* SAREK_LAYOUT_C_PRELUDE */\n'
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
    yield '\n#ifdef __cplusplus\nextern "C" {\n#endif\n\n#ifndef SAREK_LAYOUT_FRAMED\n#define SAREK_LAYOUT_FRAMED\n/* Framed data (docs/fingerprint.md), as pack_framed writes it in Python: a 24-byte header (the\n * 8 bytes "SAREKLID", the type\'s layout_id, the element count, both little-endian on every\n * host), then the elements as they lie in memory. For `size` bytes at `data`,\n *     size_t n; int status;\n *     const T *elements = SAREK_LAYOUT_READ_FRAMED(T, data, size, &n, &status);\n * points at its n elements of type T, or is NULL with `status` saying why\n * (sarek_layout_framed_problem(status) in words). The elements are read in place: keep the\n * data in memory allocated for T (malloc\'s is), else SAREK_LAYOUT_FRAMED_MISALIGNED. */\n#define SAREK_LAYOUT_FRAMED_OK 0\n#define SAREK_LAYOUT_FRAMED_NO_HEADER 1    /* under 24 bytes, or not starting with SAREKLID */\n#define SAREK_LAYOUT_FRAMED_OTHER_LAYOUT 2 /* written under another layout of the type */\n#define SAREK_LAYOUT_FRAMED_TRUNCATED 3    /* fewer elements after the header than its count */\n#define SAREK_LAYOUT_FRAMED_MISALIGNED 4   /* the elements are not aligned for the type */\n#define SAREK_LAYOUT_READ_FRAMED(type, data, size, count, status) \\\n    ((const type *)sarek_layout_framed_elements((data), (size), type##_LAYOUT_ID, sizeof(type), \\\n                                                SAREK_LAYOUT_ALIGNOF(type), (count), (status)))\n\nSAREK_LAYOUT_FN const void *sarek_layout_framed_elements(\n    const void *_sarek_data, size_t _sarek_size, uint64_t _sarek_layout_id,\n    size_t _sarek_element_size, size_t _sarek_element_align, size_t *_sarek_count, int *_sarek_status)\n{\n    const unsigned char *_sarek_bytes = (const unsigned char *)_sarek_data;\n    uint64_t _sarek_found = 0, _sarek_n = 0;\n    int _sarek_i;\n    *_sarek_count = 0;\n    *_sarek_status = SAREK_LAYOUT_FRAMED_NO_HEADER;\n    if (_sarek_size < 24)\n        return NULL;\n    for (_sarek_i = 0; _sarek_i < 8; _sarek_i++)\n        if (_sarek_bytes[_sarek_i] != (unsigned char)"SAREKLID"[_sarek_i])\n            return NULL;\n    for (_sarek_i = 7; _sarek_i >= 0; _sarek_i--) {\n        _sarek_found = _sarek_found << 8 | _sarek_bytes[8 + _sarek_i];\n        _sarek_n = _sarek_n << 8 | _sarek_bytes[16 + _sarek_i];\n    }\n    *_sarek_status = SAREK_LAYOUT_FRAMED_OTHER_LAYOUT;\n    if (_sarek_found != _sarek_layout_id)\n        return NULL;\n    *_sarek_status = SAREK_LAYOUT_FRAMED_TRUNCATED;\n    if (_sarek_n > (uint64_t)((_sarek_size - 24) / _sarek_element_size))\n        return NULL;\n    *_sarek_status = SAREK_LAYOUT_FRAMED_MISALIGNED;\n    if ((uintptr_t)(_sarek_bytes + 24) % _sarek_element_align != 0)\n        return NULL;\n    *_sarek_count = (size_t)_sarek_n;\n    *_sarek_status = SAREK_LAYOUT_FRAMED_OK;\n    return _sarek_bytes + 24;\n}\n\nSAREK_LAYOUT_FN const char *sarek_layout_framed_problem(int _sarek_status)\n{\n    switch (_sarek_status) {\n    case SAREK_LAYOUT_FRAMED_OK:\n        return "no problem";\n    case SAREK_LAYOUT_FRAMED_NO_HEADER:\n        return "no sarek-layout header (24 bytes starting with SAREKLID)";\n    case SAREK_LAYOUT_FRAMED_OTHER_LAYOUT:\n        return "the data was written under another layout of the type: the schema changed since it was written";\n    case SAREK_LAYOUT_FRAMED_TRUNCATED:\n        return "the bytes after the header hold fewer elements than it counts";\n    case SAREK_LAYOUT_FRAMED_MISALIGNED:\n        return "the elements are not aligned for the type: read the data into memory allocated for it";\n    default:\n        return "not a status of sarek_layout_framed_elements";\n    }\n}\n#endif /* SAREK_LAYOUT_FRAMED */\n\n/* Each type below is defined under a guard of its C name and layout fingerprint, which the\n * .cuh header of the same schema shares: the two may be included together, in either order. */\n'
    for l_1_t in environment.getattr((undefined(name='view') if l_0_view is missing else l_0_view), 'types'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'type'), l_1_t, (undefined(name='dialect') if l_0_dialect is missing else l_0_dialect), True, _loop_vars=_loop_vars))
        yield '\n'
    l_1_t = missing
    yield '\n#ifdef __cplusplus\n} /* extern "C" */\n#endif\n\n#endif /* '
    yield str((undefined(name='guard') if l_0_guard is missing else l_0_guard))
    yield ' */\n'

blocks = {}
debug_info = '2=17&3=19&4=21&5=23&9=25&10=29&40=33&42=36&44=38&46=41&125=44&127=48&134=52'

SOURCE_SHA256 = '9ce6fc1cbceed320fa04222fd31df4635dc8a9f67b16e08578f64ef296f3e8a3'
ENVIRONMENT = 'f7a921d75c53bc54ebbe1cceac84e2f0a6d25dec1c64165ab298fac700993b7f'

# Written by sarek_layout.codegen.precompile from templates/c.h.j2: do not edit.
