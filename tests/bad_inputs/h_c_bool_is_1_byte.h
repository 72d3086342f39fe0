#include <stdint.h>
typedef struct T { _Bool b; } T;
