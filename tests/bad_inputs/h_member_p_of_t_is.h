#include <stdint.h>
typedef struct T { int32_t *p; } T;
