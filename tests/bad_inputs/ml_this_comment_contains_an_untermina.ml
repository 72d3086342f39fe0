(* it is "open *)
type t = A [@@sarek.type]