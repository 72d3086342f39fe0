#include <stdint.h>
typedef struct T { long double d; } T;
