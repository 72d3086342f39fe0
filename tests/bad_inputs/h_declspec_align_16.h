#include <stdint.h>
typedef struct T { int32_t a; __declspec(align(16)) double b; } T;
