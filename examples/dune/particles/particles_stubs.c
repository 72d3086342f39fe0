#include <caml/mlvalues.h>

#include "particles.h"

value particles_particle_size(value unit)
{
    (void)unit;
    return Val_int(sizeof(Particles_particle));
}
