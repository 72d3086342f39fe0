/* sarek-layout's fake libc: <emmintrin.h>, for headers that include it behind __SSE__/__AVX__
   (CL/cl_platform.h). Only the vector types, with their real attributes: a struct that has a
   member of one is refused for its vector_size; the others import. */
#include "_sarek_intrinsics.h"
