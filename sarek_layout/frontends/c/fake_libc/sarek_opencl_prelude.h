/* sarek-layout's fake libc: the scalar types OpenCL C has built in, for reading an OpenCL C
   header (.clh) with the C preprocessor and pycparser. Sizes never matter here. */
#ifndef _SAREK_FAKE_OPENCL_PRELUDE_H
#define _SAREK_FAKE_OPENCL_PRELUDE_H
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned long size_t;
typedef short half;
#endif
