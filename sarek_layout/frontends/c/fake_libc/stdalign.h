#ifndef _SAREK_FAKE_STDALIGN_H
#define _SAREK_FAKE_STDALIGN_H
/* alignas/_Alignas are left in the text: sarek-layout's extension scan (c_extensions.py)
   judges them (an alignment of 8 is accepted only where it is the natural one).
   alignof is a pycparser keyword. */
#endif
