/* A hand-written header of an existing C codebase: no generator, no common prefix. */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#define SENSOR_MAX 16   /* macros are fine */

typedef int32_t sensor_id;          /* a scalar typedef, followed to int32_t */

typedef struct Vec3 {
    float x, y, z;                  /* several declarators on one line */
} Vec3;

typedef struct Reading Reading;     /* forward typedef, defined below */

struct Reading {
    sensor_id sensor;
    const double value;             /* qualifiers do not change the layout */
    Vec3 where;
    long long stamp;
    int flags;
};

typedef struct {
    struct Reading last;            /* 'struct Tag' spelling of a typedef'd struct */
    Reading first;
    signed count;
} Summary;

enum sensor_kind { SENSOR_TEMP, SENSOR_PRESSURE };   /* a plain enum: a type, with its values */

typedef union { int32_t i; float f; } bits;          /* unused union: not a type either */

int sensor_read(sensor_id id, Reading *out);         /* declarations are skipped */

static inline double reading_value(const Reading *r) { return r->value; }
