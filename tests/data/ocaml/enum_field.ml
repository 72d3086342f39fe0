(* An enum used as a record field: Sarek keeps variants at top level only. *)
type colour = Red | Green | Blue [@@sarek.type]

type pixel = {
  x : int32;
  y : int32;
  colour : colour;
} [@@sarek.type]
