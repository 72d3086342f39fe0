#include <stdint.h>
typedef struct Z { uint8_t a; int32_t : 0; uint8_t b; } Z;
