#include <stdint.h>
typedef struct T { char buf[sizeof(long) * 2]; } T;
