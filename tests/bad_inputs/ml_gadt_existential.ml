type t =
  | A : 'a -> t
[@@sarek.type]
