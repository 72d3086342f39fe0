#ifndef _SAREK_FAKE_STRING_H
#define _SAREK_FAKE_STRING_H
#include "_fake_defines.h"
#include "_fake_typedefs.h"
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#endif
