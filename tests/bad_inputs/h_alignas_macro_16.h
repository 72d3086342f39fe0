#include <stdint.h>
#define ALIGN16 _Alignas(16)
typedef struct T { int32_t a; ALIGN16 int64_t b; } T;
