#include <stdint.h>
typedef struct T { int32_t a; __align__(16) double b; } T;
