#include <stdint.h>
typedef struct T { float x; } T
int y;
