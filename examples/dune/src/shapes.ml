(** The library's interface to its C code. *)

external node_size : unit -> int = "shapes_node_size"
