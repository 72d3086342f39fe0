#include <stdint.h>
typedef struct T { float *v[3]; } T;
