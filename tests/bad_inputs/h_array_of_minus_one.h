#include <stdint.h>
typedef struct T { float a[-1]; } T;
