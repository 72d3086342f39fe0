#ifndef _SAREK_FAKE_STDIO_H
#define _SAREK_FAKE_STDIO_H
#include "_fake_defines.h"
#include "_fake_typedefs.h"
typedef struct _sarek_fake_FILE FILE;
int printf(const char *fmt, ...);
int fprintf(FILE *f, const char *fmt, ...);
#endif
