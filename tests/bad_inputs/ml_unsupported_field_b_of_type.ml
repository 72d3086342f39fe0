type t = { a : int32 } [@@sarek.type]
type u = { b : t array } [@@sarek.type]