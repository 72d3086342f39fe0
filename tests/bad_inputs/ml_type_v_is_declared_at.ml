type v = { a : int32 }
type t = { x : v } [@@sarek.type]