#include <stdint.h>
#pragma pack(push, 2)
#pragma pack(push, 4)
#pragma pack(pop)
typedef struct T { int32_t a; int64_t b; } T;
