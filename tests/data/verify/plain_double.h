/* Hand-written, the way people write it: a plain double after an int32_t, no alignment
 * specifier. Right on x86-64 (double is 8-aligned in structs); wrong on i386, where gcc -m32
 * puts mass at offset 4 and the struct is 12 bytes, 4-aligned. */
#ifndef PLAIN_DOUBLE_H
#define PLAIN_DOUBLE_H
#include <stdint.h>

typedef struct Plain_mixed {
    int32_t id;
    double mass;
} Plain_mixed;

#endif
