#include <stdint.h>
enum { T_A, T_B };
typedef struct T {
  int32_t tag;
  union { struct { float _1; } A_v; } data;
} T;
