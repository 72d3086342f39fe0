#include <stdint.h>
typedef struct T { char c; } T;
