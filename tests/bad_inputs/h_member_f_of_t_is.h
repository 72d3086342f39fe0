#include <stdint.h>
typedef struct T { int32_t f : 3; } T;
