#include <stdint.h>
typedef struct T { long l; } T;
