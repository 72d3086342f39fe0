#include <stdint.h>
typedef struct T { int32_t a; [[gnu::packed]] int64_t b; } T;
