/* Kinds_lights with its vec3s packed 12 bytes apart, as a CUDA programmer might write
 * `float dirs[2][3]` (no <stdint.h>: NVRTC has none). */
typedef struct Kinds_lights {
    int count;
    unsigned char _sarek_pad0[12];
    float dirs[2][3];
    float level;
    unsigned char _sarek_pad1[4];
} Kinds_lights;
