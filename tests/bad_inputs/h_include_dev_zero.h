#include "/dev/zero"
typedef struct T { int x; } T;
