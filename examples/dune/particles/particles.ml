(* An independent set of element types: its header and C code are rebuilt on their own. *)

type float32 = float

type particle = { mass : float32; pos_x : float32; pos_y : float32; alive : bool }
[@@sarek.type]

let describe = "particles of the example"

external particle_size : unit -> int = "particles_particle_size"
