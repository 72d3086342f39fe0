type t = { a__b : int32 } [@@sarek.type]
