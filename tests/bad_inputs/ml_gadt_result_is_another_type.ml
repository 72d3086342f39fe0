type w = W [@@sarek.type]

type t =
  | A : int32 -> w
  | B : t
[@@sarek.type]
