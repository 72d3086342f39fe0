#include <stdint.h>
typedef enum E { E_MAX = 2147483647, E_PAST } E;
