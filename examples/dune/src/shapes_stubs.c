/* C code of the library: it includes a header generated from the OCaml sources beside it. */
#include <caml/mlvalues.h>

#include "scene.h"

value shapes_node_size(value unit)
{
    (void)unit;
    return Val_int(sizeof(Scene_node));
}
