#include <stdint.h>
typedef struct T { int32_t n; float a[0]; } T;
