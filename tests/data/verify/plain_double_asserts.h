/* The same mistake, with the compile-time checks a careful person adds: on i386 they fire,
 * and verify still reports the numbers behind them. */
#ifndef PLAIN_DOUBLE_ASSERTS_H
#define PLAIN_DOUBLE_ASSERTS_H
#include <stddef.h>
#include <stdint.h>

typedef struct Plain_mixed {
    int32_t id;
    double mass;
} Plain_mixed;

#ifdef __cplusplus
static_assert(offsetof(Plain_mixed, mass) == 8, "Plain_mixed::mass must be at offset 8");
#else
_Static_assert(offsetof(Plain_mixed, mass) == 8, "Plain_mixed::mass must be at offset 8");
#endif

#endif
