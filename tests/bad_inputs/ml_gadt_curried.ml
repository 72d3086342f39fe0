type t = A : int32 -> int32 -> t [@@sarek.type]
