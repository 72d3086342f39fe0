#include <stdint.h>
typedef struct T { struct { float a; } inner; } T;
