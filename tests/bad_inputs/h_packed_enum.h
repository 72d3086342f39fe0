#include <stdint.h>
typedef enum __attribute__((packed)) E { E_A, E_B } E;
