#include <stdint.h>
typedef struct T { uint32_t u; } T;
