/* Kinds_lights with its vec3s packed 12 bytes apart, as a C programmer might write
 * `float dirs[2][3]`: every offset before `dirs` agrees, its stride and what follows do not. */
#include <stdint.h>
typedef struct Kinds_lights {
    int32_t count;
    unsigned char _sarek_pad0[12];
    float dirs[2][3];
    float level;
    unsigned char _sarek_pad1[4];
} Kinds_lights;
