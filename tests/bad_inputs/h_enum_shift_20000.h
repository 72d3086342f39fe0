#include <stdint.h>
typedef struct T { int32_t tag; } T;
enum { T_A = 1 << 20000, T_B };
