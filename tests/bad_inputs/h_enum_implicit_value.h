#include <stdint.h>
typedef struct T { int32_t tag; } T;
enum { T_A = 1, T_B = 0, T_C };
