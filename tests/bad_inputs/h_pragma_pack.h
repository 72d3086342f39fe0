#include <stdint.h>
  #pragma pack(push, 1)
typedef struct T { int32_t a; int64_t b; } T;
#pragma pack(pop)
