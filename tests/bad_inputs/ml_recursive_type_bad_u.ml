type t = { x : int32 } [@@sarek.type]
type u = { t : u } [@@sarek.type]