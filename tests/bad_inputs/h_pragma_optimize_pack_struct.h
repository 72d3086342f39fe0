#include <stdint.h>
_Pragma("GCC optimize (\"pack-struct\")")
typedef struct ps { uint8_t a; int32_t b; } ps;
