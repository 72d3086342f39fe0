#ifndef _SAREK_FAKE_STDLIB_H
#define _SAREK_FAKE_STDLIB_H
#include "_fake_defines.h"
#include "_fake_typedefs.h"
void *malloc(size_t n);
void free(void *p);
void abort(void);
#endif
