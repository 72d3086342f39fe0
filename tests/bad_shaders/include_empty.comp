#version 450
#include ""
