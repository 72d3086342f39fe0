(* Uses a type of geometry.ml: scene.h includes geometry.h, and an edit of geometry.ml
   regenerates both. *)

type node = { at : Geometry.point; parent : int32 } [@@sarek.type]

let root = { at = Geometry.origin; parent = -1l }
