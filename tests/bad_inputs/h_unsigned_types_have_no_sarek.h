#include <stdint.h>
typedef struct T { unsigned int u; } T;
