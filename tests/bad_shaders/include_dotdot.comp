#version 450
#include "../data/shaders/good.comp"
