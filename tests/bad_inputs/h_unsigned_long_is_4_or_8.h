#include <stdint.h>
typedef struct T { unsigned long u; } T;
