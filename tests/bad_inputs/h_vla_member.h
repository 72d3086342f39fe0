#include <stdint.h>
extern int n;
typedef struct T { int32_t count; float a[n]; } T;
