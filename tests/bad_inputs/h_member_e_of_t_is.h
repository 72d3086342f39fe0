#include <stdint.h>
typedef struct T { enum { A, B } e; } T;
