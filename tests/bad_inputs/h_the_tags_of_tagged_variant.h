#include <stdint.h>
enum { T_A = 0, T_B = 2 };
typedef struct T { int32_t tag; } T;
