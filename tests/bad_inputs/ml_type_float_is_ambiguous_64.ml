type t = {
  x : float;
} [@@sarek.type]