/* Includes only base.h: recompiled when base.toml's layout changes. */
#include "base.h"

int base_id_size(void) { return (int)sizeof(Base_id); }
