#include <stdint.h>
typedef struct T {
  int32_t tag;
  union { struct { float _0; } A_v; } data;
} T;
