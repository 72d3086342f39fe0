(* A Sarek source: the element types carry [@@sarek.type]; everything else (kernels, lets,
   comments) is skipped by sarek-layout. Its module is the file stem: Particles. *)

type particle = { mass : float32; pos_x : float32; pos_y : float32; alive : bool }
[@@sarek.type]

type event = Spawn of particle | Decay of int32 * float32 | Idle [@@sarek.type]

let describe = "particles of the example"
