#include <stdint.h>
struct avail { uint16_t flags; uint16_t idx; uint16_t ring[]; };
