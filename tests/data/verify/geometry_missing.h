/* geometry_hand.h without Geometry_shape: a type the schema has and the header forgot. */
#ifndef GEOMETRY_MISSING_H
#define GEOMETRY_MISSING_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ALIGN8 alignas(8)
#define CHECK(c, m) static_assert(c, m)
#else
#define ALIGN8 _Alignas(8)
#define CHECK(c, m) _Static_assert(c, m)
#endif

typedef struct Geometry_point {
    float x;
    float y;
} Geometry_point;

typedef struct Geometry_particle {
    int32_t id;
    uint8_t _sarek_pad0[4];
    ALIGN8 double mass;
    Geometry_point pos;
    int32_t alive;
    uint8_t _sarek_pad1[4];
} Geometry_particle;
CHECK(sizeof(Geometry_particle) == 32, "Geometry_particle size");

#endif
