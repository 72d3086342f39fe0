let s = 1
(* unterminated
 type t = { x : int32 } [@@sarek.type]