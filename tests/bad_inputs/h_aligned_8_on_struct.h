#include <stdint.h>
typedef struct __attribute__((aligned(8))) T { int32_t a; int32_t b; } T;
