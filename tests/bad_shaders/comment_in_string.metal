const char *s = "/*";
#include "/etc/passwd"
// */
