[@@@sarek.type]
type t = { x : int32 }