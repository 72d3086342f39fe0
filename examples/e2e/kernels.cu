/* CUDA side of the end-to-end example: the same kernels with the generated telemetry.cuh, and
 * a host main that runs them on a file Python wrote.
 *
 *   kernels N inputs.bin outputs.bin
 *
 * inputs.bin holds N samples then N readings (as run_e2e.py writes them); outputs.bin gets
 * the transformed arrays in the same order. Exit 3 when no CUDA device is present. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#define E2E_FN static inline __host__ __device__
#include "telemetry.cuh"
#include "transform.h"

__global__ void transform_samples(const Telemetry_sample *in, Telemetry_sample *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = transform_sample(in[i]);
}

__global__ void transform_readings(const Telemetry_reading *in, Telemetry_reading *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = transform_reading(in[i]);
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
static int run(K kernel, const unsigned char *in_bytes, unsigned char *out_bytes, int n)
{
    T *in = nullptr, *out = nullptr;
    size_t size = sizeof(T) * (size_t)n;
    CHECK(cudaMalloc(&in, size));
    CHECK(cudaMalloc(&out, size));
    CHECK(cudaMemcpy(in, in_bytes, size, cudaMemcpyHostToDevice));
    kernel<<<(n + 127) / 128, 128>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out_bytes, out, size, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s N inputs.bin outputs.bin\n", argv[0]);
        return 2;
    }
    int n = std::atoi(argv[1]);
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
    if (run<Telemetry_sample>(transform_samples, in.data(), out.data(), n) ||
        run<Telemetry_reading>(transform_readings, in.data() + readings_at, out.data() + readings_at, n))
        return 1;
    f = std::fopen(argv[3], "wb");
    if (!f || std::fwrite(out.data(), 1, total, f) != total) {
        std::fprintf(stderr, "cuda: cannot write %s\n", argv[3]);
        return 2;
    }
    std::fclose(f);
    std::printf("cuda: %d samples and %d readings transformed\n", n, n);
    return 0;
}
