/* scene.h includes base.h: recompiled when either schema's layout changes. */
#include "scene.h"

int scene_node_size(void) { return (int)sizeof(Scene_node); }
