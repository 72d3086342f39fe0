#include <stdint.h>
int f(void);
