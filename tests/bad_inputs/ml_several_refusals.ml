(* Three independent mistakes: each type is named, in the order of the file. *)
type ok = { x : float32 } [@@sarek.type]

type pair = { p : float32 * float32 } [@@sarek.type]

type 'a boxed = { v : 'a } [@@sarek.type]

type uses_pair = { inner : pair } [@@sarek.type]

type label = { name : string } [@@sarek.type]
