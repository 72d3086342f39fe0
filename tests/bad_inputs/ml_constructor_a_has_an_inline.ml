type t =
  | A of { x : int32 }
[@@sarek.type]