type t = A : (int32 * int64) -> t [@@sarek.type]
