#version 450
  #  include <sub/./x.glsl>
