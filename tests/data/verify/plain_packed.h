/* Plain.mixed packed: mass at offset 4, size 12, alignment 1 on every ABI. Every driver must
 * report the difference (the test that the drivers really read the compiler's numbers). */
#include <stdint.h>
typedef struct __attribute__((packed)) Plain_mixed {
    int32_t id;
    double mass;
} Plain_mixed;
