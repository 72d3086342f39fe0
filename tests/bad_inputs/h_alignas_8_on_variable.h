#include <stdint.h>
_Alignas(8) double g;
typedef struct T { int32_t a; } T;
