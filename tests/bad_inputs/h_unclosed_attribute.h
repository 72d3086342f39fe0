#include <stdint.h>
typedef struct T { int32_t a __attribute__((packed; } T;
