type t = { x : int32 } [@@sarek.type]
and t = A [@@sarek.type]