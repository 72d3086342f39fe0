/* The fix TOOLCHAINS.md measured: an alignment specifier on the 8-byte member (and explicit
 * padding, so no implicit padding remains). Agrees on every ABI, i386 included. */
#ifndef PLAIN_FIXED_H
#define PLAIN_FIXED_H
#include <stdint.h>

typedef struct Plain_mixed {
    int32_t id;
    int32_t _sarek_pad0;
    double mass __attribute__((aligned(8)));
} Plain_mixed;

#endif
