#include "_fake_defines.h"
#include "_fake_typedefs.h"
