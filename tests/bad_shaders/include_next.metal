#include_next <x.h>
