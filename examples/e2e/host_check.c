/* C side of the end-to-end example: reads the bytes Python wrote, with the generated
 * telemetry.h and frames.h, and checks every member and every byte against values built here
 * in C.
 *
 *   host_check N inputs.bin [outputs.bin]
 *   host_check --frames N frames.bin [frames_out.bin...]
 *
 * inputs.bin: N samples then N readings, as data.py defines them; frames.bin: N frames
 * (frames.toml: a vec4, a float[5] and an enum). The outputs (optional): what a device made of
 * them, checked against transform.h and frame_transform.h applied here on the host.
 * Exit 0 when everything matches, 1 on the first mismatch (named), 2 on bad usage. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E2E_FN static inline
/* A frame's colour is sarek_layout_float4: in C, an array of its four floats. */
#define E2E_COMPONENT(v, k) ((v)[k])
#include "telemetry.h"
#include "frames.h"
#include "transform.h"
#include "frame_transform.h"

/* The inputs, as data.py builds them (keep the two in step). */
static Telemetry_sample expected_sample(int i)
{
    Telemetry_sample s;
    memset(&s, 0, sizeof s);
    s.id = i * 7 - 3;
    s.stamp = ((int64_t)1 << 40) + (int64_t)i * 1000003;
    s.value = i * 0.25 - 100.0;
    s.pos.x = (float)i * 0.5f;
    s.pos.y = (float)(-i) * 1.5f; /* not -(float)i: that is -0.0f for i = 0 */
    s.valid = i % 3 == 0;
    return s;
}

static Telemetry_reading expected_reading(int i)
{
    Telemetry_vec2 p;
    switch (i % 5) {
    case 0:
        return make_Telemetry_reading_Temp((float)i * 0.5f - 10.0f);
    case 1:
        return make_Telemetry_reading_Count(-((int64_t)1 << 35) - i, i * 3);
    case 2:
        p.x = (float)i;
        p.y = (float)(-i) * 0.25f;
        return make_Telemetry_reading_Located(p, i * 1e10);
    case 3:
        return make_Telemetry_reading_Flag(i % 2 == 0);
    default:
        return make_Telemetry_reading_Missing();
    }
}

/* The frames, as data.py builds them. */
static Frames_frame expected_frame(int i)
{
    Frames_frame f;
    int k;
    memset(&f, 0, sizeof f);
    f.id = i * 5 - 7;
    f.color[0] = (float)i * 0.25f;
    f.color[1] = (float)(-i) * 0.5f;
    f.color[2] = 1.0f + (float)i;
    f.color[3] = (float)i * 0.125f;
    for (k = 0; k < 5; k++)
        f.hist[k] = (float)i + (float)k * 0.5f;
    f.level = (Frames_severity)(i % 3);
    return f;
}

static int failures = 0;

#define EXPECT(what, i, got, want, fmt)                                                     \
    do {                                                                                    \
        if ((got) != (want)) {                                                              \
            fprintf(stderr, "c host: %s %d: %s is " fmt ", expected " fmt "\n", what, i, #got, \
                    got, want);                                                             \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

static void check_sample(const char *what, int i, const Telemetry_sample *got, const Telemetry_sample *want)
{
    EXPECT(what, i, got->id, want->id, "%" PRId32);
    EXPECT(what, i, got->stamp, want->stamp, "%" PRId64);
    EXPECT(what, i, got->value, want->value, "%.17g");
    EXPECT(what, i, got->pos.x, want->pos.x, "%.9g");
    EXPECT(what, i, got->pos.y, want->pos.y, "%.9g");
    EXPECT(what, i, got->valid, want->valid, "%" PRId32);
    if (memcmp(got, want, sizeof *got) != 0) {
        fprintf(stderr, "c host: %s %d: bytes differ (padding?)\n", what, i);
        failures++;
    }
}

static void check_reading(const char *what, int i, const Telemetry_reading *got, const Telemetry_reading *want)
{
    EXPECT(what, i, got->tag, want->tag, "%" PRId32);
    if (got->tag == want->tag) {
        switch (want->tag) {
        case Telemetry_reading_Temp:
            EXPECT(what, i, got->data.Temp_v, want->data.Temp_v, "%.9g");
            break;
        case Telemetry_reading_Count:
            EXPECT(what, i, got->data.Count_v._0, want->data.Count_v._0, "%" PRId64);
            EXPECT(what, i, got->data.Count_v._1, want->data.Count_v._1, "%" PRId32);
            break;
        case Telemetry_reading_Located:
            EXPECT(what, i, got->data.Located_v._0.x, want->data.Located_v._0.x, "%.9g");
            EXPECT(what, i, got->data.Located_v._0.y, want->data.Located_v._0.y, "%.9g");
            EXPECT(what, i, got->data.Located_v._1, want->data.Located_v._1, "%.17g");
            break;
        case Telemetry_reading_Flag:
            EXPECT(what, i, got->data.Flag_v, want->data.Flag_v, "%" PRId32);
            break;
        default:
            break;
        }
    }
    if (memcmp(got, want, sizeof *got) != 0) {
        fprintf(stderr, "c host: %s %d: bytes differ (padding?)\n", what, i);
        failures++;
    }
}

static void check_frame(const char *what, int i, const Frames_frame *got, const Frames_frame *want)
{
    int k;
    EXPECT(what, i, got->id, want->id, "%" PRId32);
    for (k = 0; k < 4; k++)
        EXPECT(what, i, got->color[k], want->color[k], "%.9g");
    for (k = 0; k < 5; k++)
        EXPECT(what, i, got->hist[k], want->hist[k], "%.9g");
    EXPECT(what, i, got->level, want->level, "%" PRId32);
    if (memcmp(got, want, sizeof *got) != 0) {
        fprintf(stderr, "c host: %s %d: bytes differ (padding?)\n", what, i);
        failures++;
    }
}

static unsigned char *read_file(const char *path, size_t size)
{
    unsigned char *buf = malloc(size + 1);
    FILE *f = fopen(path, "rb");
    size_t got = f && buf ? fread(buf, 1, size + 1, f) : 0;
    if (f)
        fclose(f);
    if (got != size) {
        fprintf(stderr, "c host: %s: expected exactly %zu bytes, read %zu\n", path, size, got);
        exit(1);
    }
    return buf;
}

/* host_check --frames N frames.bin [outputs...]: the frames Python wrote, and what each
 * device made of them. */
static int check_frames(int argc, char **argv)
{
    int n = atoi(argv[2]);
    size_t total = sizeof(Frames_frame) * (size_t)n;
    unsigned char *in = read_file(argv[3], total);
    unsigned char *outs[8] = {0};
    int outputs = argc - 4 < 8 ? argc - 4 : 8;
    for (int o = 0; o < outputs; o++)
        outs[o] = read_file(argv[4 + o], total);
    for (int i = 0; i < n && failures < 10; i++) {
        Frames_frame f = expected_frame(i);
        Frames_frame t = transform_frame(f);
        check_frame("input frame", i, (const Frames_frame *)in + i, &f);
        for (int o = 0; o < outputs; o++)
            check_frame(argv[4 + o], i, (const Frames_frame *)outs[o] + i, &t);
    }
    free(in);
    for (int o = 0; o < outputs; o++)
        free(outs[o]);
    if (failures)
        return 1;
    printf("c host: %d frames (a vec4, a float[5] and an enum) match, member by member and byte "
           "for byte%s\n", n, outputs ? " (inputs and device outputs)" : "");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "--frames") == 0)
        return check_frames(argc, argv);
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s N inputs.bin [outputs.bin] | --frames N frames.bin [outputs...]\n",
                argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    size_t total = (sizeof(Telemetry_sample) + sizeof(Telemetry_reading)) * (size_t)n;
    unsigned char *in = read_file(argv[2], total);
    unsigned char *out = argc == 4 ? read_file(argv[3], total) : NULL;
    const Telemetry_sample *samples = (const Telemetry_sample *)in;
    const Telemetry_reading *readings = (const Telemetry_reading *)(in + sizeof(Telemetry_sample) * (size_t)n);
    for (int i = 0; i < n && failures < 10; i++) {
        Telemetry_sample s = expected_sample(i);
        Telemetry_reading r = expected_reading(i);
        check_sample("input sample", i, &samples[i], &s);
        check_reading("input reading", i, &readings[i], &r);
        if (out) {
            Telemetry_sample ts = transform_sample(s);
            Telemetry_reading tr = transform_reading(r);
            check_sample("output sample", i, (const Telemetry_sample *)out + i, &ts);
            check_reading("output reading", i,
                          (const Telemetry_reading *)(out + sizeof(Telemetry_sample) * (size_t)n) + i, &tr);
        }
    }
    free(in);
    free(out);
    if (failures)
        return 1;
    printf("c host: %d samples and %d readings match, member by member and byte for byte%s\n", n, n,
           argc == 4 ? " (inputs and device outputs)" : "");
    return 0;
}
