#include <metal_stdlib>
#define F "/etc/passwd"
#include F
