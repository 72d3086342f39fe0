// A kernel counting with atomics, in the style of Apple's Metal samples.
#include <metal_stdlib>
using namespace metal;

struct S_Counter { atomic_uint count; atomic_int total; };
struct S_Particle { float x; float y; float vx; float vy; float life; int alive; };

kernel void count_alive(device const S_Particle *particles [[buffer(0)]],
                        device S_Counter &counter [[buffer(1)]],
                        uint gid [[thread_position_in_grid]])
{
    if (particles[gid].alive) {
        atomic_fetch_add_explicit(&counter.count, 1u, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&counter.total, particles[gid].alive, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_device);
}
