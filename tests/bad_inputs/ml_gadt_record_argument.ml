type t =
  | A : { x : int32 } -> t
[@@sarek.type]
