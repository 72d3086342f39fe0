#version 450
#include "/dev/zero"
