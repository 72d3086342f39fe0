#include <stdint.h>
typedef struct T { short s; } T;
