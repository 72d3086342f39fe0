/* examples/geometry.toml written by hand in the SPEC §4 shape: C11 and C++11, explicit
 * padding, alignment specifiers, assertions, an enum and a constructor helper. */
#ifndef GEOMETRY_HAND_H
#define GEOMETRY_HAND_H
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

enum { Geometry_shape_Circle, Geometry_shape_Rect, Geometry_shape_Weighted, Geometry_shape_Empty };

typedef struct Geometry_shape {
    int32_t tag;
    uint8_t _sarek_pad0[4];
    union {
        struct { Geometry_point _0; float _1; uint8_t _sarek_pad0[4]; } Circle_v;
        struct { Geometry_point _0; Geometry_point _1; } Rect_v;
        struct { ALIGN8 double _0; int32_t _1; uint8_t _sarek_pad0[4]; } Weighted_v;
    } data;
} Geometry_shape;
CHECK(offsetof(Geometry_shape, data.Weighted_v._1) == 16, "Geometry_shape::data.Weighted_v._1");

static inline Geometry_shape make_Geometry_shape_Empty(void)
{
    Geometry_shape v;
    v.tag = Geometry_shape_Empty;
    return v;
}
#endif
