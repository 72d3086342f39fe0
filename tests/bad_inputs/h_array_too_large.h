#include <stdint.h>
typedef struct T { float a[1000000000][1000000000]; } T;
