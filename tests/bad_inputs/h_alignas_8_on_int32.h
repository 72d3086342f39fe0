#include <stdint.h>
typedef struct T { alignas(8) int32_t a; int64_t b; } T;
