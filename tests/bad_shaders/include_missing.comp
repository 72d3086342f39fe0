#version 450
#include "nothere.glsl"
