/* sarek-layout's fake libc: <stdarg.h>. va_list is a pointer here (its real type is the
   compiler's own); a member of it is refused as a pointer, as it has no Sarek layout. */
#ifndef _SAREK_FAKE_STDARG_H
#define _SAREK_FAKE_STDARG_H
typedef struct _sarek_fake_va_list *va_list;
typedef va_list __gnuc_va_list;
#define va_start(ap, last) ((void)0)
#define va_arg(ap, type) (*(type *)0)
#define va_end(ap) ((void)0)
#define va_copy(dest, src) ((void)0)
#endif
