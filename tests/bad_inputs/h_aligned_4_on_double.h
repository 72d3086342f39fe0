#include <stdint.h>
typedef struct T { int32_t a; double b __attribute__((aligned(4))); } T;
