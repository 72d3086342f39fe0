#include <stdint.h>
typedef struct T { float a[1U - 2U]; } T;
