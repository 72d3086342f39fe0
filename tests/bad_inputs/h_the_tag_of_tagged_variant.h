#include <stdint.h>
enum { T_A, T_B };
typedef struct T {
  int64_t tag;
} T;
