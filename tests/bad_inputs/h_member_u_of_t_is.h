#include <stdint.h>
typedef struct T {
  union { int32_t i; float f; } u;
} T;
