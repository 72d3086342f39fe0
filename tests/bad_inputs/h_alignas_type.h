#include <stdint.h>
typedef struct T { int32_t a; _Alignas(double) double b; } T;
