#ifndef _SAREK_FAKE_ASSERT_H
#define _SAREK_FAKE_ASSERT_H
#define assert(e) ((void)0)
#ifndef static_assert
#define static_assert _Static_assert
#endif
#endif
