#include <stdint.h>
typedef struct T { enum color { RED, GREEN } c; } T;
