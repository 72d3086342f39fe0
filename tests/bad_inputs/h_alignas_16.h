#include <stdint.h>
typedef struct T {
    int32_t a;
    _Alignas(16) int64_t b;
} T;
