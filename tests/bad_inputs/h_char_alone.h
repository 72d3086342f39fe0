#include <stdint.h>
typedef struct T { char c[8]; char one; } T;
