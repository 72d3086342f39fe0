#version 450
#include "a\\b.glsl"
