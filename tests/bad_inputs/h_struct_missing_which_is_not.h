#include <stdint.h>
typedef struct T { struct missing m; } T;
