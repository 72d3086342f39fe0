#ifndef _SAREK_FAKE_STDALIGN_H
#define _SAREK_FAKE_STDALIGN_H
/* alignas/_Alignas are defined away on the command line; alignof is a pycparser keyword. */
#endif
