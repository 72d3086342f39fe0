#include <stdint.h>
typedef struct T { float x; } T;
typedef struct U { T t; T t; } U;
