#include <stdint.h>
typedef struct T { float x; } T;
typedef struct U { struct U *next; } U;
