#include <stdint.h>
typedef struct T { int a __attribute__((mode(DI))); } T;
