/* plain_packed.h for nvcc and NVRTC (which has no <stdint.h>). */
#ifdef __CUDACC_RTC__
typedef int int32_t;
#else
#include <stdint.h>
#endif
typedef struct __attribute__((packed)) Plain_mixed {
    int32_t id;
    double mass;
} Plain_mixed;
