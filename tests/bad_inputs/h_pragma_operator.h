#include <stdint.h>
_Pragma("pack(1)")
typedef struct T { int32_t a; int64_t b; } T;
