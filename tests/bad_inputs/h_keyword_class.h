#include <stdint.h>
typedef struct P { float class; } P;
