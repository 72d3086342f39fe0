#include <stdint.h>
typedef struct P { int32_t a__b; } P;
