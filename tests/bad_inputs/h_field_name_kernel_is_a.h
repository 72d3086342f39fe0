#include <stdint.h>
typedef struct T { float kernel; } T;
