#include <stdint.h>
#include "nowhere.h"
