#include <stdint.h>
typedef struct T { _Atomic int32_t a; } T;
