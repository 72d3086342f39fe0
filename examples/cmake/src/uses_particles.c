/* Generated from an OCaml source (particles.ml): rebuilt only when it changes. */
#include "particles.h"

int particles_event_size(void) { return (int)sizeof(Particles_event); }
