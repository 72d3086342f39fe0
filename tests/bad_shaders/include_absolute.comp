#version 450
#include "/etc/passwd"
