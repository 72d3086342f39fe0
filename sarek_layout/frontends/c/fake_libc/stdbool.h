#ifndef _SAREK_FAKE_STDBOOL_H
#define _SAREK_FAKE_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#endif
