type t = { p : pointt } [@@sarek.type]
type point = { x : int32 } [@@sarek.type]