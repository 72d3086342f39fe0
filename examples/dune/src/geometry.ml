(* Sarek element types live in ordinary OCaml sources: sarek-layout reads the declarations
   that carry [@@sarek.type] and skips everything else. *)

(* Sarek provides float32 and float64; these stand-ins let plain OCaml compile the example. *)
type float32 = float

type float64 = float

type point = { x : float32; y : float32 } [@@sarek.type]

type shape = Circle of point * float32 | Empty [@@sarek.type]

let origin = { x = 0.0; y = 0.0 }
