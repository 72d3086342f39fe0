/* The C host's uniform buffers (uniforms.py): the std140 params of uniforms.toml and the
 * wgsl-uniform view of view.toml, filled member by member through the generated headers
 * (every padding byte zero) and written to the files named; uniforms.py compares them with
 * Python's bytes. */
#include <stdio.h>
#include <string.h>

#include "uniforms.h"
#include "view.h"

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        perror(path);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    const float tint[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    const float weights[4] = {1.0f, 2.0f, 4.0f, 8.0f};
    Uniforms_params params;
    View_view view;

    if (argc != 3) {
        fprintf(stderr, "usage: uniform_host PARAMS.bin VIEW.bin\n");
        return 2;
    }
    memset(&params, 0, sizeof params); /* every padding byte zero, as Python writes them */
    memset(&view, 0, sizeof view);
    for (int i = 0; i < 4; ++i) {
        if (i < 3)
            params.tint[i] = tint[i];
        view.tint[i] = tint[i];
        params.weights[i].v = weights[i]; /* std140: each float in 16 bytes */
        view.weights[i].v = weights[i];
    }
    params.gain = 1.5f;
    params.offset[0] = view.offset[0] = -3.0f;
    params.offset[1] = view.offset[1] = 0.125f;
    params.blend = Uniforms_mode_Add;
    view.blend = View_mode_Add;
    params.frame = view.frame = 77u;
    return write_file(argv[1], &params, sizeof params) || write_file(argv[2], &view, sizeof view);
}
