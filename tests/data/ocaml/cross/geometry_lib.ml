(* Shared geometry: used by scene.ml through Geometry_lib.point. *)
type point = { x : float32; y : float32 } [@@sarek.type]
type box = { min : point; max : point } [@@sarek.type]
let origin = { x = 0.0; y = 0.0 }
