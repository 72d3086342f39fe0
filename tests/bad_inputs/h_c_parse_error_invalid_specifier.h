#include <stdint.h>
typedef struct U { U *next; } U;
