#include <stdint.h>
typedef enum E { E_BIG = 0x7fffffffffffffff + 1 } E;
