#include <stdint.h>
#define PACKED __attribute__((__packed__))
typedef struct PACKED T { int32_t a; int64_t b; } T;
