#include <stdint.h>
typedef struct T { int32_t a; int64_t b __attribute__((aligned)); } T;
