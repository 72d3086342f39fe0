let s = "open
type t = { x : int32 } [@@sarek.type]