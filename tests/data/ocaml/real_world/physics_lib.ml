(* A library of element types that other files use as Physics_lib.<type>. *)

type float32 = float

type vec2 = { x : float32; y : float32 } [@@sarek.type]

type material = { density : float64; restitution : float32 } [@@sarek.type]

let[@sarek.module] len2 (v : vec2) : float32 = (v.x *. v.x) +. (v.y *. v.y)
