#ifndef _SAREK_FAKE_STDLIB_H
#define _SAREK_FAKE_STDLIB_H
#include "_fake_defines.h"
#include "_fake_typedefs.h"
/* The div_t family as C defines them (a header may embed or typedef them). */
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
void abort(void);
void exit(int status);
int abs(int x);
div_t div(int a, int b);
ldiv_t ldiv(long a, long b);
lldiv_t lldiv(long long a, long long b);
#endif
