/* sarek-layout's fake libc: just enough declarations for pycparser to read headers.
   The real sizes never matter: the C front end maps member types by *name*. */
#ifndef _SAREK_FAKE_DEFINES_H
#define _SAREK_FAKE_DEFINES_H
#define NULL 0
#endif
