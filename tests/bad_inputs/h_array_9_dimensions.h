#include <stdint.h>
typedef struct T { int32_t a[1][2][1][2][1][2][1][2][1]; } T;
