#include <stdint.h>
typedef struct T { int8_t s; } T;
