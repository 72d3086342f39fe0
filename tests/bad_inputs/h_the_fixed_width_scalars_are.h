#include <stdint.h>
typedef struct T { size_t n; } T;
