/* CUDA side of the end-to-end example: the same kernels with the generated telemetry.cuh and
 * frames.cuh, and a host main that runs them on files Python wrote.
 *
 *   kernels N inputs.bin outputs.bin SAMPLE_LAYOUT_ID READING_LAYOUT_ID
 *           [frames.bin frames_out.bin FRAME_LAYOUT_ID]
 *
 * inputs.bin holds N samples then N readings (as run_e2e.py writes them); outputs.bin gets
 * the transformed arrays in the same order; frames.bin, when given, N frames (frames.toml:
 * a vec4, which is CUDA's own float4 here, a float[5] and an enum). The hex fingerprints are
 * the layouts the data was written under: a kernel built for another layout refuses it (exit
 * 4, naming both). Exit 3 when no CUDA device is present. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#define E2E_FN static inline __host__ __device__
#define E2E_COMPONENT(v, k) ((&(v).x)[k])
#include "telemetry.cuh"
#include "frames.cuh"
#include "transform.h"
#include "frame_transform.h"

__global__ void transform_samples(const Telemetry_sample *in, Telemetry_sample *out, int n,
                                  unsigned long long layout_id, unsigned long long *refused)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (!Telemetry_sample_LAYOUT_OK(layout_id)) {  /* data of another layout: not read */
        if (i == 0)
            *refused = Telemetry_sample_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_sample(in[i]);
}

__global__ void transform_readings(const Telemetry_reading *in, Telemetry_reading *out, int n,
                                   unsigned long long layout_id, unsigned long long *refused)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (!Telemetry_reading_LAYOUT_OK(layout_id)) {
        if (i == 0)
            *refused = Telemetry_reading_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_reading(in[i]);
}

__global__ void transform_frames(const Frames_frame *in, Frames_frame *out, int n,
                                 unsigned long long layout_id, unsigned long long *refused)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (!Frames_frame_LAYOUT_OK(layout_id)) {
        if (i == 0)
            *refused = Frames_frame_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_frame(in[i]);
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "cuda: %s failed: %s\n", #call, cudaGetErrorString(err_)); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

template <typename T, typename K>
static int run(K kernel, const char *what, const unsigned char *in_bytes,
               unsigned char *out_bytes, int n, unsigned long long layout_id)
{
    T *in = nullptr, *out = nullptr;
    unsigned long long *refused = nullptr, kernel_id = 0;
    size_t size = sizeof(T) * (size_t)n;
    CHECK(cudaMalloc(&in, size));
    CHECK(cudaMalloc(&out, size));
    CHECK(cudaMalloc(&refused, sizeof *refused));
    CHECK(cudaMemset(refused, 0, sizeof *refused));
    CHECK(cudaMemcpy(in, in_bytes, size, cudaMemcpyHostToDevice));
    kernel<<<(n + 127) / 128, 128>>>(in, out, n, layout_id, refused);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out_bytes, out, size, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&kernel_id, refused, sizeof kernel_id, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(refused));
    if (kernel_id) {
        std::fprintf(stderr, "cuda: the kernel refused the data: it was built for %s layout "
                     "0x%016llx, the host sent 0x%016llx\n", what, kernel_id, layout_id);
        return 4;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 9) {
        std::fprintf(stderr, "usage: %s N inputs.bin outputs.bin SAMPLE_LAYOUT_ID READING_LAYOUT_ID "
                     "[frames.bin frames_out.bin FRAME_LAYOUT_ID]\n", argv[0]);
        return 2;
    }
    int n = std::atoi(argv[1]);
    unsigned long long sample_id = std::strtoull(argv[4], nullptr, 16);
    unsigned long long reading_id = std::strtoull(argv[5], nullptr, 16);
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "cuda: no CUDA device\n");
        return 3;
    }
    size_t total = (sizeof(Telemetry_sample) + sizeof(Telemetry_reading)) * (size_t)n;
    std::vector<unsigned char> in(total), out(total);
    FILE *f = std::fopen(argv[2], "rb");
    if (!f || std::fread(in.data(), 1, total, f) != total) {
        std::fprintf(stderr, "cuda: cannot read %zu bytes from %s\n", total, argv[2]);
        return 2;
    }
    std::fclose(f);
    size_t readings_at = sizeof(Telemetry_sample) * (size_t)n;
    int status = run<Telemetry_sample>(transform_samples, "Telemetry.sample", in.data(),
                                       out.data(), n, sample_id);
    if (!status)
        status = run<Telemetry_reading>(transform_readings, "Telemetry.reading",
                                        in.data() + readings_at, out.data() + readings_at, n,
                                        reading_id);
    if (status)
        return status;
    f = std::fopen(argv[3], "wb");
    if (!f || std::fwrite(out.data(), 1, total, f) != total) {
        std::fprintf(stderr, "cuda: cannot write %s\n", argv[3]);
        return 2;
    }
    std::fclose(f);
    if (argc == 9) {
        size_t frames = sizeof(Frames_frame) * (size_t)n;
        std::vector<unsigned char> fin(frames), fout(frames);
        f = std::fopen(argv[6], "rb");
        if (!f || std::fread(fin.data(), 1, frames, f) != frames) {
            std::fprintf(stderr, "cuda: cannot read %zu bytes from %s\n", frames, argv[6]);
            return 2;
        }
        std::fclose(f);
        status = run<Frames_frame>(transform_frames, "Frames.frame", fin.data(), fout.data(), n,
                                   std::strtoull(argv[8], nullptr, 16));
        if (status)
            return status;
        f = std::fopen(argv[7], "wb");
        if (!f || std::fwrite(fout.data(), 1, frames, f) != frames) {
            std::fprintf(stderr, "cuda: cannot write %s\n", argv[7]);
            return 2;
        }
        std::fclose(f);
    }
    std::printf("cuda: %d samples and %d readings%s transformed\n", n, n,
                argc == 9 ? " and frames" : "");
    return 0;
}
